// Planned meals: in a meal plan (read by whoever sees the plan; added, changed and removed by its owner and `edit`
// recipients) or on your own calendar (no mealPlanId). Unseen: 404; a plan you only view: 403 to change.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { described, ErrorRef, Id, Message, pagination, Pagination, ref } from '../../../schemas/common.js'
import { MEAL_PLAN_LIMITS, PlannedMeal, PlannedMealBody, PlannedMealListQuery, PlannedMealPatchBody } from '../../../schemas/meal-plans.js'

const Params = Type.Object({ plannedMealId: Id })
const One = (description: string) => Type.Object({ plannedMeal: ref(PlannedMeal) }, { description })
const L = MEAL_PLAN_LIMITS
const RULES = 'A recipeId must be a recipe you can see (else 404); with no recipe, a customTitle is required. ' +
  `date is a YYYY-MM-DD calendar date and, in a plan, lies within the plan's dates. customTitle: trimmed, at most ${L.customTitle} characters; ` +
  `notes: at most ${L.notes}; servings: 1 to ${L.servings}.`
const CHANGE = 'Yours on your calendar, or in a plan you own or may edit: a plan you only view gives 403, anything you cannot see 404.'

const plannedMeals: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.plannedMealService

  fastify.get('/', {
    schema: {
      operationId: 'plannedMeals.list',
      summary: 'A page of planned meals by date and meal type',
      description: 'With mealPlanId: the meals of that plan (404 if you cannot see it). Without: your calendar entries and the ' +
        'meals of every plan you can see. from and to (YYYY-MM-DD, inclusive) bound the dates: at most ' +
        `${L.rangeDays} days apart; one alone covers ${L.rangeDays} days from (or up to) it; neither: every date. ` +
        'Meals of one date come by meal type, then in the order they were planned, so pages never overlap. Without ' +
        'mealPlanId, `total` is counted up to 10,000 (`totalExact: false` beyond); `hasNext` is always exact.',
      querystring: PlannedMealListQuery,
      response: {
        200: Type.Object({ plannedMeals: Type.Array(ref(PlannedMeal)), pagination: ref(Pagination) }, { description: 'A page of planned meals' }),
        404: ErrorRef
      }
    }
  }, async request => {
    const { page, limit, ...filters } = request.query
    const { items, total, hasNext, totalExact } = await service.list(currentUser(request).id, filters, page, limit)
    return { plannedMeals: items, pagination: pagination(page, limit, total, { hasNext, totalExact }) }
  })

  fastify.post('/', {
    schema: {
      operationId: 'plannedMeals.create',
      summary: 'Plan a meal, in a meal plan or on your own calendar',
      description: `${RULES} In a plan you need edit access (view only: 403; a plan you cannot see: 404). A plan holds at most ` +
        `${L.mealsPerPlan} planned meals, your calendar at most ${L.calendarMeals} (403 with limit and used).`,
      body: PlannedMealBody,
      response: { 201: One('The planned meal'), 403: ErrorRef, 404: ErrorRef }
    }
  }, async (request, reply) => {
    const plannedMeal = await service.create(currentUser(request).id, request.body)
    return await reply.code(201).send({ plannedMeal })
  })

  fastify.get('/:plannedMealId', {
    schema: {
      operationId: 'plannedMeals.get',
      summary: 'One planned meal (your calendar entry, or a meal of a plan you can see)',
      params: Params,
      response: { 200: One('The planned meal'), 404: ErrorRef }
    }
  }, async request => ({ plannedMeal: await service.get(request.params.plannedMealId, currentUser(request).id) }))

  for (const method of ['PUT', 'PATCH'] as const) {
    fastify.route({
      method,
      url: '/:plannedMealId',
      schema: {
        operationId: method === 'PUT' ? 'plannedMeals.update' : 'plannedMeals.updatePatch',
        summary: 'Change a planned meal',
        description: `${method === 'PATCH' ? 'Same as the PUT operation. ' : ''}Any subset of the fields; null clears recipeId, ` +
          `customTitle, servings or notes. The plan does not change (to move a meal, create it there and delete this one). ${CHANGE} ${RULES}`,
        params: Params,
        body: PlannedMealPatchBody,
        response: { 200: One('The planned meal as saved'), 403: ErrorRef, 404: ErrorRef }
      },
      handler: async request => ({ plannedMeal: await service.update(currentUser(request).id, request.params.plannedMealId, request.body) })
    })
  }

  fastify.delete('/:plannedMealId', {
    schema: {
      operationId: 'plannedMeals.delete',
      summary: 'Remove a planned meal',
      description: CHANGE,
      params: Params,
      response: { 200: described('Removed', Message), 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => {
    await service.remove(currentUser(request).id, request.params.plannedMealId)
    return { message: 'Planned meal deleted' }
  })
}

export default plannedMeals
