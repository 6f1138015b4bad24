// Every /api/admin route needs an admin token, except the routes that say `config.adminPublic` (only the sign-in),
// decided per route, never by matching URLs. Every request to an admin route is written to the audit log once answered,
// and so is every request to a path under /api/admin that matches no route (not-found.ts).
import type { FastifyInstance } from 'fastify'
import { documentAdminAuth } from '../../../plugins/app/admin-auth.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The one admin route reachable without an admin token (POST /api/admin/auth/login). */
    adminPublic?: boolean
  }
}

export default async function adminHooks (fastify: FastifyInstance): Promise<void> {
  fastify.addHook('onRoute', route => {
    if (route.config?.adminPublic === true) return
    route.onRequest = [fastify.requireAdmin, ...([] as NonNullable<typeof route.onRequest>[]).concat(route.onRequest ?? []).flat()]
    documentAdminAuth(route)
  })
  fastify.addHook('onResponse', async (request, reply) => { await fastify.adminAuditService.record(request, reply) })
}
