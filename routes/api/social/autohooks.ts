// Likes, follows and the older comment routes all act as the signed-in user.
import type { FastifyInstance } from 'fastify'
import { requireAuth } from '../../../plugins/app/auth.js'

export default async function socialHooks (fastify: FastifyInstance): Promise<void> {
  requireAuth(fastify)
}
