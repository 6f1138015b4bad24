// A recipe's nutrition, for anyone who may see the recipe (anonymous callers: public recipes).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { ErrorRef, RecipeParams, ref } from '../../../schemas/common.js'
import { RecipeNutrition } from '../../../schemas/nutrition.js'

const recipes: FastifyPluginAsyncTypebox = async fastify => {
  const nutrition = fastify.nutritionService

  fastify.get('/recipes/:recipeId', {
    onRequest: fastify.optionalAuth,
    schema: {
      operationId: 'nutrition.recipe',
      summary: 'A recipe\'s nutrition per serving and in total',
      description: 'Calories, protein, fat, saturated fat, carbohydrates, fiber, sugars, sodium and cholesterol. Each ' +
        'ingredient line is matched to a USDA SR28 food and weighed from its quantity and unit (mass units directly; ' +
        'cups, spoons and pieces through the food\'s household measures); `ingredients` says how each line was read ' +
        'and only `ok` lines count. Figures the author gave in the recipe\'s `nutrition` field (read as per serving: ' +
        '`calories`, `protein`, `fat`... or schema.org `fatContent`...) take precedence, and `sources` says which ' +
        'figure comes from where. Per serving divides by the recipe\'s servings; without servings a serving is the ' +
        'whole recipe (`perServingIsWholeRecipe`). Works signed out for public recipes; a recipe you may not see is 404.',
      params: RecipeParams,
      response: {
        200: Type.Object({ nutrition: ref(RecipeNutrition) }, { description: 'The recipe\'s nutrition' }),
        404: ErrorRef
      }
    }
  }, async request => ({ nutrition: await nutrition.recipe(request.params.recipeId, request.user?.id ?? null) }))
}

export default recipes
