// The web proxy: /bff/api/<path> -> /api/<path>, turning the httpOnly session cookie into a Bearer header.
import cookie from '@fastify/cookie'
import helmet from '@fastify/helmet'
import proxy from '@fastify/http-proxy'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Config } from '../config.js'
import originCheck from './plugins/origin-check.js'
import sessionRoutes from './plugins/session-routes.js'

export interface BffOptions {
  config: Config
  /** Where the API listens, e.g. http://127.0.0.1:3000 */
  apiUrl: string
}

export const AUTH_COOKIE = process.env.AUTH_COOKIE ?? 'auth_token'

// Never reachable through the browser proxy.
const BLOCKED = [/^\/api\/admin(\/|$)/, /^\/api\/unsubscribe\/preview(\/|$)/, /^\/api\/docs(\/|$)/]

/** The API path a proxied URL names, normalised the way the API's router will see it (or null if it is malformed). */
export function apiPath (url: string): string | null {
  const raw = url.split('?')[0].replace(/^\/bff/, '')
  let decoded: string
  try {
    decoded = decodeURIComponent(raw)
  } catch {
    return null
  }
  if (decoded.includes('\\') || decoded.includes('\u0000')) return null
  const segments: string[] = []
  for (const segment of decoded.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') return null
    segments.push(segment)
  }
  return '/' + segments.join('/').toLowerCase()
}

export default async function bffApp (fastify: FastifyInstance, opts: BffOptions): Promise<void> {
  await fastify.register(helmet, { crossOriginEmbedderPolicy: false })
  await fastify.register(cookie)
  await fastify.register(originCheck, { allowedOrigins: opts.config.allowedOrigins })

  fastify.setNotFoundHandler(async (_request, reply) => await reply.code(404).send({ error: 'Not found' }))
  await fastify.register(sessionRoutes, { apiUrl: opts.apiUrl, cookieName: AUTH_COOKIE })

  await fastify.register(proxy, {
    upstream: opts.apiUrl,
    prefix: '/bff/api',
    rewritePrefix: '/api',
    preHandler: async (request, reply) => {
      const path = apiPath(request.url)
      if (path == null) return await reply.code(400).send({ error: 'Validation error', details: ['path: malformed'] })
      if (BLOCKED.some(re => re.test(path))) return await reply.code(403).send({ error: 'Forbidden' })
    },
    replyOptions: {
      rewriteRequestHeaders: (request, headers) => {
        const { cookie: _cookie, ...rest } = headers
        const token = (request as FastifyRequest).cookies[AUTH_COOKIE]
        return {
          ...rest,
          ...(token != null && token !== '' && { authorization: `Bearer ${token}` }),
          'x-forwarded-for': request.ip,
          'x-request-id': request.id
        }
      }
    }
  })
}
