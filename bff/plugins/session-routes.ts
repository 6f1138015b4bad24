// The browser session: log in, exchange a one-time sign-in code, log out. The token goes into an httpOnly cookie and
// never into the response body, so page scripts cannot read it.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { LoginBody, OAuthExchangeBody } from '../../schemas/auth.js'
import jsonBody from '../../lib/json-body.js'
import { described, ErrorResponse, Message } from '../../schemas/common.js'
import { UserSelf } from '../../schemas/users.js'
import { cookieNote, errorResponses, Exchanged, ORIGIN_NOTE, SESSION_TAG, SignedIn } from '../openapi.js'
import { clearSessionCookie, setSessionCookie } from '../session-cookie.js'
import { UpstreamUnavailableError } from './error-handler.js'

export interface SessionRouteOptions {
  apiUrl: string
  cookieName: string
  /** How long to wait for the API before answering 502. */
  timeoutMs: number
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
  const relayed = 'The body is passed on as is and the API validates it; its answers are relayed without the token.'

  /** Calls the API as the browser would through the proxy, passing on its address and request id. */
  async function callApi (request: FastifyRequest, path: string, body: unknown, token?: string): Promise<ApiAnswer> {
    let status: number
    let text: string
    try {
      const response = await fetch(`${opts.apiUrl}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-forwarded-for': request.ip,
          'x-request-id': request.id,
          ...(token != null && { authorization: `Bearer ${token}` })
        },
        body: JSON.stringify(body ?? {}),
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

  fastify.post('/bff/auth/login', {
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
          429: 'Rate limit reached (failed sign-ins count against `limit` "auth"); `retryAfter` says when to try again'
        })
      }
    }
  }, async (request, reply) => answer(reply, await callApi(request, '/api/auth/login', request.body)))

  fastify.post('/bff/auth/oauth/exchange', {
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
          429: 'Rate limit reached (every exchange counts against `limit` "auth"); `retryAfter` says when to try again'
        })
      }
    }
  }, async (request, reply) => answer(reply, await callApi(request, '/api/auth/oauth/exchange', request.body)))

  fastify.post('/bff/auth/logout', {
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
        ...errorResponses({ 502: 'The API could not be reached to revoke the token: the cookie is kept so the page can retry' })
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
