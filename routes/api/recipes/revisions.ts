// Revision history: every update keeps the previous version; the author can list and restore them.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { HttpError } from '../../../lib/errors.js'
import { inputFromRecipe, normalizeTags, recipeFields } from '../../../lib/recipe-input.js'
import { currentUser } from '../../../plugins/app/auth.js'
import { DateTime, ErrorRef, Id, ref } from '../../../schemas/common.js'
import { Recipe } from '../../../schemas/recipes.js'
import { ownRecipe } from './crud.js'

const Revision = Type.Object({
  id: Id,
  version: Type.Integer({ minimum: 1 }),
  editorId: Type.Union([Id, Type.Null()]),
  createdAt: DateTime,
  recipe: ref(Recipe)
})

const revisions: FastifyPluginAsyncTypebox = async fastify => {
  const repo = fastify.recipesRepository

  fastify.get('/:id/revisions', {
    onRequest: fastify.authenticate,
    schema: {
      summary: 'Earlier versions of a recipe, newest first (author only)',
      params: Type.Object({ id: Id }),
      response: { 200: Type.Object({ revisions: Type.Array(Revision) }), 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => {
    await ownRecipe(fastify, request.params.id, currentUser(request).id)
    return { revisions: await repo.revisions(request.params.id) }
  })

  fastify.post('/:id/revisions/:revisionId/restore', {
    onRequest: fastify.authenticate,
    schema: {
      summary: 'Restore an earlier version (author only); the current one becomes a revision too',
      params: Type.Object({ id: Id, revisionId: Id }),
      response: { 200: Type.Object({ recipe: ref(Recipe) }), 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => {
    const userId = currentUser(request).id
    const current = await ownRecipe(fastify, request.params.id, userId)
    const snapshot = await repo.revision(request.params.id, request.params.revisionId)
    if (snapshot == null) throw new HttpError(404, 'Revision not found')
    const input = inputFromRecipe(snapshot)
    await repo.update(current.id, userId, recipeFields(input, current), { tags: normalizeTags(input.tags) })
    return { recipe: (await repo.find(current.id, userId))! }
  })
}

export default revisions
