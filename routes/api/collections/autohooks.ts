// Collections are always the signed-in user's (or someone's public one, read-only).
import type { FastifyInstance } from 'fastify'

export default async function collectionHooks (fastify: FastifyInstance): Promise<void> {
  fastify.addHook('onRequest', fastify.authenticate)
}
