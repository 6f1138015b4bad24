// Uploading and deleting images is for signed-in users only.
import type { FastifyInstance } from 'fastify'
import { requireAuth } from '../../../plugins/app/auth.js'

export default async function uploadHooks (fastify: FastifyInstance): Promise<void> {
  requireAuth(fastify)
}
