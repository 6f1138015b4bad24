// Other admin accounts: list them, create one.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentAdmin } from '../../../../plugins/app/admin-auth.js'
import { Admin, AdminCreateBody } from '../../../../schemas/admin.js'
import { ErrorRef, Pagination, PaginationQuery, ref } from '../../../../schemas/common.js'

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
}

export default admins
