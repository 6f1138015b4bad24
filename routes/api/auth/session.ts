// Register, sign in, and the signed-in session (me, refresh, logout, change password).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser, TOKEN_LIFETIME_SECONDS } from '../../../plugins/app/auth.js'
import { validationError } from '../../../lib/errors.js'
import { ErrorRef, Message, ref } from '../../../schemas/common.js'
import { ChangePasswordBody, ChangePasswordResponse, LoginBody, RegisterBody, SessionResponse, TokenResponse } from '../../../schemas/auth.js'
import { UserSelf } from '../../../schemas/users.js'

const auth: FastifyPluginAsyncTypebox = async fastify => {
  fastify.post('/register', {
    schema: {
      summary: 'Create an account',
      description: 'An existing email or username gets the same 409 message, so it does not reveal which one exists.',
      body: RegisterBody,
      response: { 201: SessionResponse, 409: ErrorRef }
    }
  }, async (request, reply) => {
    const session = await fastify.accounts.register(request.body)
    return await reply.code(201).send({ message: 'Registration successful', ...session })
  })

  fastify.post('/login', {
    schema: {
      summary: 'Sign in with email or username and password',
      body: LoginBody,
      response: { 200: SessionResponse, 401: ErrorRef, 403: ErrorRef, 423: ErrorRef }
    }
  }, async request => {
    const { identifier, email, username, password } = request.body
    const login = identifier ?? email ?? username
    if (login == null) throw validationError(['identifier: is required'])
    return { message: 'Login successful', ...(await fastify.accounts.login(login, password)) }
  })

  fastify.get('/me', {
    onRequest: fastify.authenticate,
    config: { tokenRoute: true },
    schema: { summary: 'The signed-in account, with email and plan', response: { 200: Type.Object({ user: ref(UserSelf) }) } }
  }, async request => {
    const { user } = await fastify.accounts.session(currentUser(request).id)
    return { user }
  })

  fastify.post('/refresh', {
    onRequest: fastify.authenticate,
    config: { tokenRoute: true },
    schema: { summary: 'Exchange the token for a new one; the old one is revoked', response: { 200: TokenResponse } }
  }, async request => {
    const user = currentUser(request)
    await fastify.tokens.revoke(request.tokenClaims!)
    const { token } = await fastify.tokens.issue(user)
    return { token, expiresIn: TOKEN_LIFETIME_SECONDS }
  })

  fastify.post('/logout', {
    onRequest: fastify.authenticate,
    config: { tokenRoute: true },
    schema: { summary: 'Revoke the presented token', response: { 200: Message } }
  }, async request => {
    await fastify.tokens.revoke(request.tokenClaims!)
    return { message: 'Logged out' }
  })

  fastify.post('/change-password', {
    onRequest: fastify.authenticate,
    schema: {
      summary: 'Change the password; every older token stops working',
      body: ChangePasswordBody,
      response: { 200: ChangePasswordResponse }
    }
  }, async request => {
    const user = currentUser(request)
    await fastify.accounts.changePassword(user.id, request.body.currentPassword, request.body.newPassword)
    await fastify.tokens.revoke(request.tokenClaims!)
    const { token } = await fastify.tokens.issue(user)
    return { message: 'Password changed', token }
  })
}

export default auth
