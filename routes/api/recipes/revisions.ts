// Revision history: every update keeps the previous version (at most MAX_REVISIONS); the author can page through
// them, read one, and restore it.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { MAX_REVISIONS } from '../../../db/schema/index.js'
import { currentUser } from '../../../plugins/app/auth.js'
import { described, ErrorRef, Id, pagination, Pagination, PaginationQuery, RecipeParams, ref } from '../../../schemas/common.js'
import { Recipe, RecipeResponse, Revision } from '../../../schemas/recipes.js'

const RevisionParams = Type.Object({ ...RecipeParams.properties, revisionId: Id })

const revisions: FastifyPluginAsyncTypebox = async fastify => {
  const recipes = fastify.recipeService

  fastify.get('/:recipeId/revisions', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'recipes.listRevisions',
      summary: 'Earlier versions of a recipe, newest first (author only)',
      description: `Without their content: fetch one revision to see it. The newest ${MAX_REVISIONS} are kept.`,
      params: RecipeParams,
      querystring: PaginationQuery,
      response: { 200: Type.Object({ revisions: Type.Array(ref(Revision)), pagination: ref(Pagination) }, { description: 'A page of revisions' }), 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => {
    const { page, limit } = request.query
    const { items, total } = await recipes.revisions(currentUser(request).id, request.params.recipeId, page, limit)
    return { revisions: items, pagination: pagination(page, limit, total) }
  })

  fastify.get('/:recipeId/revisions/:revisionId', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'recipes.getRevision',
      summary: 'One earlier version with its content (author only)',
      params: RevisionParams,
      response: { 200: Type.Object({ revision: Type.Object({ ...Revision.properties, recipe: ref(Recipe) }) }, { description: 'The revision and the recipe as it was' }), 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => ({ revision: await recipes.revision(currentUser(request).id, request.params.recipeId, request.params.revisionId) }))

  fastify.post('/:recipeId/revisions/:revisionId/restore', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'recipes.restoreRevision',
      summary: 'Restore an earlier version (author only); the current one becomes a revision too',
      params: RevisionParams,
      response: { 200: described('The recipe as restored', RecipeResponse), 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => ({ recipe: await recipes.restore(currentUser(request).id, request.params.recipeId, request.params.revisionId) }))
}

export default revisions
