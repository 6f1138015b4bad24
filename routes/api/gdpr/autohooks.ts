// Every GDPR route is about the signed-in user's own data.
import type { FastifyInstance } from 'fastify'
import { requireAuth } from '../../../plugins/app/auth.js'

export default async function gdprHooks (fastify: FastifyInstance): Promise<void> {
  requireAuth(fastify)
}
