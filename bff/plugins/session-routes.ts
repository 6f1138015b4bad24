// The browser session: log in, exchange a one-time sign-in code, refresh, who is signed in, log out. The token goes
// into an httpOnly cookie and never into the response body, so page scripts cannot read it.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AuthenticationRequired } from '../../lib/errors.js'
import jsonBody from '../../lib/json-body.js'
import { LoginBody, OAuthExchangeBody } from '../../schemas/auth.js'
import { described, ErrorResponse, Message } from '../../schemas/common.js'
import { UserSelf } from '../../schemas/users.js'
import { cookieNote, errorResponses, Exchanged, limitNote, ORIGIN_NOTE, READ_NOTE, Refreshed, SESSION_TAG, SessionState, SignedIn } from '../openapi.js'
import { clearSessionCookie, setSessionCookie } from '../session-cookie.js'
import { UpstreamUnavailableError } from './error-handler.js'
import type { AuthLimitHooks, AuthLimits } from './rate-limit.js'

export interface SessionRouteOptions {
  apiUrl: string
  cookieName: string
  /** How long to wait for the API before answering 502. */
  timeoutMs: number
  /** The proxy's own rate limits (rate-limit.ts): the hooks, and their values for the document. */
  limits: AuthLimitHooks
  limitValues: AuthLimits
}

interface ApiAnswer { status: number, body: Record<string, unknown> }

