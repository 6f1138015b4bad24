// Ban, unban and unlock an account.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { AdminBanBody, AdminUserParams, AdminUserResponse } from '../../../../schemas/admin-users.js'
import { described, ErrorRef } from '../../../../schemas/common.js'

const moderation: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.adminUsersService

  fastify.post('/:userId/ban', {
    schema: {
      operationId: 'admin.users.ban',
      summary: 'Ban an account',
      description: 'The user cannot sign in (403) and every token they hold stops working at once, on strict and ' +
        'optional routes (optional routes treat them as anonymous); their profile is hidden from others. Banning again ' +
        'keeps the first `bannedAt` and replaces the reason.',
      params: AdminUserParams,
      body: AdminBanBody,
      response: { 200: described('The banned account', AdminUserResponse), 404: ErrorRef }
    }
  }, async request => ({ user: await service.ban(request.params.userId, request.body.reason) }))

  fastify.post('/:userId/unban', {
    schema: {
      operationId: 'admin.users.unban',
      summary: 'Lift a ban',
      description: 'The user\'s unexpired tokens work again at once (a deactivated account stays deactivated). ' +
        'Unbanning an account that is not banned changes nothing.',
      params: AdminUserParams,
      response: { 200: described('The account', AdminUserResponse), 404: ErrorRef }
    }
  }, async request => ({ user: await service.unban(request.params.userId) }))

  fastify.post('/:userId/unlock', {
    schema: {
      operationId: 'admin.users.unlock',
      summary: 'End a sign-in lock',
      description: 'Clears the failed sign-in attempts and the lock set after 5 wrong passwords, so the user can sign ' +
        'in again at once.',
      params: AdminUserParams,
      response: { 200: described('The account', AdminUserResponse), 404: ErrorRef }
    }
  }, async request => ({ user: await service.unlock(request.params.userId) }))
}

export default moderation
