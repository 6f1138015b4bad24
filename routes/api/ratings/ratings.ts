// Ratings 1..5: one per user and recipe (upsert), exact average and count.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { ErrorRef, Id, Message } from '../../../schemas/common.js'

const Params = Type.Object({ recipeId: Id })
const average = (sum: number, count: number) => count > 0 ? Math.round((sum / count) * 100) / 100 : 0

const ratings: FastifyPluginAsyncTypebox = async fastify => {
  const social = fastify.socialRepository

  fastify.post('/recipes/:recipeId', {
    onRequest: fastify.authenticate,
    schema: {
      summary: 'Rate a recipe (again to change your rating)',
      params: Params,
      body: Type.Object({ rating: Type.Integer({ minimum: 1, maximum: 5 }) }),
      response: { 200: Type.Object({ rating: Type.Integer(), averageRating: Type.Number(), ratingCount: Type.Integer() }), 404: ErrorRef }
    }
  }, async request => {
    const user = currentUser(request)
    const recipe = await fastify.recipesRepository.visible(request.params.recipeId, user.id)
    const { rating } = request.body
    const { added, ratingSum, ratingCount } = await social.rate(user.id, recipe.id, rating)
    if (added) {
      fastify.notify({
        type: 'rating',
        recipientId: recipe.author.id,
        actorId: user.id,
        recipeId: recipe.id,
        message: `${user.username} rated your recipe "${recipe.title}"`,
        data: { rating },
        dedupeKey: `rating:${user.id}:${recipe.id}`
      })
    }
    return { rating, averageRating: average(ratingSum, ratingCount), ratingCount }
  })

  fastify.get('/recipes/:recipeId', {
    onRequest: fastify.optionalAuth,
    schema: {
      summary: 'Average, count, distribution and your rating',
      params: Params,
      response: {
        200: Type.Object({
          averageRating: Type.Number(),
          ratingCount: Type.Integer(),
          userRating: Type.Union([Type.Integer(), Type.Null()]),
          distribution: Type.Record(Type.String(), Type.Integer(), { description: 'Count per star, "1" to "5"' })
        }),
        404: ErrorRef
      }
    }
  }, async request => {
    const viewer = request.user?.id ?? null
    const recipe = await fastify.recipesRepository.visible(request.params.recipeId, viewer)
    return await social.ratingSummary(recipe.id, viewer)
  })

  fastify.delete('/recipes/:recipeId', {
    onRequest: fastify.authenticate,
    schema: { summary: 'Remove your rating', params: Params, response: { 200: Message, 404: ErrorRef } }
  }, async request => {
    const user = currentUser(request)
    const recipe = await fastify.recipesRepository.visible(request.params.recipeId, user.id)
    await social.unrate(user.id, recipe.id)
    return { message: 'Rating removed' }
  })
}

export default ratings
