// "I cooked this": idempotent marks on recipes the user may see, and their own history of them.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { CookedEntryView } from '../../../schemas/social.js'
import type { Page } from '../repositories/recipes.js'

declare module 'fastify' {
  interface FastifyInstance {
    cookingService: ReturnType<typeof createCookingService>
  }
}

export function createCookingService (fastify: FastifyInstance) {
  const cooking = fastify.cookingRepository

  return {
    /** Marks a recipe the user may see (RecipeNotFound otherwise); repeating keeps the first date. */
    async markCooked (userId: string, recipeId: string): Promise<void> {
      const recipe = await fastify.recipeService.get(recipeId, userId)
      await cooking.add(fastify.db, userId, recipe.id)
    },

    /**
     * Removes the user's mark whatever the recipe's visibility is now. With no mark to remove, a recipe they cannot
     * see is RecipeNotFound, exactly like an unknown id.
     */
    async unmarkCooked (userId: string, recipeId: string): Promise<void> {
      if (!(await cooking.remove(fastify.db, userId, recipeId))) await fastify.recipeService.get(recipeId, userId)
    },

    /** The user's own history; recipes they can no longer see are left out. */
    async history (userId: string, page: number, limit: number): Promise<Page<CookedEntryView>> {
      return await cooking.history(fastify.db, userId, page, limit)
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('cookingService', createCookingService(fastify))
}, { name: 'cooking-service', dependencies: ['cooking-repository', 'recipe-service'] })
