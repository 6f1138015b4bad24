// Other admin accounts: list them, create one, end another's lockout.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentAdmin } from '../../../../plugins/app/admin-auth.js'
import { Admin, AdminCreateBody } from '../../../../schemas/admin.js'
import { ErrorRef, Id, Pagination, PaginationQuery, ref } from '../../../../schemas/common.js'

const admins: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.adminAuthService

  fastify.get('/', {
    schema: {
      operationId: 'admin.admins.list',
      summary: 'Every admin account',
      querystring: PaginationQuery,
      response: { 200: Type.Object({ admins: Type.Array(ref(Admin)), pagination: ref(Pagination) }, { description: 'Admins, oldest first' }) }
    }
  }, async request => await service.list(request.query.page, request.query.limit))

  fastify.post('/', {
    schema: {
      operationId: 'admin.admins.create',
      summary: 'Create another admin',
      description: 'The new admin signs in with this password and should change it and set up MFA.',
      body: AdminCreateBody,
      response: { 201: Type.Object({ admin: ref(Admin) }, { description: 'The new admin' }), 409: ErrorRef }
    }
  }, async (request, reply) => {
    const admin = await service.create(request.body, currentAdmin(request).id)
    return await reply.code(201).send({ admin })
  })

  fastify.post('/:adminId/unlock', {
    schema: {
      operationId: 'admin.admins.unlock',
      summary: 'End another admin\'s lockout',
      description: 'Ends the lock that five failed sign-ins set, and the series of failures. An admin cannot unlock ' +
        'their own account (403): a stolen session could otherwise reset the lockout that guards the password checks.',
      params: Type.Object({ adminId: Id }),
      response: { 200: Type.Object({ admin: ref(Admin) }, { description: 'The admin, unlocked' }), 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => ({ admin: await service.unlock(currentAdmin(request), request.params.adminId) }))
}

export default admins
