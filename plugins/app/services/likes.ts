// Likes: idempotent, the counter moved in the statement that adds or removes the row, the author notified at
// most once an hour per fan and recipe. Liking your own recipe is allowed (you are never notified of it).
// The likes and unlikes of one recipe that arrive while its previous statement runs go together in the next one
// (keyedBatches): a storm on a popular recipe takes its row lock once per batch, not once per request.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { RecipeNotFound } from '../../../lib/errors.js'
import { keyedBatches } from '../../../lib/keyed-batches.js'
import type { LikeStateView, UnlikeStateView } from '../../../schemas/social.js'
import type { LikeOp, LikeOutcome } from '../repositories/likes.js'

/** The most likes and unlikes of one recipe in one statement. */
const LIKES_PER_STATEMENT = 64

declare module 'fastify' {
  interface FastifyInstance {
    likeService: ReturnType<typeof createLikeService>
  }
}

export function createLikeService (fastify: FastifyInstance) {
  const likes = fastify.likesRepository
  const batches = keyedBatches<LikeOp, LikeOutcome | null>({
    run: async (recipeId, ops) => await likes.apply(fastify.db, recipeId, ops),
    runOne: async (recipeId, op) => (await likes.apply(fastify.db, recipeId, [op]))[0],
    owner: op => op.userId,
    max: LIKES_PER_STATEMENT
  })

  return {
    /** Likes a recipe the user may see (RecipeNotFound otherwise); repeating changes nothing. */
    async like (user: { id: string, username: string }, recipeId: string): Promise<LikeStateView> {
      const liked = await batches.submit(recipeId, { userId: user.id, like: true })
      if (liked == null || !liked.visible) throw new RecipeNotFound()
      // Already liked (perhaps by a concurrent request that committed meanwhile): the current count.
      if (!liked.changed) return { liked: true, likeCount: (await likes.countVisibleTo(fastify.db, recipeId, user.id)) ?? liked.likeCount }
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
      const unliked = await batches.submit(recipeId, { userId, like: false })
      if (unliked == null || (!unliked.changed && !unliked.visible)) throw new RecipeNotFound()
      return { liked: false as const, likeCount: unliked.visible ? unliked.likeCount : null }
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('likeService', createLikeService(fastify))
}, { name: 'like-service', dependencies: ['likes-repository', 'notification-service'] })
