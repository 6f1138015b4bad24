// "I cooked this" marks, one per user and recipe, and the history of them.
import fp from 'fastify-plugin'
import type { CookedEntryView } from '../../../schemas/social.js'
import type { Db } from '../../external/db.js'
import { markedRecipes } from './recipe-rows.js'
import type { Page } from './recipes.js'

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
    const { items, total } = await markedRecipes(db, 'cooked_recipes', userId, pageNo, limit)
    return { items: items.map(({ markedAt, recipe }) => ({ cookedAt: markedAt, recipe })), total }
  }
}

export default fp(async fastify => {
  fastify.decorate('cookingRepository', cookingRepository)
}, { name: 'cooking-repository' })
