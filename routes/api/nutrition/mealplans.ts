// A meal plan's nutrition per day, for a signed-in user who may see the plan.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { ErrorRef, ref } from '../../../schemas/common.js'
import { MealPlanNutrition, MealPlanParams } from '../../../schemas/nutrition.js'

const mealPlans: FastifyPluginAsyncTypebox = async fastify => {
  const nutrition = fastify.nutritionService

  fastify.get('/mealplans/:mealPlanId', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'nutrition.mealPlan',
      summary: 'A meal plan\'s nutrition per day and in total',
      description: 'Every date of the plan with its planned meals and their sum. A planned meal counts its recipe\'s ' +
        'total nutrition (GET /api/nutrition/recipes/{recipeId}) times its planned servings over the recipe\'s ' +
        'servings; a meal without planned servings counts one serving, and a recipe without servings is one serving ' +
        'in all. Meals with only a custom title add nothing (`custom`); recipes you can no longer see are skipped ' +
        '(`not-visible`). For the plan\'s owner and the users and families it is shared with; any other plan is 404.',
      params: MealPlanParams,
      response: {
        200: Type.Object({ nutrition: ref(MealPlanNutrition) }, { description: 'The plan\'s nutrition' }),
        404: ErrorRef
      }
    }
  }, async request => ({ nutrition: await nutrition.mealPlan(request.params.mealPlanId, currentUser(request).id) }))
}

export default mealPlans
