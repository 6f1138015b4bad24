// Grocery lists are the signed-in user's own, or shared with them through a family.
import type { FastifyInstance } from 'fastify'
import { requireAuth } from '../../../plugins/app/auth.js'

export default async function groceryListHooks (fastify: FastifyInstance): Promise<void> {
  requireAuth(fastify)
}
