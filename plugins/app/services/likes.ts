// Likes: idempotent, the counter moved in the statement that adds or removes the row, the author notified at
// most once an hour per fan and recipe. Liking your own recipe is allowed (you are never notified of it).
// The likes and unlikes of one recipe that arrive while its previous statement runs go together in the next one
// (keyedBatches): a storm on a popular recipe takes its row lock once per batch, not once per request. The statement
// also checks each request's session (the routes' `sessionInStatement`), so a like is one round trip, not two.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { InvalidToken, RecipeNotFound } from '../../../lib/errors.js'
import { keyedBatches } from '../../../lib/keyed-batches.js'
import type { LikeStateView, UnlikeStateView } from '../../../schemas/social.js'
import type { LikeOp, LikeOutcome } from '../repositories/hot/likes.js'
import type { SessionCheck } from '../repositories/hot/session.js'

/** The most likes and unlikes of one recipe in one statement. */
const LIKES_PER_STATEMENT = 64

declare module 'fastify' {
  interface FastifyInstance {
    likeService: ReturnType<typeof createLikeService>
  }
}

export function createLikeService (fastify: FastifyInstance) {
  const likes = fastify.likesRepository
  const batches = keyedBatches<LikeOp, LikeOutcome>({
    run: async (recipeId, ops) => await likes.apply(fastify.db, recipeId, ops),
    runOne: async (recipeId, op) => (await likes.apply(fastify.db, recipeId, [op]))[0],
    owner: op => op.session.userId,
    max: LIKES_PER_STATEMENT
  })

  /** Runs the operation in its recipe's next batch; InvalidToken when its session is not valid (nothing was done). */
  async function apply (recipeId: string, op: LikeOp): Promise<LikeOutcome & { username: string }> {
    const outcome = await batches.submit(recipeId, op)
    if (!outcome.signedIn || outcome.username == null) throw new InvalidToken()
    return { ...outcome, username: outcome.username }
  }

  return {
    /** Likes a recipe the user may see (RecipeNotFound otherwise); repeating changes nothing. */
    async like (session: SessionCheck, recipeId: string): Promise<LikeStateView> {
      const liked = await apply(recipeId, { session, like: true })
      if (!liked.found || !liked.visible) throw new RecipeNotFound()
      const userId = session.userId
      // Already liked (perhaps by a concurrent request that committed meanwhile): the current count.
      if (!liked.changed) return { liked: true, likeCount: (await likes.countVisibleTo(fastify.db, recipeId, userId)) ?? liked.likeCount }
      // After the like is stored: a failure here costs the author one notification, never the like or its count.
      await fastify.notificationService.notify(fastify.db, {
        type: 'like',
        recipientId: liked.authorId,
        actorId: userId,
        recipeId,
        message: `${liked.username} liked your recipe "${liked.title}"`,
        dedupeKey: `like:${userId}:${recipeId}`
      })
      return { liked: true, likeCount: liked.likeCount }
    },

    /**
     * Removes the user's like whatever the recipe's visibility is now. The count is only given to someone who may
     * still see the recipe (null otherwise); with no like to remove, a recipe they cannot see is RecipeNotFound,
     * exactly like an unknown id.
     */
    async unlike (session: SessionCheck, recipeId: string): Promise<UnlikeStateView> {
      const unliked = await apply(recipeId, { session, like: false })
      if (!unliked.found || (!unliked.changed && !unliked.visible)) throw new RecipeNotFound()
      return { liked: false as const, likeCount: unliked.visible ? unliked.likeCount : null }
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('likeService', createLikeService(fastify))
}, { name: 'like-service', dependencies: ['likes-repository', 'notification-service'] })
