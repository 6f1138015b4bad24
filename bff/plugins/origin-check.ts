// Refuses state-changing requests from foreign origins (CSRF defence for the cookie session).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'

/** Methods that must not change state: never checked. */
export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export default fp(async (fastify: FastifyInstance, opts: { allowedOrigins: string[] }) => {
  const allowed = new Set(opts.allowedOrigins)
  fastify.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (SAFE_METHODS.has(request.method)) return
    const origin = request.headers.origin
    const crossSite = request.headers['sec-fetch-site'] === 'cross-site'
    // An absent Origin passes (same-origin navigations and non-browser clients); a foreign one does not.
    if (crossSite || (origin != null && !allowed.has(origin))) {
      return await reply.code(403).send({ error: 'Forbidden' })
    }
  })
}, { name: 'bff-origin-check' })
