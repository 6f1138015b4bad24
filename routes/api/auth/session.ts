// Register, sign in, and the signed-in session (me, refresh, logout, change password).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { currentClaims, currentUser, sessionValue } from '../../../plugins/app/auth.js'
import { described, ErrorRef, Message } from '../../../schemas/common.js'
import type { UserSelfView } from '../../../schemas/users.js'
import {
  ChangePasswordBody, ChangePasswordResponse, LoginBody, MeResponse, RegisterBody, SessionResponse, TokenResponse
} from '../../../schemas/auth.js'

const session: FastifyPluginAsyncTypebox = async fastify => {
  const accounts = fastify.accountService

  fastify.post('/register', {
    schema: {
      operationId: 'auth.register',
      summary: 'Create an account',
      description: 'An existing email or username gets the same 409 message, so it does not reveal which one exists.',
      body: RegisterBody,
      response: { 201: described('Registered and signed in: the account and a Bearer token', SessionResponse), 409: ErrorRef }
    }
  }, async (request, reply) => {
    const { user, token } = await accounts.register(request.body)
    return await reply.code(201).send({ message: 'Registration successful', user, token })
  })

  fastify.post('/login', {
    config: { failuresOnly: true },
    schema: {
      operationId: 'auth.login',
      summary: 'Sign in with email or username and password',
      description: 'Wrong identifier or password: 401 (the same either way). 5 wrong passwords lock the account for ' +
        '15 minutes (423 with retryAfter); a successful sign-in resets the count. Only failed sign-ins count against the ' +
        'auth rate limit (429 with limit "auth").',
      body: LoginBody,
      response: { 200: described('Signed in: the account and a Bearer token', SessionResponse), 401: ErrorRef, 403: ErrorRef, 423: ErrorRef }
    }
  }, async request => ({ message: 'Login successful', ...(await accounts.login(request.body)) }))

  fastify.get('/me', {
    onRequest: fastify.authenticate,
    // The session check reads the profile too: one statement.
    config: { tokenRoute: true, sessionRead: fastify.userService.ownSession },
    schema: { operationId: 'auth.me', summary: 'The signed-in account, with email and plan', response: { 200: described('Your account', MeResponse) } }
  }, async request => ({ user: sessionValue<UserSelfView>(request) }))

  fastify.post('/refresh', {
    onRequest: fastify.authenticate,
    config: { tokenRoute: true },
    schema: {
      operationId: 'auth.refresh',
      summary: 'Exchange the token for a new one; the old one is revoked',
      description: 'Of several concurrent refreshes of one token, one succeeds and the others get 401.',
      response: { 200: described('A fresh token', TokenResponse) }
    }
  }, async request => await accounts.refresh(currentUser(request), currentClaims(request)))

  fastify.post('/logout', {
    onRequest: fastify.authenticate,
    config: { tokenRoute: true },
    schema: { operationId: 'auth.logout', summary: 'Revoke the presented token', response: { 200: described('Signed out', Message) } }
  }, async request => {
    await accounts.logout(currentClaims(request))
    return { message: 'Logged out' }
  })

  fastify.post('/change-password', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'auth.changePassword',
      summary: 'Change the password; every older token stops working',
      description: 'A wrong current password counts against the account like a failed sign-in (423 once locked).',
      body: ChangePasswordBody,
      response: { 200: described('Password changed, with a token that replaces the old ones', ChangePasswordResponse), 423: ErrorRef }
    }
  }, async request => {
    const { token } = await accounts.changePassword(currentUser(request), request.body.currentPassword, request.body.newPassword)
    return { message: 'Password changed', token }
  })
}

export default session
