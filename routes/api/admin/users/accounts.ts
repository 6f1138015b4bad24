// Accounts for admins: the list with filters, one account with its counts, and changes to active / verified / plan.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  AdminUserList, AdminUserParams, AdminUserPatchBody, AdminUserQuery, AdminUserResponse
} from '../../../../schemas/admin-users.js'
import { described, ErrorRef } from '../../../../schemas/common.js'

const accounts: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.adminUsersService

  fastify.get('/', {
    schema: {
      operationId: 'admin.users.list',
      summary: 'Accounts, newest first',
      description: '`q` matches part of the username or email. `status`: `banned`; `deactivated` (not banned); ' +
        '`locked` (active and not banned, locked for 15 minutes after 5 wrong passwords); `active` (none of these). ' +
        'The total is counted up to 10,000 (`totalExact: false` beyond).',
      querystring: AdminUserQuery,
      response: { 200: AdminUserList }
    }
  }, async request => {
    const { page, limit, ...filters } = request.query
    return await service.list(filters, page, limit)
  })

  fastify.get('/:userId', {
    schema: {
      operationId: 'admin.users.get',
      summary: 'One account with its moderation state and counts',
      description: 'Counts include everything of the user\'s (drafts and hidden recipes too); `openReports` counts ' +
        'reports against the user not yet resolved. `lockedUntil` is set while a sign-in lock is in force.',
      params: AdminUserParams,
      response: { 200: described('The account', AdminUserResponse), 404: ErrorRef }
    }
  }, async request => ({ user: await service.detail(request.params.userId) }))

  fastify.patch('/:userId', {
    schema: {
      operationId: 'admin.users.update',
      summary: 'Change an account: active, verified, plan',
      description: '`active: false` deactivates the account: sign-in answers 403 and every token the user holds stops ' +
        'working at once, on strict and optional routes (optional routes treat the user as anonymous); `active: true` ' +
        'restores it. `planId` must be the id of an existing plan (400 otherwise) and starts the subscription over on it. ' +
        'Fields left out are unchanged; repeating a request changes nothing more.',
      params: AdminUserParams,
      body: AdminUserPatchBody,
      response: { 200: described('The account as changed', AdminUserResponse), 400: ErrorRef, 404: ErrorRef }
    }
  }, async request => ({ user: await service.update(request.params.userId, request.body) }))
}

export default accounts
