// /uploads/<key> -> the API's /uploads/<key> (GET and HEAD): stored images on local disk are served by the API, so
// with STORAGE_PUBLIC_URL set to the proxy's origin a browser that reaches only the proxy still loads them. Public
// files: no cookie or Authorization goes upstream, and nothing but reads is passed.
import proxy from '@fastify/http-proxy'
import type { FastifyInstance } from 'fastify'
import { STORAGE_KEY } from '../../lib/storage.js'
import { withoutHopByHop } from './api-proxy.js'
import { UpstreamUnavailableError } from './error-handler.js'

export interface UploadsProxyOptions {
  /** Where the API listens, e.g. http://127.0.0.1:3000 */
  apiUrl: string
  /** How long to wait for the API before answering 502. */
  timeoutMs: number
}

/** The stored file a request path names, or null: only storage keys go upstream. */
function keyOf (url: string): string | null {
  const path = url.split('?', 1)[0].slice(1)
  try {
    const key = decodeURIComponent(path)
    return STORAGE_KEY.test(key) ? key : null
  } catch {
    return null
  }
}

export default async function uploadsProxy (fastify: FastifyInstance, opts: UploadsProxyOptions): Promise<void> {
  await fastify.register(proxy, {
    upstream: opts.apiUrl,
    prefix: '/uploads',
    rewritePrefix: '/uploads',
    httpMethods: ['GET', 'HEAD'],
    // Anything but a storage key is the usual 404 here, never http-proxy's own wording for a path it refuses.
    preHandler: async (request, reply) => {
      if (keyOf(request.url) == null) return await reply.callNotFound()
    },
    // One line per request comes from RequestLog (server-options.ts), not the proxy's own two.
    disableRequestLogging: true,
    replyOptions: {
      timeout: opts.timeoutMs,
      onError: (reply, { error }) => reply.send(new UpstreamUnavailableError(error)),
      rewriteHeaders: withoutHopByHop,
      rewriteRequestHeaders: (request, headers) => {
        const { cookie: _cookie, authorization: _authorization, ...rest } = headers
        return { ...rest, 'x-forwarded-for': request.ip, 'x-request-id': request.id }
      }
    }
  })
}
