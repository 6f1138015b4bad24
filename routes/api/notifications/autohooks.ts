// Every notification route is the signed-in user's own.
import type { FastifyInstance } from 'fastify'

export default async function notificationHooks (fastify: FastifyInstance): Promise<void> {
  fastify.addHook('onRequest', fastify.authenticate)
}
