// Cooked marks and history are always the signed-in user's own.
import type { FastifyInstance } from 'fastify'
import { requireAuth } from '../../../plugins/app/auth.js'

export default async function cookingHooks (fastify: FastifyInstance): Promise<void> {
  requireAuth(fastify)
}
