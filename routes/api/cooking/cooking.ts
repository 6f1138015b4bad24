// "I cooked this": idempotent marks and the history of what you cooked.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { ErrorRef, pagination, Pagination, PaginationQuery, ref } from '../../../schemas/common.js'
import { CookedEntry, CookedState, RecipeParams } from '../../../schemas/social.js'

const cooking: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.cookingService

  fastify.post('/recipes/:recipeId/cooked', {
    schema: { summary: 'Mark a recipe as cooked (repeating is harmless)', params: RecipeParams, response: { 200: CookedState, 404: ErrorRef } }
  }, async request => {
    await service.markCooked(currentUser(request).id, request.params.recipeId)
    return { cooked: true }
  })

  fastify.delete('/recipes/:recipeId/cooked', {
    schema: {
      summary: 'Remove your cooked mark',
      description: 'Works whatever the recipe\'s visibility is now. A recipe you cannot see and never marked answers 404, like an unknown id.',
      params: RecipeParams,
      response: { 200: CookedState, 404: ErrorRef }
    }
  }, async request => {
    await service.unmarkCooked(currentUser(request).id, request.params.recipeId)
    return { cooked: false }
  })

  fastify.get('/history', {
    schema: {
      summary: 'What you cooked, most recent first',
      description: 'Recipes you can no longer see are left out.',
      querystring: PaginationQuery,
      response: { 200: Type.Object({ history: Type.Array(CookedEntry), pagination: ref(Pagination) }) }
    }
  }, async request => {
    const { page, limit } = request.query
    const { items, total } = await service.history(currentUser(request).id, page, limit)
    return { history: items, pagination: pagination(page, limit, total) }
  })
}

export default cooking
