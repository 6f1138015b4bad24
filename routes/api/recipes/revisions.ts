// Revision history: every update keeps the previous version (at most MAX_REVISIONS); the author can page through
// them, read one, and restore it.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { MAX_REVISIONS } from '../../../db/schema/index.js'
import { currentUser } from '../../../plugins/app/auth.js'
import { ErrorRef, Id, pagination, Pagination, PaginationQuery, ref } from '../../../schemas/common.js'
import { Recipe, RecipeResponse, Revision } from '../../../schemas/recipes.js'

const RevisionParams = Type.Object({ id: Id, revisionId: Id })

const revisions: FastifyPluginAsyncTypebox = async fastify => {
  const recipes = fastify.recipeService

  fastify.get('/:id/revisions', {
    onRequest: fastify.authenticate,
    schema: {
      summary: 'Earlier versions of a recipe, newest first (author only)',
      description: `Without their content: fetch one revision to see it. The newest ${MAX_REVISIONS} are kept.`,
      params: Type.Object({ id: Id }),
      querystring: PaginationQuery,
      response: { 200: Type.Object({ revisions: Type.Array(ref(Revision)), pagination: ref(Pagination) }), 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => {
    const { page, limit } = request.query
    const { items, total } = await recipes.revisions(currentUser(request).id, request.params.id, page, limit)
    return { revisions: items, pagination: pagination(page, limit, total) }
  })

  fastify.get('/:id/revisions/:revisionId', {
    onRequest: fastify.authenticate,
    schema: {
      summary: 'One earlier version with its content (author only)',
      params: RevisionParams,
      response: { 200: Type.Object({ revision: Type.Object({ ...Revision.properties, recipe: ref(Recipe) }) }), 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => ({ revision: await recipes.revision(currentUser(request).id, request.params.id, request.params.revisionId) }))

  fastify.post('/:id/revisions/:revisionId/restore', {
    onRequest: fastify.authenticate,
    schema: {
      summary: 'Restore an earlier version (author only); the current one becomes a revision too',
      params: RevisionParams,
      response: { 200: RecipeResponse, 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => ({ recipe: await recipes.restore(currentUser(request).id, request.params.id, request.params.revisionId) }))
}

export default revisions
