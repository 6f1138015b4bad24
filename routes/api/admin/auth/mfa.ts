// TOTP multi-factor authentication for the signed-in admin: set up, enable (backup codes), disable.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { currentAdmin } from '../../../../plugins/app/admin-auth.js'
import { MfaDisableBody, MfaEnableBody, MfaEnableResponse, MfaSetupBody, MfaSetupResponse } from '../../../../schemas/admin.js'
import { described, ErrorRef, Message } from '../../../../schemas/common.js'

/** Code guesses on these routes, per admin: the login route has the auth limiter and the account lockout. */
const MFA_ATTEMPTS = 10
const MFA_WINDOW_SECONDS = 15 * 60

const mfa: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.adminAuthService
  const limitGuesses = async (adminId: string) => { await fastify.rateLimits.perUser('admin-mfa', adminId, MFA_ATTEMPTS, MFA_WINDOW_SECONDS) }

  fastify.post('/mfa/setup', {
    schema: {
      operationId: 'admin.auth.mfaSetup',
      summary: 'Start MFA set-up: a new TOTP secret',
      description: 'Needs the current password (a wrong one is 401 `Invalid credentials` and counts against the lockout; ' +
        '423 while locked). The secret stays pending (and MFA off) until mfa/enable receives a code made with it.',
      body: MfaSetupBody,
      response: { 200: MfaSetupResponse, 401: ErrorRef, 409: ErrorRef, 423: ErrorRef }
    }
  }, async request => await service.setupMfa(currentAdmin(request), request.body.password))

  fastify.post('/mfa/enable', {
    schema: {
      operationId: 'admin.auth.mfaEnable',
      summary: 'Turn MFA on with a code from the authenticator',
      description: 'Needs the current password, checked as on mfa/setup, and a code of the pending secret. Answers the 10 ' +
        `backup codes once. ${MFA_ATTEMPTS} attempts per 15 minutes.`,
      body: MfaEnableBody,
      response: { 200: MfaEnableResponse, 401: ErrorRef, 409: ErrorRef, 423: ErrorRef, 429: ErrorRef }
    }
  }, async request => {
    const admin = currentAdmin(request)
    await limitGuesses(admin.id)
    return await service.enableMfa(admin, request.body.password, request.body.code)
  })

  fastify.post('/mfa/disable', {
    schema: {
      operationId: 'admin.auth.mfaDisable',
      summary: 'Turn MFA off',
      description: `Needs the password and a current code (TOTP or backup). ${MFA_ATTEMPTS} attempts per 15 minutes.`,
      body: MfaDisableBody,
      response: { 200: described('MFA is off; the backup codes are void', Message), 401: ErrorRef, 409: ErrorRef, 423: ErrorRef, 429: ErrorRef }
    }
  }, async request => {
    const admin = currentAdmin(request)
    await limitGuesses(admin.id)
    await service.disableMfa(admin, request.body.password, request.body.code)
    return { message: 'MFA disabled' }
  })
}

export default mfa
