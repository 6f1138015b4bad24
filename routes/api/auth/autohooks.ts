// Credential routes share the auth limit (15 / 15 min, no address exempt): registration, password reset and external
// sign-in count every request; sign-in and change-password count failed attempts only. Token-authenticated routes (me,
// refresh, logout) are not credential guesses and keep only the global limit.
import type { FastifyInstance } from 'fastify'
import { documentErrors } from '../../../plugins/app/schemas.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Token-authenticated auth routes skip the credential limiter. */
    tokenRoute?: boolean
    /** Sign-in routes: only failed attempts count against the auth limit. */
    failuresOnly?: boolean
  }
}

export default async function authHooks (fastify: FastifyInstance): Promise<void> {
  fastify.addHook('onRoute', route => {
    if (route.config?.tokenRoute === true) return
    if (route.config?.failuresOnly === true) {
      const { reserve, settle } = fastify.rateLimits.authFailures
      route.onRequest = ([] as NonNullable<typeof route.onRequest>[]).concat(route.onRequest ?? [], reserve).flat()
      route.onSend = ([] as NonNullable<typeof route.onSend>[]).concat(route.onSend ?? [], settle).flat()
    } else {
      route.onRequest = ([] as NonNullable<typeof route.onRequest>[]).concat(route.onRequest ?? [], fastify.rateLimits.auth).flat()
    }
    documentErrors(route, [429])
  })
}
