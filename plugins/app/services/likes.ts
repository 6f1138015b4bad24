// Likes: idempotent, the counter moved in the transaction that adds or removes the row, the author notified at
// most once an hour per fan and recipe. Liking your own recipe is allowed (you are never notified of it).
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { RecipeNotFound } from '../../../lib/errors.js'
import type { LikeStateView, UnlikeStateView } from '../../../schemas/social.js'

declare module 'fastify' {
  interface FastifyInstance {
    likeService: ReturnType<typeof createLikeService>
  }
}

export function createLikeService (fastify: FastifyInstance) {
  const likes = fastify.likesRepository

  return {
    /** Likes a recipe the user may see (RecipeNotFound otherwise); repeating changes nothing. */
    async like (user: { id: string, username: string }, recipeId: string): Promise<LikeStateView> {
      return await fastify.transaction(async tx => {
        const recipe = await fastify.recipeService.get(recipeId, user.id, tx)
        if (!(await likes.add(tx, user.id, recipe.id))) {
          // Already liked (perhaps by a concurrent request that committed meanwhile): the current count, not the one read above.
          return { liked: true, likeCount: (await likes.countVisibleTo(tx, recipe.id, user.id)) ?? recipe.likeCount }
        }
        await fastify.notificationService.notify(tx, {
          type: 'like',
          recipientId: recipe.author.id,
          actorId: user.id,
          recipeId: recipe.id,
          message: `${user.username} liked your recipe "${recipe.title}"`,
          dedupeKey: `like:${user.id}:${recipe.id}`
        })
        // Last: the counter update locks the recipe row until commit, and every like of this recipe waits for it.
        return { liked: true, likeCount: await likes.adjustCount(tx, recipe.id, 1) }
      })
    },

    /**
     * Removes the user's like whatever the recipe's visibility is now. The count is only given to someone who may
     * still see the recipe (null otherwise); with no like to remove, a recipe they cannot see is RecipeNotFound,
     * exactly like an unknown id.
     */
    async unlike (userId: string, recipeId: string): Promise<UnlikeStateView> {
      return await fastify.transaction(async tx => {
        const removed = await likes.remove(tx, userId, recipeId)
        if (removed) await likes.adjustCount(tx, recipeId, -1)
        const likeCount = await likes.countVisibleTo(tx, recipeId, userId)
        if (!removed && likeCount == null) throw new RecipeNotFound()
        return { liked: false as const, likeCount }
      })
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('likeService', createLikeService(fastify))
}, { name: 'like-service', dependencies: ['likes-repository', 'recipe-service', 'notification-service'] })
