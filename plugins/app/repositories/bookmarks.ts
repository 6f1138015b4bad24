// Bookmark rows: one per (user, recipe), so repeating a bookmark changes nothing.
import fp from 'fastify-plugin'
import type { RecipeView } from '../../../schemas/recipes.js'
import type { Db } from '../../external/db.js'
import { markedRecipes } from './recipe-rows.js'
import type { Page } from './recipes.js'

declare module 'fastify' {
  interface FastifyInstance {
    bookmarksRepository: typeof bookmarksRepository
  }
}

export interface BookmarkView { bookmarkedAt: string, recipe: RecipeView }

export const bookmarksRepository = {
  /** True when this call added the bookmark. */
  async add (db: Db, userId: string, recipeId: string): Promise<boolean> {
    const rows = await db`insert into bookmarks (user_id, recipe_id) values (${userId}, ${recipeId}) on conflict do nothing returning 1`
    return rows.length > 0
  },

  /** True when there was a bookmark to remove. */
  async remove (db: Db, userId: string, recipeId: string): Promise<boolean> {
    const rows = await db`delete from bookmarks where user_id = ${userId} and recipe_id = ${recipeId} returning 1`
    return rows.length > 0
  },

  /** A page of the user's bookmarks of recipes they can still see, newest first. */
  async list (db: Db, userId: string, pageNo: number, limit: number): Promise<Page<BookmarkView>> {
    const { items, total } = await markedRecipes(db, 'bookmarks', userId, pageNo, limit)
    return { items: items.map(({ markedAt, recipe }) => ({ bookmarkedAt: markedAt, recipe })), total }
  }
}

export default fp(async fastify => {
  fastify.decorate('bookmarksRepository', bookmarksRepository)
}, { name: 'bookmarks-repository' })
