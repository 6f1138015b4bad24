// Credential routes share the auth limiter (15 / 15 min, no address exempt). Token-authenticated routes (me,
// refresh, logout) are not credential guesses and keep only the global limit.
import type { FastifyInstance } from 'fastify'
import { documentErrors } from '../../../plugins/app/schemas.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Token-authenticated auth routes skip the credential limiter. */
    tokenRoute?: boolean
  }
}

export default async function authHooks (fastify: FastifyInstance): Promise<void> {
  fastify.addHook('onRoute', route => {
    if (route.config?.tokenRoute === true) return
    route.onRequest = ([] as NonNullable<typeof route.onRequest>[]).concat(route.onRequest ?? [], fastify.rateLimits.auth).flat()
    documentErrors(route, [429])
  })
}
