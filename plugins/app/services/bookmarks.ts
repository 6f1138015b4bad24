// Bookmarks: idempotent, and each bookmark is also an item of the user's Saved Recipes collection. Both writes (and
// creating that collection on first use) commit in one transaction, and so do both removals.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { RecipeNotFound } from '../../../lib/errors.js'
import type { BookmarkView } from '../repositories/bookmarks.js'
import type { Page } from '../repositories/recipes.js'

declare module 'fastify' {
  interface FastifyInstance {
    bookmarkService: ReturnType<typeof createBookmarkService>
  }
}

export function createBookmarkService (fastify: FastifyInstance) {
  const { bookmarksRepository: bookmarks, collectionsRepository: collections, recipesRepository: recipes } = fastify

  return {
    async list (userId: string, page: number, limit: number): Promise<Page<BookmarkView>> {
      return await bookmarks.list(fastify.db, userId, page, limit)
    },

    /** Bookmarks a recipe the user can see (repeating changes nothing); true when this call added the bookmark. */
    async bookmark (userId: string, recipeId: string): Promise<boolean> {
      return await fastify.transaction(async tx => {
        await fastify.recipeService.get(recipeId, userId, tx)
        const added = await bookmarks.add(tx, userId, recipeId)
        await collections.addItem(tx, await fastify.collectionService.saved(tx, userId), recipeId)
        return added
      })
    },

    /**
     * Removes the user's own bookmark whatever the recipe's visibility is now. With nothing to remove, a recipe the
     * user can see answers as done; one they cannot see is 404, like an unknown id.
     */
    async unbookmark (userId: string, recipeId: string): Promise<void> {
      await fastify.transaction(async tx => {
        const removed = await bookmarks.remove(tx, userId, recipeId)
        const unsaved = await collections.removeFromSaved(tx, userId, recipeId)
        if (!removed && !unsaved && (await recipes.find(tx, recipeId, userId)) == null) throw new RecipeNotFound()
      })
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('bookmarkService', createBookmarkService(fastify))
}, {
  name: 'bookmark-service',
  dependencies: ['bookmarks-repository', 'collections-repository', 'recipes-repository', 'recipe-service', 'collection-service']
})
