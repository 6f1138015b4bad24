// Ratings 1..5: one per user and recipe (rating again replaces it), never of your own recipe. The recipe row is
// locked for the write, so rating_sum and rating_count stay exact however many ratings arrive at once.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { OwnRecipeRating, RecipeNotFound } from '../../../lib/errors.js'
import { averageRating } from '../../../lib/ratings.js'
import type { RatingResultView, RatingSummaryView } from '../../../schemas/social.js'

declare module 'fastify' {
  interface FastifyInstance {
    ratingService: ReturnType<typeof createRatingService>
  }
}

export function createRatingService (fastify: FastifyInstance) {
  const ratings = fastify.ratingsRepository
  const recipes = fastify.recipesRepository

  return {
    async rate (user: { id: string, username: string }, recipeId: string, rating: number): Promise<RatingResultView> {
      return await fastify.transaction(async tx => {
        await recipes.lock(tx, recipeId)
        const recipe = await fastify.recipeService.get(recipeId, user.id, tx)
        if (recipe.author.id === user.id) throw new OwnRecipeRating()
        const previous = await ratings.upsert(tx, user.id, recipe.id, rating)
        const totals = await ratings.adjustTotals(tx, recipe.id, rating - (previous ?? 0), previous == null ? 1 : 0)
        if (previous == null) {
          await fastify.notificationService.notify(tx, {
            type: 'rating',
            recipientId: recipe.author.id,
            actorId: user.id,
            recipeId: recipe.id,
            message: `${user.username} rated your recipe "${recipe.title}"`,
            data: { rating },
            dedupeKey: `rating:${user.id}:${recipe.id}`
          })
        }
        return { rating, averageRating: averageRating(totals.ratingSum, totals.ratingCount), ratingCount: totals.ratingCount }
      })
    },

    /** Average, count, distribution and the viewer's own rating of a recipe they may see. */
    async summary (recipeId: string, viewerId: string | null): Promise<RatingSummaryView> {
      const row = await ratings.summary(fastify.db, recipeId, viewerId)
      if (row == null) throw new RecipeNotFound()
      return { averageRating: averageRating(row.ratingSum, row.ratingCount), ratingCount: row.ratingCount, userRating: row.userRating, distribution: row.distribution }
    },

    /**
     * Removes the user's rating whatever the recipe's visibility is now. With no rating to remove, a recipe they
     * cannot see is RecipeNotFound, exactly like an unknown id.
     */
    async unrate (userId: string, recipeId: string): Promise<void> {
      await fastify.transaction(async tx => {
        await recipes.lock(tx, recipeId)
        const removed = await ratings.remove(tx, userId, recipeId)
        if (removed != null) await ratings.adjustTotals(tx, recipeId, -removed, -1)
        else await fastify.recipeService.get(recipeId, userId, tx)
      })
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('ratingService', createRatingService(fastify))
}, { name: 'rating-service', dependencies: ['ratings-repository', 'recipes-repository', 'recipe-service', 'notification-service'] })
