// The recipe moderation queue: recipes by moderation status, author or title, and moderation decisions.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  AdminRecipeList, AdminRecipeParams, AdminRecipeQuery, AdminRecipeResponse, ModerationBody
} from '../../../../schemas/admin-content.js'
import { described, ErrorRef } from '../../../../schemas/common.js'

const moderation: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.adminContentService

  fastify.get('/', {
    schema: {
      operationId: 'admin.recipes.list',
      summary: 'Recipes with their moderation state, newest first',
      description: 'Every recipe, whatever its visibility, publication or moderation status. Filter by ' +
        '`moderationStatus` (the moderation queue: `pending`, `flagged`, `rejected`), `authorId`, or `q` (part of the ' +
        'title). The total is counted up to 10,000 (`totalExact: false` beyond).',
      querystring: AdminRecipeQuery,
      response: { 200: AdminRecipeList }
    }
  }, async request => {
    const { page, limit, ...filters } = request.query
    return await service.recipes(filters, page, limit)
  })

  fastify.patch('/:recipeId/moderation', {
    schema: {
      operationId: 'admin.recipes.moderate',
      summary: 'Set a recipe\'s moderation status',
      description: '`approved` and `pending` recipes are shown as their visibility allows; `flagged` and `rejected` ' +
        'ones disappear at once from lists, search, detail and feeds for everyone but their author. Sets ' +
        '`moderatedAt` and the note (admins only; omitted clears it). The author gets a `system` notification when ' +
        'the decision hides the recipe or shows it again. Repeating a decision changes nothing.',
      params: AdminRecipeParams,
      body: ModerationBody,
      response: { 200: described('The recipe as moderated', AdminRecipeResponse), 404: ErrorRef }
    }
  }, async request => ({ recipe: await service.moderate(request.params.recipeId, request.body) }))
}

export default moderation
