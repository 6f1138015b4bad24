// GET /api/ai-recipes/usage and /history: this month's AI generations against your plan, and every generation you
// asked for (yours only).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { AiHistoryQuery, AiHistoryResponse, AiUsageResponse } from '../../../schemas/ai-recipes.js'
import { pagination } from '../../../schemas/common.js'

const usage: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.aiRecipeService

  fastify.get('/usage', {
    config: { envelope: true },
    schema: {
      operationId: 'aiRecipes.usage',
      summary: 'Your AI generations this month',
      description: 'Counted per calendar month (UTC): `resetsAt` is the start of the next one. A generation in progress ' +
        'counts; one that failed is given back; a repeat answered from an earlier generation does not count.',
      response: { 200: AiUsageResponse }
    }
  }, async request => {
    return { success: true as const, ...(await service.usage(currentUser(request).id)) }
  })

  fastify.get('/history', {
    config: { envelope: true },
    schema: {
      operationId: 'aiRecipes.history',
      summary: 'Your AI generations, newest first',
      description: 'Every generation request you made, whatever came of it (pending, success, failed, refused): the ' +
        'request, the instructions sent, the model, tokens, time taken and the recipe made. Rate-limited (429) and ' +
        'invalid (400) requests and repeats answered from an earlier generation are not listed.',
      querystring: AiHistoryQuery,
      response: { 200: AiHistoryResponse }
    }
  }, async request => {
    const { page, limit } = request.query
    const { items, total, hasNext } = await service.history(currentUser(request).id, page, limit)
    return { success: true as const, generations: items, pagination: pagination(page, limit, total, { hasNext }) }
  })
}

export default usage
