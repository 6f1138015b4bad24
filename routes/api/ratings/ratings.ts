// Ratings 1..5: one per user and recipe (upsert), exact average and count; authors cannot rate their own recipes.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { described, ErrorRef, Message, RecipeParams } from '../../../schemas/common.js'
import { RatingBody, RatingResult, RatingSummary } from '../../../schemas/social.js'

const ratings: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.ratingService

  fastify.post('/recipes/:recipeId', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'ratings.rate',
      summary: 'Rate a recipe (again to change your rating)',
      description: 'Rating your own recipe is 403. The author is notified of a first rating, at most once an hour per rater.',
      params: RecipeParams,
      body: RatingBody,
      response: { 200: described('Your rating and the recipe\'s new average and count', RatingResult), 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => await service.rate(currentUser(request), request.params.recipeId, request.body.rating))

  fastify.get('/recipes/:recipeId', {
    onRequest: fastify.optionalAuth,
    schema: {
      operationId: 'ratings.get',
      summary: 'Average, count, distribution and your rating',
      params: RecipeParams,
      response: { 200: described('The recipe\'s ratings', RatingSummary), 404: ErrorRef }
    }
  }, async request => await service.summary(request.params.recipeId, request.user?.id ?? null))

  fastify.delete('/recipes/:recipeId', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'ratings.delete',
      summary: 'Remove your rating',
      description: 'Works whatever the recipe\'s visibility is now. A recipe you cannot see and have not rated answers 404, like an unknown id.',
      params: RecipeParams,
      response: { 200: described('Removed (or there was none)', Message), 404: ErrorRef }
    }
  }, async request => {
    await service.unrate(currentUser(request).id, request.params.recipeId)
    return { message: 'Rating removed' }
  })
}

export default ratings
