// Bookmarks: idempotent; each one also lands in your Saved Recipes collection.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { DateTime, ErrorRef, Id, Message, pagination, Pagination, PaginationQuery, ref } from '../../../schemas/common.js'
import { Recipe } from '../../../schemas/recipes.js'

const Params = Type.Object({ recipeId: Id })

const bookmarks: FastifyPluginAsyncTypebox = async fastify => {
  const social = fastify.socialRepository

  fastify.get('/', {
    onRequest: fastify.authenticate,
    schema: {
      summary: 'Your bookmarks, newest first',
      querystring: PaginationQuery,
      response: { 200: Type.Object({ bookmarks: Type.Array(Type.Object({ bookmarkedAt: DateTime, recipe: ref(Recipe) })), pagination: ref(Pagination) }) }
    }
  }, async request => {
    const { page, limit } = request.query
    const { bookmarks: list, total } = await social.bookmarks(currentUser(request).id, page, limit)
    return { bookmarks: list, pagination: pagination(page, limit, total) }
  })

  fastify.post('/:recipeId', {
    onRequest: fastify.authenticate,
    schema: {
      summary: 'Bookmark a recipe (repeating is harmless)',
      description: 'The recipe is added to your Saved Recipes collection, created on first use.',
      params: Params,
      response: { 201: Type.Object({ message: Type.String(), bookmarked: Type.Literal(true) }), 404: ErrorRef }
    }
  }, async (request, reply) => {
    const user = currentUser(request)
    const recipe = await fastify.recipesRepository.visible(request.params.recipeId, user.id)
    await social.bookmark(user.id, recipe.id)
    return await reply.code(201).send({ message: 'Recipe bookmarked', bookmarked: true as const })
  })

  fastify.delete('/:recipeId', {
    onRequest: fastify.authenticate,
    schema: { summary: 'Remove a bookmark (and the recipe from Saved Recipes)', params: Params, response: { 200: Message, 404: ErrorRef } }
  }, async request => {
    const user = currentUser(request)
    const recipe = await fastify.recipesRepository.visible(request.params.recipeId, user.id)
    await social.unbookmark(user.id, recipe.id)
    return { message: 'Bookmark removed' }
  })
}

export default bookmarks
