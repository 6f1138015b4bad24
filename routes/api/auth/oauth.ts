// External sign-in: ID tokens verified against the provider's published key set (issuer, audience, expiry).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { described, ErrorRef } from '../../../schemas/common.js'
import { OAuthBody, OAuthCodeResponse, OAuthExchangeBody, OAuthExchangeResponse, SessionResponse } from '../../../schemas/auth.js'

const oauth: FastifyPluginAsyncTypebox = async fastify => {
  const accounts = fastify.accountService

  fastify.post('/oauth', {
    schema: {
      operationId: 'auth.oauthSignIn',
      summary: 'Sign in with an identity provider',
      description: 'Creates the account on first sign-in (random password, username derived from the email).',
      body: OAuthBody,
      response: { 200: described('Signed in: the account and a Bearer token', SessionResponse), 401: ErrorRef, 403: ErrorRef, 409: ErrorRef }
    }
  }, async request => ({ message: 'Login successful', ...(await accounts.oauthSignIn(request.body.provider, request.body.idToken)) }))

  fastify.post('/oauth/code', {
    schema: {
      operationId: 'auth.oauthCode',
      summary: 'Sign in with an identity provider and get a one-time code',
      description: 'For browser redirects: the code (60 s, single use) goes in the redirect instead of a token.',
      body: OAuthBody,
      response: { 200: described('A one-time code to exchange for a session', OAuthCodeResponse), 401: ErrorRef, 403: ErrorRef, 409: ErrorRef }
    }
  }, async request => await accounts.oauthCode(request.body.provider, request.body.idToken))

  fastify.post('/oauth/exchange', {
    schema: {
      operationId: 'auth.oauthExchange',
      summary: 'Exchange a one-time code for a session',
      body: OAuthExchangeBody,
      response: { 200: described('The account and a Bearer token', OAuthExchangeResponse), 400: ErrorRef, 403: ErrorRef }
    }
  }, async request => {
    const { user, token } = await accounts.exchangeCode(request.body.code)
    return { user, token }
  })
}

export default oauth
