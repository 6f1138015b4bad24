// Every import route needs a signed-in user (strict Bearer check), before the service's flag and allowance gate.
import type { FastifyInstance } from 'fastify'
import { requireAuth } from '../../../plugins/app/auth.js'

export default async function recipeImportHooks (fastify: FastifyInstance): Promise<void> {
  requireAuth(fastify)
}
