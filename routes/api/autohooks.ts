// Applies to every /api route: the global rate limiter (500 / 15 min), documented as a possible 429.
import type { FastifyInstance } from 'fastify'
import { documentErrors } from '../../plugins/app/schemas.js'

export default async function apiHooks (fastify: FastifyInstance): Promise<void> {
  fastify.addHook('onRequest', fastify.rateLimits.global)
  fastify.addHook('onRoute', route => documentErrors(route, [429]))
}
