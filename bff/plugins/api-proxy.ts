// /bff/api/<path> -> /api/<path>. On the way in the session cookie becomes a Bearer header; on the way out no token
// reaches page scripts: an /api/auth/* token moves into the httpOnly cookie, any other top-level `token` is dropped.
import type { IncomingHttpHeaders } from 'node:http'
import { PassThrough, Readable } from 'node:stream'
import proxy from '@fastify/http-proxy'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { HttpError, validationError } from '../../lib/errors.js'
import { clearSessionCookie, setSessionCookie } from '../session-cookie.js'
import { UpstreamUnavailableError } from './error-handler.js'

export interface ApiProxyOptions {
  /** Where the API listens, e.g. http://127.0.0.1:3000 */
  apiUrl: string
  cookieName: string
  /** How long to wait for the API's headers, and between body chunks, before answering 502. */
  timeoutMs: number
}

export const PROXY_PREFIX = '/bff/api'

/** Never reachable through the browser proxy: these API paths and everything under them. */
export const BLOCKED_PATHS = ['/api/admin', '/api/unsubscribe/preview', '/api/docs']
const isBlocked = (path: string): boolean => BLOCKED_PATHS.some(blocked => path === blocked || path.startsWith(`${blocked}/`))

// application/json and the structured +json types (problem+json...).
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i

/**
 * The API path a URL names, normalised the way the API's router will see it: `{ path }`, or why it is refused.
 * Malformed escapes and NUL are 400; dot segments and backslashes (raw or encoded) are ambiguous — another router
 * may resolve them into a blocked area — so they are refused like the blocked areas themselves, with 404.
 */
export function apiTarget (url: string): { path: string } | { refused: 400 | 404 } {
  const raw = url.split('?')[0].replace(/^\/bff/, '')
  let decoded: string
  try {
    decoded = decodeURIComponent(raw)
  } catch {
    return { refused: 400 }
  }
  if (decoded.includes('\u0000')) return { refused: 400 }
  if (decoded.includes('\\')) return { refused: 404 }
  const segments: string[] = []
  for (const part of decoded.split('/')) {
    // `;` starts path parameters in some routers (`/admin;x=1` is `/admin` there): compare the segment without them.
    const segment = part.split(';')[0]
    if (segment === '' || segment === '.') continue
    if (segment === '..') return { refused: 404 }
    segments.push(segment)
  }
  const path = '/' + segments.join('/').toLowerCase()
  return isBlocked(path) ? { refused: 404 } : { path }
}

/** The API's response headers less the hop-by-hop ones: its keep-alive terms are for the proxy's connection. */
export const withoutHopByHop = ({ connection: _connection, 'keep-alive': _keepAlive, ...headers }: IncomingHttpHeaders): IncomingHttpHeaders => headers

/** The proxy's refusal: 400 with the validation shape, or the 404 every unknown path gets. */
function refuse (status: 400 | 404): Error {
  return status === 400 ? validationError(['path: malformed']) : new HttpError(404, 'Not found')
}

async function readAll (stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

function parseObject (raw: Buffer): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(raw.toString('utf8'))
    return value != null && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : null
  } catch {
    return null
  }
}

/**
 * When the API cannot be reached, undici destroys the request body it was given. Given the browser's own request
 * stream, that would reset the browser's connection instead of letting it receive the 502: hand it a pipe instead.
 */
function detachBody (request: FastifyRequest): void {
  const source = request.body
  if (!(source instanceof Readable)) return
  const body = new PassThrough()
  body.on('error', () => {})
  body.on('close', () => {
    // Unread rest of an upload: drain it so the connection stays usable for the error response.
    if (!source.readableEnded) { source.unpipe(body); source.resume() }
  })
  request.body = source.pipe(body)
}

export default async function apiProxy (fastify: FastifyInstance, opts: ApiProxyOptions): Promise<void> {
  /** Relays the API's answer; JSON is buffered so a token can be taken out of it. */
  function relay (request: FastifyRequest, reply: FastifyReply, stream: Readable, status: number, path: string): void {
    // The API answered, so the token is revoked (or was already unusable): the cookie goes either way.
    if (request.method === 'POST' && path === '/api/auth/logout') clearSessionCookie(reply, opts.cookieName)
    if (request.method === 'HEAD' || !JSON_TYPE.test(String(reply.getHeader('content-type') ?? ''))) {
      reply.send(stream)
      return
    }
    readAll(stream).then(raw => {
      const body = parseObject(raw)
      if (body == null || !Object.hasOwn(body, 'token')) return reply.send(raw)
      const { token, ...rest } = body
      if (status >= 200 && status < 300 && path.startsWith('/api/auth/') && typeof token === 'string' && token !== '') {
        setSessionCookie(reply, opts.cookieName, token)
      }
      // The body changed: the upstream length and validator no longer describe it (Fastify sets the new length).
      reply.removeHeader('content-length')
      reply.removeHeader('etag')
      return reply.send(JSON.stringify(rest))
    }, (err: unknown) => reply.send(new UpstreamUnavailableError(err)))
  }

  await fastify.register(proxy, {
    upstream: opts.apiUrl,
    prefix: PROXY_PREFIX,
    rewritePrefix: '/api',
    // One line per request comes from RequestLog (server-options.ts), not the proxy's own two.
    disableRequestLogging: true,
    // Refused targets get our answer before http-proxy's own path check answers with its internal wording.
    preHandler: async request => {
      const target = apiTarget(request.url)
      if ('refused' in target) throw refuse(target.refused)
    },
    // reply-from requests new URL(dest, upstream).pathname plus the query: the block list is matched on exactly that.
    handler: (request, reply, dest, options) => {
      const target = apiTarget(new URL(dest, opts.apiUrl).pathname)
      if ('refused' in target) throw refuse(target.refused)
      const { path } = target
      detachBody(request)
      return reply.from(dest, {
        ...options,
        timeout: opts.timeoutMs,
        onError: (_reply, { error }) => reply.send(new UpstreamUnavailableError(error)),
        onResponse: (_request, _reply, res) => relay(request, reply, res.stream, res.statusCode, path)
      })
    },
    replyOptions: {
      rewriteHeaders: withoutHopByHop,
      rewriteRequestHeaders: (request, headers) => {
        // No accept-encoding: a compressed body could not be searched for a token.
        const { cookie: _cookie, 'accept-encoding': _encoding, ...rest } = headers
        const token = (request as FastifyRequest).cookies[opts.cookieName]
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
