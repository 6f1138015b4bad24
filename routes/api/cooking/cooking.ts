// "I cooked this": idempotent marks and the history of what you cooked.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { DateTime, ErrorRef, Id, pagination, Pagination, PaginationQuery, ref } from '../../../schemas/common.js'
import { Recipe } from '../../../schemas/recipes.js'

const Params = Type.Object({ recipeId: Id })
const CookedState = Type.Object({ cooked: Type.Boolean() })

const cooking: FastifyPluginAsyncTypebox = async fastify => {
  const social = fastify.socialRepository

  fastify.post('/recipes/:recipeId/cooked', {
    onRequest: fastify.authenticate,
    schema: { summary: 'Mark a recipe as cooked (repeating is harmless)', params: Params, response: { 200: CookedState, 404: ErrorRef } }
  }, async request => {
    const user = currentUser(request)
    const recipe = await fastify.recipesRepository.visible(request.params.recipeId, user.id)
    await social.cooked(user.id, recipe.id)
    return { cooked: true }
  })

  fastify.delete('/recipes/:recipeId/cooked', {
    onRequest: fastify.authenticate,
    schema: { summary: 'Remove the cooked mark', params: Params, response: { 200: CookedState, 404: ErrorRef } }
  }, async request => {
    const user = currentUser(request)
    const recipe = await fastify.recipesRepository.visible(request.params.recipeId, user.id)
    await social.uncooked(user.id, recipe.id)
    return { cooked: false }
  })

  fastify.get('/history', {
    onRequest: fastify.authenticate,
    schema: {
      summary: 'What you cooked, most recent first',
      querystring: PaginationQuery,
      response: { 200: Type.Object({ history: Type.Array(Type.Object({ cookedAt: DateTime, recipe: ref(Recipe) })), pagination: ref(Pagination) }) }
    }
  }, async request => {
    const { page, limit } = request.query
    const { entries, total } = await social.cookedHistory(currentUser(request).id, page, limit)
    return { history: entries, pagination: pagination(page, limit, total) }
  })
}

export default cooking
