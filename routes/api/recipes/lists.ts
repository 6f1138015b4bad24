// Listing, filtering and search, plus the popular list and the cuisine and ingredient aggregates.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { pagination, Pagination, ref } from '../../../schemas/common.js'
import { Recipe, RecipeListQuery } from '../../../schemas/recipes.js'

const lists: FastifyPluginAsyncTypebox = async fastify => {
  const recipes = fastify.recipeService

  fastify.get('/', {
    onRequest: fastify.optionalAuth,
    schema: {
      summary: 'Published public recipes, filtered and sorted',
      description: '`search` matches the title (case-insensitive substring) or the ingredients; title matches come first. ' +
        '`%` and `_` are literal. averageRating covers all ratings.',
      querystring: RecipeListQuery,
      response: { 200: Type.Object({ recipes: Type.Array(ref(Recipe)), pagination: ref(Pagination) }) }
    }
  }, async request => {
    const { page, limit, ...filters } = request.query
    const { items, total } = await recipes.list(filters, request.user?.id ?? null, page, limit)
    return { recipes: items, pagination: pagination(page, limit, total) }
  })

  fastify.get('/popular', {
    onRequest: fastify.optionalAuth,
    schema: {
      summary: 'Most liked public recipes',
      querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 50, default: 12 }) }),
      response: { 200: Type.Object({ recipes: Type.Array(ref(Recipe)) }) }
    }
  }, async request => ({ recipes: await recipes.popular(request.query.limit, request.user?.id ?? null) }))

  fastify.get('/cuisines', {
    schema: {
      summary: 'Cuisines of public recipes with their counts',
      response: { 200: Type.Object({ cuisines: Type.Array(Type.Object({ cuisine: Type.String(), count: Type.Integer() })) }) }
    }
  }, async () => ({ cuisines: await recipes.cuisines() }))

  fastify.get('/common-ingredients', {
    schema: {
      summary: 'The 50 most used ingredient names in public recipes',
      response: { 200: Type.Object({ ingredients: Type.Array(Type.Object({ name: Type.String(), count: Type.Integer() })) }) }
    }
  }, async () => ({ ingredients: await recipes.commonIngredients() }))
}

export default lists
