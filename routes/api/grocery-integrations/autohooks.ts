// Exports read the signed-in user's lists; the provider list is behind sign-in too, like the rest of the household API.
import type { FastifyInstance } from 'fastify'
import { requireAuth } from '../../../plugins/app/auth.js'

export default async function groceryIntegrationHooks (fastify: FastifyInstance): Promise<void> {
  requireAuth(fastify)
}
