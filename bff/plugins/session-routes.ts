// The browser session: log in, exchange a one-time sign-in code, log out. The token goes into an httpOnly cookie and
// never into the response body, so page scripts cannot read it.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
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

  fastify.post('/bff/auth/login', async (request, reply) => answer(reply, await callApi(request, '/api/auth/login', request.body)))

  fastify.post('/bff/auth/oauth/exchange', async (request, reply) =>
    answer(reply, await callApi(request, '/api/auth/oauth/exchange', request.body)))

  fastify.post('/bff/auth/logout', async (request, reply) => {
    const token = request.cookies[opts.cookieName]
    // Revoke the token server-side. Whatever the API answers (an expired token is still a logout) the cookie goes; if
    // the API cannot be reached the call fails with 502 and the cookie stays, so the page can retry the revocation.
    if (token != null && token !== '') await callApi(request, '/api/auth/logout', {}, token)
    clearSessionCookie(reply, opts.cookieName)
    return await reply.code(200).send({ message: 'Logged out' })
  })
}
