// Create, read, update and delete one recipe. Not visible to the caller: 404; visible but not theirs: 403.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { RawJson, sendJson } from '../../../lib/raw-json.js'
import { currentUser } from '../../../plugins/app/auth.js'
import { described, ErrorRef, Message, RecipeParams } from '../../../schemas/common.js'
import { RecipeCreateBody, RecipePatchBody, RecipeResponse } from '../../../schemas/recipes.js'

const crud: FastifyPluginAsyncTypebox = async fastify => {
  const recipes = fastify.recipeService

  fastify.post('/', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'recipes.create',
      summary: 'Create a recipe',
      description: 'Tags are upserted; the slug is unique per author (-1, -2... on conflict). Counts against the plan\'s recipe limit (403 with limit and used).',
      body: RecipeCreateBody,
      response: { 201: described('The new recipe', RecipeResponse), 403: ErrorRef }
    }
  }, async (request, reply) => {
    const recipe = await recipes.create(currentUser(request), request.body)
    return await reply.code(201).send({ recipe })
  })

  fastify.get('/:recipeId', {
    onRequest: fastify.optionalAuth,
    schema: {
      operationId: 'recipes.get',
      summary: 'One recipe by id',
      description: 'Takes the recipe id; to fetch by slug use GET /api/users/{username}/recipes/{slug}. A recipe you may not see is 404.',
      params: RecipeParams,
      response: { 200: described('The recipe', RecipeResponse), 404: ErrorRef }
    }
  }, async (request, reply) => {
    const recipe = await recipes.view(request.params.recipeId, request.user?.id ?? null)
    return recipe instanceof RawJson ? await sendJson(reply, { recipe }) : { recipe }
  })

  fastify.put('/:recipeId', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'recipes.replace',
      summary: 'Replace a recipe (author only)',
      description: 'The previous version is kept as a revision.',
      params: RecipeParams,
      body: RecipeCreateBody,
      response: { 200: described('The recipe as saved', RecipeResponse), 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => ({ recipe: await recipes.edit(currentUser(request).id, request.params.recipeId, request.body) }))

  fastify.patch('/:recipeId', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'recipes.update',
      summary: 'Change some fields of a recipe (author only)',
      description: 'The previous version is kept as a revision.',
      params: RecipeParams,
      body: RecipePatchBody,
      response: { 200: described('The recipe as saved', RecipeResponse), 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => ({ recipe: await recipes.edit(currentUser(request).id, request.params.recipeId, request.body) }))

  fastify.delete('/:recipeId', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'recipes.delete',
      summary: 'Delete a recipe (author only)',
      params: RecipeParams,
      response: { 200: described('Deleted', Message), 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => {
    await recipes.remove(currentUser(request).id, request.params.recipeId)
    return { message: 'Recipe deleted' }
  })
}

export default crud
