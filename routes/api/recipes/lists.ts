// Listing, filtering and search, plus the popular list and the cuisine and ingredient aggregates.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static } from 'typebox'
import { sendJson } from '../../../lib/raw-json.js'
import { pagination, Pagination, ref } from '../../../schemas/common.js'
import { Recipe, RecipeListQuery, type RecipeView } from '../../../schemas/recipes.js'

const RecipePage = Type.Object({ recipes: Type.Array(ref(Recipe)), pagination: ref(Pagination) }, { description: 'A page of recipes' })

const lists: FastifyPluginAsyncTypebox = async fastify => {
  const recipes = fastify.recipeService

  fastify.get('/', {
    onRequest: fastify.optionalAuth,
    schema: {
      operationId: 'recipes.list',
      summary: 'Published public recipes, filtered and sorted',
      description: '`search` matches the title (case-insensitive substring) or the ingredients; title matches come first. ' +
        '`%` and `_` are literal. averageRating covers all ratings.',
      querystring: RecipeListQuery,
      response: { 200: RecipePage }
    }
  }, async (request, reply) => {
    const { page, limit, ...filters } = request.query
    const { items, total, hasNext, totalExact } = await recipes.list(filters, request.user?.id ?? null, page, limit)
    return await sendJson<Static<typeof RecipePage>>(reply, { recipes: items, pagination: pagination(page, limit, total, { hasNext, totalExact }) })
  })

  fastify.get('/popular', {
    onRequest: fastify.optionalAuth,
    schema: {
      operationId: 'recipes.popular',
      summary: 'Most liked public recipes',
      description: 'Not paged: the first `limit` (at most 50) recipes. Page through GET /api/recipes?sort=popular for more.',
      querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 50, default: 12 }) }),
      response: { 200: Type.Object({ recipes: Type.Array(ref(Recipe)) }, { description: 'Up to `limit` recipes, most liked first' }) }
    }
  }, async (request, reply) => await sendJson<{ recipes: RecipeView[] }>(reply, { recipes: await recipes.popular(request.query.limit, request.user?.id ?? null) }))

  fastify.get('/cuisines', {
    schema: {
      operationId: 'recipes.cuisines',
      summary: 'The 100 most used cuisines of public recipes, with their counts',
      description: 'Not paged: capped at 100. Cuisines are grouped case-insensitively.',
      response: {
        200: Type.Object({ cuisines: Type.Array(Type.Object({ cuisine: Type.String(), count: Type.Integer() })) }, { description: 'Up to 100 cuisines, most used first' })
      }
    }
  }, async () => ({ cuisines: await recipes.cuisines() }))

  fastify.get('/common-ingredients', {
    schema: {
      operationId: 'recipes.commonIngredients',
      summary: 'The 50 most used ingredient names in public recipes',
      description: 'Not paged: capped at 50. Names are lower-cased; each recipe counts once per name.',
      response: {
        200: Type.Object({ ingredients: Type.Array(Type.Object({ name: Type.String(), count: Type.Integer() })) }, { description: 'Ingredient names, most used first' })
      }
    }
  }, async () => ({ ingredients: await recipes.commonIngredients() }))
}

export default lists
