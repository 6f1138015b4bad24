// Every subscription route is the signed-in user's own.
import type { FastifyInstance } from 'fastify'
import { requireAuth } from '../../../plugins/app/auth.js'

export default async function subscriptionHooks (fastify: FastifyInstance): Promise<void> {
  requireAuth(fastify)
}
