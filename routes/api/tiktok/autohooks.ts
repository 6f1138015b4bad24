// Every video import route needs a signed-in user (strict Bearer check), before the service's flag and allowance gate.
import type { FastifyInstance } from 'fastify'
import { requireAuth } from '../../../plugins/app/auth.js'

export default async function tiktokHooks (fastify: FastifyInstance): Promise<void> {
  requireAuth(fastify)
}
