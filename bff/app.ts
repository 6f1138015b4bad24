// The web proxy: /bff/api/<path> -> /api/<path>, turning the httpOnly session cookie into a Bearer header.
import cookie from '@fastify/cookie'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config.js'
import { validationError } from '../lib/errors.js'
import { addSecurityHeaders } from '../lib/security-headers.js'
import apiProxy from './plugins/api-proxy.js'
import docs from './plugins/docs.js'
import errorHandler from './plugins/error-handler.js'
import originCheck from './plugins/origin-check.js'
import page from './plugins/page.js'
import { authRateLimits, DEFAULT_AUTH_LIMITS, type AuthLimits } from './plugins/rate-limit.js'
import sessionRoutes from './plugins/session-routes.js'
import uploadsProxy from './plugins/uploads-proxy.js'

export { apiTarget } from './plugins/api-proxy.js'

export interface BffOptions {
  config: Config
  /** Where the API listens, e.g. http://127.0.0.1:3000 */
  apiUrl: string
  /** How long to wait for the API before answering 502 (default 60 s). */
  upstreamTimeoutMs?: number
  /** The proxy's own limits on /bff/auth/* per client address (default DEFAULT_AUTH_LIMITS: sign-in 20 a minute). */
  rateLimit?: Partial<AuthLimits>
}

export default async function bffApp (fastify: FastifyInstance, opts: BffOptions): Promise<void> {
  const cookieName = opts.config.authCookie
  const timeoutMs = opts.upstreamTimeoutMs ?? 60_000
  const limits: AuthLimits = { ...DEFAULT_AUTH_LIMITS, ...opts.rateLimit }

  await fastify.register(errorHandler)
  addSecurityHeaders(fastify, { crossOriginEmbedderPolicy: false })
  // Browsers never send a fragment. In a request target the router cuts the path at `#` while the proxy forwards
  // what follows (`/bff/api/admin#?q=1` -> `/api/admin?q=1`), so the two would disagree on the path.
  fastify.addHook('onRequest', async request => {
    if (request.raw.url?.includes('#') === true) throw validationError(['path: must not contain a fragment'])
  })
  await fastify.register(cookie)
  await fastify.register(originCheck, { allowedOrigins: opts.config.allowedOrigins })
  const limitHooks = await authRateLimits(fastify, { redisUrl: opts.config.redisUrl, keyPrefix: opts.config.cachePrefix, limits })
  // Before the routes, so the document sees them.
  await fastify.register(docs, { cookieName, timeoutMs, limits })

  await fastify.register(page)
  await fastify.register(sessionRoutes, { apiUrl: opts.apiUrl, cookieName, timeoutMs, limits: limitHooks, limitValues: limits })
  await fastify.register(apiProxy, { apiUrl: opts.apiUrl, cookieName, timeoutMs })
  await fastify.register(uploadsProxy, { apiUrl: opts.apiUrl, timeoutMs })
}
