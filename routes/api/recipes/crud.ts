// Create, read, update and delete one recipe. Not visible to the caller: 404; visible but not theirs: 403.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { ErrorRef, Id, Message } from '../../../schemas/common.js'
import { RecipeCreateBody, RecipePatchBody, RecipeResponse } from '../../../schemas/recipes.js'

const Params = Type.Object({ id: Id })

const crud: FastifyPluginAsyncTypebox = async fastify => {
  const recipes = fastify.recipeService

  fastify.post('/', {
    onRequest: fastify.authenticate,
    schema: {
      summary: 'Create a recipe',
      description: 'Tags are upserted; the slug is unique per author (-1, -2... on conflict). Counts against the plan\'s recipe limit (403 with limit and used).',
      body: RecipeCreateBody,
      response: { 201: RecipeResponse, 403: ErrorRef }
    }
  }, async (request, reply) => {
    const recipe = await recipes.create(currentUser(request), request.body)
    return await reply.code(201).send({ recipe })
  })

  fastify.get('/:id', {
    onRequest: fastify.optionalAuth,
    schema: { summary: 'One recipe', params: Params, response: { 200: RecipeResponse, 404: ErrorRef } }
  }, async request => ({ recipe: await recipes.get(request.params.id, request.user?.id ?? null) }))

  fastify.put('/:id', {
    onRequest: fastify.authenticate,
    schema: {
      summary: 'Replace a recipe (author only)',
      description: 'The previous version is kept as a revision.',
      params: Params,
      body: RecipeCreateBody,
      response: { 200: RecipeResponse, 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => ({ recipe: await recipes.edit(currentUser(request).id, request.params.id, request.body) }))

  fastify.patch('/:id', {
    onRequest: fastify.authenticate,
    schema: {
      summary: 'Change some fields of a recipe (author only)',
      description: 'The previous version is kept as a revision.',
      params: Params,
      body: RecipePatchBody,
      response: { 200: RecipeResponse, 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => ({ recipe: await recipes.edit(currentUser(request).id, request.params.id, request.body) }))

  fastify.delete('/:id', {
    onRequest: fastify.authenticate,
    schema: { summary: 'Delete a recipe (author only)', params: Params, response: { 200: Message, 403: ErrorRef, 404: ErrorRef } }
  }, async request => {
    await recipes.remove(currentUser(request).id, request.params.id)
    return { message: 'Recipe deleted' }
  })
}

export default crud
