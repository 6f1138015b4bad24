// "I cooked this": idempotent marks and the history of what you cooked.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { described, ErrorRef, pagination, Pagination, PaginationQuery, RecipeParams, ref } from '../../../schemas/common.js'
import { CookedEntry, CookedState } from '../../../schemas/social.js'

const cooking: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.cookingService

  fastify.post('/recipes/:recipeId/cooked', {
    schema: {
      operationId: 'cooking.markCooked',
      summary: 'Mark a recipe as cooked (repeating is harmless)',
      params: RecipeParams,
      response: { 200: described('Marked', CookedState), 404: ErrorRef }
    }
  }, async request => {
    await service.markCooked(currentUser(request).id, request.params.recipeId)
    return { cooked: true }
  })

  fastify.delete('/recipes/:recipeId/cooked', {
    schema: {
      operationId: 'cooking.unmarkCooked',
      summary: 'Remove your cooked mark (repeating is harmless)',
      description: 'Works whatever the recipe\'s visibility is now. A recipe you cannot see and never marked answers 404, like an unknown id.',
      params: RecipeParams,
      response: { 200: described('Not marked (any more)', CookedState), 404: ErrorRef }
    }
  }, async request => {
    await service.unmarkCooked(currentUser(request).id, request.params.recipeId)
    return { cooked: false }
  })

  fastify.get('/history', {
    schema: {
      operationId: 'cooking.history',
      summary: 'What you cooked, most recent first',
      description: 'Recipes you can no longer see are left out.',
      querystring: PaginationQuery,
      response: { 200: Type.Object({ history: Type.Array(CookedEntry), pagination: ref(Pagination) }, { description: 'A page of cooked recipes' }) }
    }
  }, async request => {
    const { page, limit } = request.query
    const { items, total } = await service.history(currentUser(request).id, page, limit)
    return { history: items, pagination: pagination(page, limit, total) }
  })
}

export default cooking
