// "I cooked this" marks, one per user and recipe, and the history of them.
import fp from 'fastify-plugin'
import type { CookedEntryView } from '../../../schemas/social.js'
import type { Db } from '../../external/db.js'
import { mapRecipe, recipeColumns, type RecipeViewRow } from './recipe-rows.js'
import type { Page } from './recipes.js'
import { recipeVisibleTo } from './visibility.js'

declare module 'fastify' {
  interface FastifyInstance {
    cookingRepository: typeof cookingRepository
  }
}

export const cookingRepository = {
  /** Whether this call added the mark (false when it was already there: the first cooking date stays). */
  async add (db: Db, userId: string, recipeId: string): Promise<boolean> {
    const rows = await db`insert into cooked_recipes (user_id, recipe_id) values (${userId}, ${recipeId}) on conflict do nothing returning 1`
    return rows.length > 0
  },

  /** Whether this call removed a mark. */
  async remove (db: Db, userId: string, recipeId: string): Promise<boolean> {
    const rows = await db`delete from cooked_recipes where user_id = ${userId} and recipe_id = ${recipeId} returning 1`
    return rows.length > 0
  },

  /** The user's marks on recipes they can still see, most recently cooked first. */
  async history (db: Db, userId: string, pageNo: number, limit: number): Promise<Page<CookedEntryView>> {
    const where = db`m.user_id = ${userId} and ${recipeVisibleTo(db, userId)}`
    const [rows, [{ total }]] = await Promise.all([
      db<Array<RecipeViewRow & { cookedAt: Date }>>`select ${recipeColumns(db, userId)}, m.created_at as cooked_at
        from cooked_recipes m join recipes r on r.id = m.recipe_id join users a on a.id = r.author_id
        where ${where} order by m.created_at desc, m.recipe_id limit ${limit} offset ${(pageNo - 1) * limit}`,
      db<Array<{ total: number }>>`select count(*)::int as total from cooked_recipes m join recipes r on r.id = m.recipe_id where ${where}`
    ])
    return { items: rows.map(row => ({ cookedAt: row.cookedAt.toISOString(), recipe: mapRecipe(row) })), total }
  }
}

export default fp(async fastify => {
  fastify.decorate('cookingRepository', cookingRepository)
}, { name: 'cooking-repository' })
