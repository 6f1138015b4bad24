// Create, read, update and delete one recipe. Not visible to the caller: 404; visible but not theirs: 403.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { HttpError } from '../../../lib/errors.js'
import { normalizeTags, recipeFields, slugOf } from '../../../lib/recipe-input.js'
import { currentUser } from '../../../plugins/app/auth.js'
import { ErrorRef, Id, Message, ref } from '../../../schemas/common.js'
import { Recipe, RecipeCreateBody, RecipePatchBody, type RecipeInput } from '../../../schemas/recipes.js'

const Params = Type.Object({ id: Id })
const RecipeResponse = Type.Object({ recipe: ref(Recipe) })
/** The recipe if the caller is its author; 404 when they cannot see it, 403 when they can but it is not theirs. */
export async function ownRecipe (fastify: FastifyInstance, id: string, userId: string) {
  const recipe = await fastify.recipesRepository.visible(id, userId)
  if (recipe.author.id !== userId) throw new HttpError(403, 'Only the author can change this recipe')
  return recipe
}

const crud: FastifyPluginAsyncTypebox = async fastify => {
  const repo = fastify.recipesRepository

  fastify.post('/', {
    onRequest: fastify.authenticate,
    schema: {
      summary: 'Create a recipe',
      description: 'Tags are upserted; the slug is unique per author (-1, -2... on conflict). Counts against the plan\'s recipe limit (403 with limit and used).',
      body: RecipeCreateBody,
      response: { 201: RecipeResponse, 403: ErrorRef }
    }
  }, async (request, reply) => {
    const user = currentUser(request)
    const fields = recipeFields(request.body)
    const plan = await fastify.plans.forUser(user.id)
    const result = await repo.create(user.id, fields, {
      slugBase: slugOf(fields.title),
      tags: normalizeTags(request.body.tags),
      audienceUserIds: request.body.audienceUserIds,
      recipeLimit: plan.limits.recipes
    })
    if ('limitReached' in result) {
      throw new HttpError(403, 'Recipe limit reached for your plan', { extra: { ...result.limitReached! } })
    }
    const recipe = await repo.visible(result.id, user.id)
    if (recipe.published && recipe.visibility !== 'private') {
      fastify.notifyNewRecipe({ id: recipe.id, title: recipe.title, authorId: user.id, authorUsername: user.username })
    }
    return await reply.code(201).send({ recipe })
  })

  fastify.get('/:id', {
    onRequest: fastify.optionalAuth,
    schema: { summary: 'One recipe', params: Params, response: { 200: RecipeResponse, 404: ErrorRef } }
  }, async request => ({ recipe: await repo.visible(request.params.id, request.user?.id ?? null) }))

  async function update (userId: string, id: string, input: RecipeInput) {
    const existing = await ownRecipe(fastify, id, userId)
    const fields = recipeFields(input, existing)
    await repo.update(id, userId, fields, {
      tags: input.tags === undefined ? undefined : normalizeTags(input.tags),
      audienceUserIds: input.audienceUserIds
    })
    return { recipe: await repo.visible(id, userId) }
  }

  fastify.put('/:id', {
    onRequest: fastify.authenticate,
    schema: {
      summary: 'Replace a recipe (author only)',
      description: 'The previous version is kept as a revision.',
      params: Params,
      body: RecipeCreateBody,
      response: { 200: RecipeResponse, 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => await update(currentUser(request).id, request.params.id, request.body))

  fastify.patch('/:id', {
    onRequest: fastify.authenticate,
    schema: {
      summary: 'Change some fields of a recipe (author only)',
      description: 'The previous version is kept as a revision.',
      params: Params,
      body: RecipePatchBody,
      response: { 200: RecipeResponse, 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => await update(currentUser(request).id, request.params.id, request.body))

  fastify.delete('/:id', {
    onRequest: fastify.authenticate,
    schema: { summary: 'Delete a recipe (author only)', params: Params, response: { 200: Message, 403: ErrorRef, 404: ErrorRef } }
  }, async request => {
    await ownRecipe(fastify, request.params.id, currentUser(request).id)
    await repo.remove(request.params.id)
    return { message: 'Recipe deleted' }
  })
}

export default crud
