// Likes: idempotent, exact counters, the author notified once an hour at most.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { ErrorRef, Id } from '../../../schemas/common.js'

const Params = Type.Object({ recipeId: Id })
const LikeState = Type.Object({ liked: Type.Boolean(), likeCount: Type.Integer({ minimum: 0 }) })

const likes: FastifyPluginAsyncTypebox = async fastify => {
  const social = fastify.socialRepository

  fastify.post('/recipes/:recipeId/like', {
    onRequest: fastify.authenticate,
    schema: { summary: 'Like a recipe (repeating is harmless)', params: Params, response: { 200: LikeState, 404: ErrorRef } }
  }, async request => {
    const user = currentUser(request)
    const recipe = await fastify.recipesRepository.visible(request.params.recipeId, user.id)
    const { added, likeCount } = await social.like(user.id, recipe.id)
    if (added) {
      fastify.notify({
        type: 'like',
        recipientId: recipe.author.id,
        actorId: user.id,
        recipeId: recipe.id,
        message: `${user.username} liked your recipe "${recipe.title}"`,
        dedupeKey: `like:${user.id}:${recipe.id}`
      })
    }
    return { liked: true, likeCount }
  })

  fastify.delete('/recipes/:recipeId/like', {
    onRequest: fastify.authenticate,
    schema: { summary: 'Remove your like (repeating is harmless)', params: Params, response: { 200: LikeState, 404: ErrorRef } }
  }, async request => {
    const user = currentUser(request)
    const recipe = await fastify.recipesRepository.visible(request.params.recipeId, user.id)
    return { liked: false, ...(await social.unlike(user.id, recipe.id)) }
  })
}

export default likes
