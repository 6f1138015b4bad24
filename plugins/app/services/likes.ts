// Likes: idempotent, the counter moved in the statement that adds or removes the row, the author notified at
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
      const liked = await likes.like(fastify.db, user.id, recipeId)
      if (liked == null) throw new RecipeNotFound()
      // Already liked (perhaps by a concurrent request that committed meanwhile): the current count.
      if (!liked.added) return { liked: true, likeCount: (await likes.countVisibleTo(fastify.db, recipeId, user.id)) ?? liked.likeCount }
      // After the like is stored: a failure here costs the author one notification, never the like or its count.
      await fastify.notificationService.notify(fastify.db, {
        type: 'like',
        recipientId: liked.authorId,
        actorId: user.id,
        recipeId,
        message: `${user.username} liked your recipe "${liked.title}"`,
        dedupeKey: `like:${user.id}:${recipeId}`
      })
      return { liked: true, likeCount: liked.likeCount }
    },

    /**
     * Removes the user's like whatever the recipe's visibility is now. The count is only given to someone who may
     * still see the recipe (null otherwise); with no like to remove, a recipe they cannot see is RecipeNotFound,
     * exactly like an unknown id.
     */
    async unlike (userId: string, recipeId: string): Promise<UnlikeStateView> {
      const unliked = await likes.unlike(fastify.db, userId, recipeId)
      if (unliked == null || (!unliked.removed && !unliked.visible)) throw new RecipeNotFound()
      return { liked: false as const, likeCount: unliked.visible ? unliked.likeCount : null }
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('likeService', createLikeService(fastify))
}, { name: 'like-service', dependencies: ['likes-repository', 'notification-service'] })
