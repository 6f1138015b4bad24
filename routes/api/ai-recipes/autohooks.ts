// Every AI route needs a signed-in user (strict Bearer check); generation then passes the service's flag and
// allowance gate. Failures use the import/AI envelope (decisions.md).
import type { FastifyInstance } from 'fastify'
import { requireAuth } from '../../../plugins/app/auth.js'

export default async function aiRecipesHooks (fastify: FastifyInstance): Promise<void> {
  requireAuth(fastify)
}
