// Security headers from helmet's own middleware, computed once. @fastify/helmet runs helmet() anew on every request
// (re-parsing the CSP each time, in two hooks); these headers never vary per request, so helmet runs once at start-up
// and one callback hook sets its result on every reply.
import type { ServerResponse } from 'node:http'
import type { FastifyInstance } from 'fastify'
import helmet, { type HelmetOptions } from 'helmet'

/** The headers helmet's middleware sets with these options (it only sets and removes headers). */
export function helmetHeaders (options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {}
  const response = {
    setHeader: (name: string, value: string) => { headers[name.toLowerCase()] = value },
    removeHeader: (name: string) => { Reflect.deleteProperty(headers, name.toLowerCase()) }
  }
  helmet(options)({} as never, response as unknown as ServerResponse, () => {})
  return headers
}

/** Sets helmet's headers for `options`, plus `extra`, on every reply of `fastify` (call from an fp plugin). */
export function addSecurityHeaders (fastify: FastifyInstance, options: HelmetOptions, extra: Record<string, string> = {}): void {
  const headers = { ...helmetHeaders(options), ...extra }
  fastify.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers)
    done()
  })
}
