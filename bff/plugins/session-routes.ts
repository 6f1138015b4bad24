// The browser session: log in, exchange a one-time sign-in code, log out. The token goes into an httpOnly cookie and
// never into the response body, so page scripts cannot read it.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

export interface SessionRouteOptions {
  apiUrl: string
  cookieName: string
}

const COOKIE_MAX_AGE_SECONDS = 24 * 60 * 60

interface ApiAnswer { status: number, body: Record<string, unknown> }

export default async function sessionRoutes (fastify: FastifyInstance, opts: SessionRouteOptions): Promise<void> {
  const cookieOptions = { httpOnly: true, secure: true, sameSite: 'lax' as const, path: '/' }

  /** Calls the API as the browser would through the proxy, passing on its address and request id. */
  async function callApi (request: FastifyRequest, path: string, body: unknown, token?: string): Promise<ApiAnswer> {
    const response = await fetch(`${opts.apiUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': request.ip,
        'x-request-id': request.id,
        ...(token != null && { authorization: `Bearer ${token}` })
      },
      body: JSON.stringify(body ?? {}),
      signal: AbortSignal.timeout(15_000)
    })
    const text = await response.text()
    let parsed: Record<string, unknown> = {}
    try { parsed = JSON.parse(text) as Record<string, unknown> } catch { parsed = { error: 'Upstream error' } }
    return { status: response.status, body: parsed }
  }

  /** Passes the API's answer on, moving a token from the body into the session cookie. */
  function answer (reply: FastifyReply, { status, body }: ApiAnswer): FastifyReply {
    if (status >= 200 && status < 300 && typeof body.token === 'string') {
      const { token, ...rest } = body
      reply.setCookie(opts.cookieName, token, { ...cookieOptions, maxAge: COOKIE_MAX_AGE_SECONDS })
      return reply.code(status).send(rest)
    }
    return reply.code(status).send(body)
  }

  fastify.post('/bff/auth/login', async (request, reply) => answer(reply, await callApi(request, '/api/auth/login', request.body)))

  fastify.post('/bff/auth/oauth/exchange', async (request, reply) =>
    answer(reply, await callApi(request, '/api/auth/oauth/exchange', request.body)))

  fastify.post('/bff/auth/logout', async (request, reply) => {
    const token = request.cookies[opts.cookieName]
    // Revoke the token server-side; the cookie is cleared whatever the API says (an expired token is still a logout).
    if (token != null && token !== '') await callApi(request, '/api/auth/logout', {}, token)
    reply.clearCookie(opts.cookieName, cookieOptions)
    return await reply.code(200).send({ message: 'Logged out' })
  })
}
