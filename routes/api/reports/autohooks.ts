// Reporting needs a signed-in reporter.
import type { FastifyInstance } from 'fastify'
import { requireAuth } from '../../../plugins/app/auth.js'

export default async function reportHooks (fastify: FastifyInstance): Promise<void> {
  requireAuth(fastify)
}