export default async function sessionRoutes (fastify: FastifyInstance, opts: SessionRouteOptions): Promise<void> {
  // The schemas below document these routes; they change nothing at run time. The API validates the bodies (its 400
  // details reach the browser as they are, unknown fields included), and its answers are relayed as they are (a
  // schema serializer would drop or refuse fields it does not list).
  fastify.setValidatorCompiler(() => () => true)
  fastify.setSerializerCompiler(() => data => JSON.stringify(data))
  // As on the API, an empty body sent as JSON is no body (the API then answers what is missing). Only here: the proxy
  // passes bodies through unparsed.
  await fastify.register(jsonBody)
  // Named components of the document.
  fastify.addSchema(ErrorResponse)
  fastify.addSchema(UserSelf)
  const notes = `${cookieNote(opts.cookieName)} ${ORIGIN_NOTE}`
  const signInLimit = limitNote(opts.limitValues.signIn, 'sign-in, every attempt counting')
  const sessionLimit = limitNote(opts.limitValues.session, 'the session routes (refresh, session, logout)')
  const relayed = 'The body is passed on as is and the API validates it; its answers are relayed without the token.'

  /**
   * Calls the API as the browser would through the proxy, passing on its address and request id (the proxy's own,
   * made by the shared `genReqId` of server-options.ts: a well-formed id from a trusted peer, else a fresh UUID).
   */
  async function callApi (request: FastifyRequest, path: string, body: unknown, token?: string, method: 'GET' | 'POST' = 'POST'): Promise<ApiAnswer> {
    let status: number
    let text: string
    try {
      const response = await fetch(`${opts.apiUrl}${path}`, {
        method,
        headers: {
          ...(method === 'POST' && { 'content-type': 'application/json' }),
          'x-forwarded-for': request.ip,
          'x-request-id': request.id,
          ...(token != null && { authorization: `Bearer ${token}` })
        },
        ...(method === 'POST' && { body: JSON.stringify(body ?? {}) }),
        signal: AbortSignal.timeout(opts.timeoutMs)
      })
      status = response.status
      text = await response.text()
    } catch (err) {
      throw new UpstreamUnavailableError(err)
    }
    // The API always answers JSON objects; anything else came from something in between.
    let parsed: unknown
    try { parsed = JSON.parse(text) } catch { parsed = null }
    if (parsed == null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new UpstreamUnavailableError(new Error(`unexpected API answer: ${status}`))
    }
    return { status, body: parsed as Record<string, unknown> }
  }

  /** Passes the API's answer on, moving a token from the body into the session cookie. */
  function answer (reply: FastifyReply, { status, body }: ApiAnswer): FastifyReply {
    const { token, ...rest } = body
    if (status >= 200 && status < 300 && typeof token === 'string') setSessionCookie(reply, opts.cookieName, token)
    return reply.code(status).send(rest)
  }

  /** The token of the session cookie; without one there is no session (401, as the API answers a missing token). */
  function sessionToken (request: FastifyRequest): string {
    const token = request.cookies[opts.cookieName]
    if (token == null || token === '') throw new AuthenticationRequired()
    return token
  }

  fastify.post('/bff/auth/login', {
    onRequest: opts.limits.signIn,
    schema: {
      operationId: 'bff.login',
      tags: [SESSION_TAG],
      summary: 'Sign the browser in with a password',
      description: `Signs in through \`POST /api/auth/login\` and sets the session cookie. ${relayed} ${notes}`,
      body: LoginBody,
      response: {
        200: described('Signed in: the session cookie is set; the body has the account, not the token', SignedIn),
        ...errorResponses({
          400: 'Invalid body (`details` lists every problem, from the API), malformed JSON or a `#` in the request target',
          401: 'Wrong identifier or password (the same either way); no cookie is set',
          403: 'Refused by the origin check, or the account is banned or deactivated',
          423: 'Account locked after repeated wrong passwords; `retryAfter` says for how long',
          429: `${signInLimit}, or the API's auth limit, which counts failed sign-ins only`
        })
      }
    }
  }, async (request, reply) => answer(reply, await callApi(request, '/api/auth/login', request.body)))

  fastify.post('/bff/auth/oauth/exchange', {
    onRequest: opts.limits.signIn,
    schema: {
      operationId: 'bff.oauthExchange',
      tags: [SESSION_TAG],
      summary: 'Exchange a one-time sign-in code for a browser session',
      description: 'Exchanges the code of an identity-provider redirect (`POST /api/auth/oauth/code`, 60 s, single use) ' +
        `through \`POST /api/auth/oauth/exchange\` and sets the session cookie. ${relayed} ${notes}`,
      body: OAuthExchangeBody,
      response: {
        200: described('Signed in: the session cookie is set; the body has the account, not the token', Exchanged),
        ...errorResponses({
          400: 'Invalid or expired code, an invalid body (`details` lists every problem), malformed JSON or a `#` in the request target',
          403: 'Refused by the origin check, or the account is banned or deactivated',
          429: `${signInLimit}, or the API's auth limit, which counts every exchange`
        })
      }
    }
  }, async (request, reply) => answer(reply, await callApi(request, '/api/auth/oauth/exchange', request.body)))

  fastify.post('/bff/auth/refresh', {
    onRequest: opts.limits.session,
    schema: {
      operationId: 'bff.refresh',
      tags: [SESSION_TAG],
      summary: 'Renew the browser session',
      description: 'Exchanges the cookie\'s token through `POST /api/auth/refresh`: the old token is revoked at once and the ' +
        'session cookie set anew with the new one, for another 24 hours. The body never carries a token. Of several ' +
        'concurrent refreshes one succeeds and the others get 401; a 401 leaves the cookie as it is (a concurrent refresh ' +
        `may just have replaced it). A request body is parsed (malformed JSON is 400) but not used. ${notes}`,
      security: [{ sessionCookie: [] }],
      response: {
        200: described('Renewed: the session cookie holds a new token and the old one is revoked', Refreshed),
        ...errorResponses({
          401: 'No session cookie, or its token is expired, revoked or belongs to a banned or deactivated account',
          429: sessionLimit
        })
      }
    }
  }, async (request, reply) => answer(reply, await callApi(request, '/api/auth/refresh', {}, sessionToken(request))))

  fastify.get('/bff/auth/session', {
    onRequest: opts.limits.session,
    schema: {
      operationId: 'bff.session',
      tags: [SESSION_TAG],
      summary: 'The account the browser is signed in as',
      description: 'Reads the account behind the session cookie through `GET /api/auth/me`, so a page can show who is ' +
        `signed in without ever seeing the token. The answer is never cached. ${cookieNote(opts.cookieName)} ${READ_NOTE}`,
      security: [{ sessionCookie: [] }],
      response: {
        200: described('Signed in as this account', SessionState),
        ...errorResponses({
          400: 'A `#` in the request target',
          401: 'No session cookie, or its token is expired, revoked or belongs to a banned or deactivated account: not signed in',
          429: sessionLimit
        }, ['403', '413', '415'])
      }
    }
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store')
    return answer(reply, await callApi(request, '/api/auth/me', undefined, sessionToken(request), 'GET'))
  })

  fastify.post('/bff/auth/logout', {
    onRequest: opts.limits.session,
    schema: {
      operationId: 'bff.logout',
      tags: [SESSION_TAG],
      summary: 'Sign the browser out',
      description: 'Revokes the session token through `POST /api/auth/logout`, then clears the session cookie whatever ' +
        'the API answered (an expired token is still a logout). Without a cookie there is nothing to revoke: 200 all the ' +
        'same. If the API cannot be reached the answer is 502 and the cookie stays, so the page can retry. A request body is ' +
        `parsed (malformed JSON is 400) but not used. ${notes}`,
      security: [{ sessionCookie: [] }, {}],
      response: {
        200: described('Signed out: the session cookie is cleared', Message),
        ...errorResponses({ 429: sessionLimit, 502: 'The API could not be reached to revoke the token: the cookie is kept so the page can retry' })
      }
    }
  }, async (request, reply) => {
    const token = request.cookies[opts.cookieName]
    // Revoke the token server-side. Whatever the API answers (an expired token is still a logout) the cookie goes; if
    // the API cannot be reached the call fails with 502 and the cookie stays, so the page can retry the revocation.
    if (token != null && token !== '') await callApi(request, '/api/auth/logout', {}, token)
    clearSessionCookie(reply, opts.cookieName)
    return await reply.code(200).send({ message: 'Logged out' })
  })
}
