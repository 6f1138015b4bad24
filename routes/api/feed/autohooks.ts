// The feed is always the signed-in user's own.
import type { FastifyInstance } from 'fastify'
import { requireAuth } from '../../../plugins/app/auth.js'

export default async function feedHooks (fastify: FastifyInstance): Promise<void> {
  requireAuth(fastify)
}
