// Bookmarks: idempotent; each one also lands in your Saved Recipes collection (created on first use).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { DateTime, ErrorRef, Id, Message, pagination, Pagination, PaginationQuery, ref } from '../../../schemas/common.js'
import { Recipe } from '../../../schemas/recipes.js'

const Params = Type.Object({ recipeId: Id })

const bookmarks: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.bookmarkService

  fastify.get('/', {
    schema: {
      summary: 'Your bookmarks of recipes you can still see, newest first',
      querystring: PaginationQuery,
      response: { 200: Type.Object({ bookmarks: Type.Array(Type.Object({ bookmarkedAt: DateTime, recipe: ref(Recipe) })), pagination: ref(Pagination) }) }
    }
  }, async request => {
    const { page, limit } = request.query
    const { items, total } = await service.list(currentUser(request).id, page, limit)
    return { bookmarks: items, pagination: pagination(page, limit, total) }
  })

  fastify.post('/:recipeId', {
    schema: {
      summary: 'Bookmark a recipe you can see (repeating is harmless)',
      description: 'The recipe is added to your Saved Recipes collection, created on first use, in the same transaction.',
      params: Params,
      response: { 201: Type.Object({ message: Type.String(), bookmarked: Type.Literal(true) }), 404: ErrorRef }
    }
  }, async (request, reply) => {
    await service.bookmark(currentUser(request).id, request.params.recipeId)
    return await reply.code(201).send({ message: 'Recipe bookmarked', bookmarked: true as const })
  })

  fastify.delete('/:recipeId', {
    schema: {
      summary: 'Remove a bookmark (and the recipe from Saved Recipes)',
      description: 'Works on your own bookmark even when you can no longer see the recipe. Nothing to remove: 200 if you can see the recipe, otherwise 404.',
      params: Params,
      response: { 200: Message, 404: ErrorRef }
    }
  }, async request => {
    await service.unbookmark(currentUser(request).id, request.params.recipeId)
    return { message: 'Bookmark removed' }
  })
}

export default bookmarks
