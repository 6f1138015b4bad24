// Forgotten passwords: a single-use emailed token (stored as SHA-256, valid one hour).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { described, ErrorRef, Message } from '../../../schemas/common.js'
import { ForgotPasswordBody, ResetPasswordBody } from '../../../schemas/auth.js'

const FORGOT_MESSAGE = 'If an account exists for this email, a password reset link has been sent'

const passwordReset: FastifyPluginAsyncTypebox = async fastify => {
  fastify.post('/forgot-password', {
    schema: {
      operationId: 'auth.forgotPassword',
      summary: 'Email a password reset link',
      description: 'Always answers the same, whether or not the account exists.',
      body: ForgotPasswordBody,
      response: { 200: described('Accepted (the same answer whether or not the account exists)', Message) }
    }
  }, async request => {
    await fastify.accountService.requestPasswordReset(request.body.email)
    return { message: FORGOT_MESSAGE }
  })

  fastify.post('/reset-password', {
    schema: {
      operationId: 'auth.resetPassword',
      summary: 'Set a new password with the emailed token',
      description: 'The new password follows the registration policy. Every token issued before the reset stops working.',
      body: ResetPasswordBody,
      response: { 200: described('Password changed', Message), 400: ErrorRef }
    }
  }, async request => {
    await fastify.accountService.resetPassword(request.body.token, request.body.password)
    return { message: 'Password has been reset' }
  })
}

export default passwordReset
