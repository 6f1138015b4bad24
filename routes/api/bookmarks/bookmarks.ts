// Bookmarks: idempotent; each one also lands in your Saved Recipes collection (created on first use).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { DateTime, described, ErrorRef, pagination, Pagination, PaginationQuery, RecipeParams, ref } from '../../../schemas/common.js'
import { Recipe } from '../../../schemas/recipes.js'

const Bookmarked = Type.Object({ message: Type.String(), bookmarked: Type.Boolean() })

const bookmarks: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.bookmarkService

  fastify.get('/', {
    schema: {
      operationId: 'bookmarks.list',
      summary: 'Your bookmarks of recipes you can still see, newest first',
      querystring: PaginationQuery,
      response: {
        200: Type.Object({
          bookmarks: Type.Array(Type.Object({ bookmarkedAt: DateTime, recipe: ref(Recipe) })),
          pagination: ref(Pagination)
        }, { description: 'A page of bookmarks' })
      }
    }
  }, async request => {
    const { page, limit } = request.query
    const { items, total } = await service.list(currentUser(request).id, page, limit)
    return { bookmarks: items, pagination: pagination(page, limit, total) }
  })

  fastify.post('/:recipeId', {
    schema: {
      operationId: 'bookmarks.add',
      summary: 'Bookmark a recipe you can see (repeating is harmless)',
      description: 'The recipe is added to your Saved Recipes collection, created on first use, in the same transaction. ' +
        '201 when the bookmark is new, 200 when it was already there.',
      params: RecipeParams,
      response: {
        200: described('Already bookmarked', Bookmarked),
        201: described('Bookmarked', Bookmarked),
        404: ErrorRef
      }
    }
  }, async (request, reply) => {
    const added = await service.bookmark(currentUser(request).id, request.params.recipeId)
    return await reply.code(added ? 201 : 200).send({ message: added ? 'Recipe bookmarked' : 'Recipe already bookmarked', bookmarked: true })
  })

  fastify.delete('/:recipeId', {
    schema: {
      operationId: 'bookmarks.remove',
      summary: 'Remove a bookmark (and the recipe from Saved Recipes)',
      description: 'Works on your own bookmark even when you can no longer see the recipe. Nothing to remove: 200 if you can see the recipe, otherwise 404.',
      params: RecipeParams,
      response: { 200: described('Not bookmarked (any more)', Bookmarked), 404: ErrorRef }
    }
  }, async request => {
    await service.unbookmark(currentUser(request).id, request.params.recipeId)
    return { message: 'Bookmark removed', bookmarked: false }
  })
}

export default bookmarks
