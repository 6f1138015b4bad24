// Applies to every /api route: the global rate limiter (500 / 15 min) and, per route family, the per-router
// limiter (100 / 15 min), both documented as a possible 429.
import type { FastifyInstance } from 'fastify'
import { documentErrors } from '../../plugins/app/schemas.js'
import { routeFamily } from '../../plugins/external/rate-limit.js'

/** auth has the stricter auth limiter (routes/api/auth/autohooks.ts); docs are not API calls. */
const NO_ROUTER_LIMIT = new Set(['auth', 'docs'])

export default async function apiHooks (fastify: FastifyInstance): Promise<void> {
  const { global, router } = fastify.rateLimits
  fastify.addHook('onRequest', global)
  // A hook here rather than on each route (onRoute): route hooks run after the families' own requireAuth hooks,
  // so calls failing authentication would escape the count.
  fastify.addHook('onRequest', async (request, reply) => {
    if (!NO_ROUTER_LIMIT.has(routeFamily(request.routeOptions.url ?? ''))) await router.call(fastify, request, reply)
  })
  fastify.addHook('onRoute', route => documentErrors(route, [429]))
}
