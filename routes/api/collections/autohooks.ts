// Collections are always the signed-in user's (or someone's public one, read-only).
import type { FastifyInstance } from 'fastify'
import { requireAuth } from '../../../plugins/app/auth.js'

export default async function collectionHooks (fastify: FastifyInstance): Promise<void> {
  requireAuth(fastify)
}
