// Bookmark rows: one per (user, recipe), so repeating a bookmark changes nothing.
import fp from 'fastify-plugin'
import type { bookmarks } from '../../../db/schema/index.js'
import type { RecipeView } from '../../../schemas/recipes.js'
import type { Db } from '../../external/db.js'
import { mapRecipe, recipeColumns, type RecipeViewRow } from './recipe-rows.js'
import type { Page } from './recipes.js'
import { recipeVisibleTo } from './visibility.js'

declare module 'fastify' {
  interface FastifyInstance {
    bookmarksRepository: typeof bookmarksRepository
  }
}

export interface BookmarkView { bookmarkedAt: string, recipe: RecipeView }

type BookmarkRow = RecipeViewRow & { bookmarkedAt: typeof bookmarks.$inferSelect['createdAt'] }

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
    const where = db`b.user_id = ${userId} and ${recipeVisibleTo(db, userId)}`
    const [rows, [{ total }]] = await Promise.all([
      db<BookmarkRow[]>`select ${recipeColumns(db, userId)}, b.created_at as bookmarked_at
        from bookmarks b join recipes r on r.id = b.recipe_id join users a on a.id = r.author_id
        where ${where} order by b.created_at desc, b.recipe_id limit ${limit} offset ${(pageNo - 1) * limit}`,
      db<Array<{ total: number }>>`select count(*)::int as total from bookmarks b join recipes r on r.id = b.recipe_id where ${where}`
    ])
    return { items: rows.map(row => ({ bookmarkedAt: row.bookmarkedAt.toISOString(), recipe: mapRecipe(row) })), total }
  }
}

export default fp(async fastify => {
  fastify.decorate('bookmarksRepository', bookmarksRepository)
}, { name: 'bookmarks-repository' })
