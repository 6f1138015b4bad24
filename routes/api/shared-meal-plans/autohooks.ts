// Meal planning is always the signed-in user's: every route needs sign-in.
import type { FastifyInstance } from 'fastify'
import { requireAuth } from '../../../plugins/app/auth.js'

export default async function hooks (fastify: FastifyInstance): Promise<void> {
  requireAuth(fastify)
}
