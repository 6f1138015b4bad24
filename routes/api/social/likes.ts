// Likes: idempotent, exact counters, the author notified once an hour at most.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { sessionToCheck } from '../../../plugins/app/auth.js'
import { described, ErrorRef, RecipeParams } from '../../../schemas/common.js'
import { LikeState, UnlikeState } from '../../../schemas/social.js'

const likes: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.likeService
  // The like statement checks the session itself: a like or unlike is one round trip (a storm's every request).
  // It changes no anonymous view but the recipe's (its like count), so the answer waits for nothing else.
  const config = { sessionInStatement: true, changesRecipe: 'recipeId' }

  fastify.post('/recipes/:recipeId/like', {
    config,
    schema: {
      operationId: 'social.like',
      summary: 'Like a recipe (repeating is harmless)',
      description: 'Liking your own recipe is allowed. The author is notified at most once an hour per fan and recipe.',
      params: RecipeParams,
      response: { 200: described('Liked, with the recipe\'s like count', LikeState), 404: ErrorRef }
    }
  }, async request => await service.like(sessionToCheck(request), request.params.recipeId))

  fastify.delete('/recipes/:recipeId/like', {
    config,
    schema: {
      operationId: 'social.unlike',
      summary: 'Remove your like (repeating is harmless)',
      description: 'Works whatever the recipe\'s visibility is now. `likeCount` is null when you can no longer see the recipe ' +
        '(it is not revealed). A recipe you cannot see and do not like answers 404, like an unknown id.',
      params: RecipeParams,
      response: { 200: described('Not liked (any more)', UnlikeState), 404: ErrorRef }
    }
  }, async request => await service.unlike(sessionToCheck(request), request.params.recipeId))
}

export default likes
