// Admin sign-in and the signed-in session: who am I, sign out, change password, sessions.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { currentAdmin } from '../../../../plugins/app/admin-auth.js'
import {
  AdminChangePasswordBody, AdminLoginBody, AdminLoginResponse, AdminMe, AdminSessionList, AdminSessionParams
} from '../../../../schemas/admin.js'
import { described, ErrorRef, Message } from '../../../../schemas/common.js'

const session: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.adminAuthService
  const { reserve, settle } = fastify.rateLimits.authFailures

  fastify.post('/login', {
    // The only admin route without an admin token. Failed attempts count against the auth limit (15 / 15 min).
    config: { adminPublic: true },
    onRequest: reserve,
    onSend: settle,
    schema: {
      operationId: 'admin.auth.login',
      summary: 'Sign in as an admin',
      description: 'identifier is the email (any case) or the username (exact case). With MFA on, the right password ' +
        'alone answers `{ mfaRequired: true }`; send it again with `totpCode` (each code works once) or a `backupCode` ' +
        '(single use). Wrong password or code: 401, counted against the account (5 within 15 minutes lock it for 15 minutes: 423) and ' +
        'against the auth rate limit.',
      body: AdminLoginBody,
      response: { 200: described('Signed in, or the second factor is needed', AdminLoginResponse), 401: ErrorRef, 403: ErrorRef, 423: ErrorRef }
    }
  }, async request => {
    const result = await service.login(request.body, { ip: request.ip, userAgent: request.headers['user-agent'] ?? null })
    if ('admin' in result) request.auditAdminId = result.admin.id
    return result
  })

  fastify.get('/me', {
    schema: { operationId: 'admin.auth.me', summary: 'The signed-in admin', response: { 200: described('Your admin account', AdminMe) } }
  }, async request => await service.me(currentAdmin(request)))

  fastify.post('/logout', {
    schema: {
      operationId: 'admin.auth.logout',
      summary: 'Sign out: the session ends and its token stops working at once',
      response: { 200: described('Signed out', Message) }
    }
  }, async request => {
    await service.logout(currentAdmin(request))
    return { message: 'Logged out' }
  })

  fastify.post('/change-password', {
    schema: {
      operationId: 'admin.auth.changePassword',
      summary: 'Change your password; your other sessions end',
      description: 'The new password needs at least 12 characters. A wrong current password counts against the account ' +
        'like a failed sign-in.',
      body: AdminChangePasswordBody,
      response: { 200: described('Password changed; this session stays signed in', Message), 423: ErrorRef }
    }
  }, async request => {
    await service.changePassword(currentAdmin(request), request.body.currentPassword, request.body.newPassword)
    return { message: 'Password changed' }
  })

  fastify.get('/sessions', {
    schema: {
      operationId: 'admin.auth.sessions',
      summary: 'Your live sessions',
      description: 'Not paged: at most 100 (the newest); sessions end after 8 hours anyway.',
      response: { 200: AdminSessionList }
    }
  }, async request => ({ sessions: await service.sessions(currentAdmin(request)) }))

  fastify.delete('/sessions/:sessionId', {
    schema: {
      operationId: 'admin.auth.revokeSession',
      summary: 'End one of your sessions',
      params: AdminSessionParams,
      response: { 200: described('Session ended', Message), 404: ErrorRef }
    }
  }, async request => {
    await service.revokeSession(currentAdmin(request), request.params.sessionId)
    return { message: 'Session revoked' }
  })
}

export default session
