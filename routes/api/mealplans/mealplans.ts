// Meal plans: yours and those shared with you (each marked with your access), CRUD by the owner. A plan you may not
// see is 404; one you see but do not own is 403 to change, delete or share.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { ErrorRef, Id, Message, pagination, Pagination, ref, described } from '../../../schemas/common.js'
import { MEAL_PLAN_LIMITS, MealPlan, MealPlanBody, MealPlanDetail, MealPlanListQuery, MealPlanPatchBody } from '../../../schemas/meal-plans.js'

const Params = Type.Object({ mealPlanId: Id })
const One = (description: string) => Type.Object({ mealPlan: ref(MealPlanDetail) }, { description })
const L = MEAL_PLAN_LIMITS
const DATES = `Dates are YYYY-MM-DD calendar dates (2026-02-30 is 400); endDate is not before startDate and at most ${L.spanDays} days after it.`
const TEXTS = `name: trimmed, not blank, at most ${L.name} characters; description: at most ${L.description}.`
const CHANGE = 'Owner only: a recipient who can see the plan gets 403, anyone else 404. ' +
  'New dates must keep every planned meal of the plan inside them (else 409: move or remove those meals first). '

const mealPlans: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.mealPlanService

  fastify.get('/', {
    schema: {
      operationId: 'mealplans.list',
      summary: 'A page of your meal plans and those shared with you, latest start first',
      description: 'Each plan carries your access (owner, edit or view), its owner and how many planned meals it has; ' +
        'its planned meals are at GET /api/mealplans/{mealPlanId} and GET /api/planned-meals?mealPlanId=.',
      querystring: MealPlanListQuery,
      response: { 200: Type.Object({ mealPlans: Type.Array(ref(MealPlan)), pagination: ref(Pagination) }, { description: 'A page of meal plans' }) }
    }
  }, async request => {
    const { page, limit, scope } = request.query
    const { items, total } = await service.list(currentUser(request).id, scope, page, limit)
    return { mealPlans: items, pagination: pagination(page, limit, total) }
  })

  fastify.post('/', {
    schema: {
      operationId: 'mealplans.create',
      summary: 'Create a meal plan',
      description: `${DATES} ${TEXTS} You may own at most ${L.plansPerUser} plans (403 with limit and used).`,
      body: MealPlanBody,
      response: { 201: One('The new meal plan'), 403: ErrorRef }
    }
  }, async (request, reply) => {
    const mealPlan = await service.create(currentUser(request).id, request.body)
    return await reply.code(201).send({ mealPlan })
  })

  fastify.get('/:mealPlanId', {
    schema: {
      operationId: 'mealplans.get',
      summary: 'One meal plan (yours or shared with you) with its planned meals',
      description: `Planned meals (at most ${L.mealsPerPlan}) come by date, then meal type (breakfast, lunch, dinner, snack, dessert); ` +
        'each carries a small recipe summary when you may see the recipe, else `recipe` is null.',
      params: Params,
      response: { 200: One('The meal plan'), 404: ErrorRef }
    }
  }, async request => ({ mealPlan: await service.get(request.params.mealPlanId, currentUser(request).id) }))

  // PUT is the documented verb; PATCH does the same (any subset of the fields) under its own operationId.
  for (const method of ['PUT', 'PATCH'] as const) {
    fastify.route({
      method,
      url: '/:mealPlanId',
      schema: {
        operationId: method === 'PUT' ? 'mealplans.update' : 'mealplans.updatePatch',
        summary: 'Rename, describe or move a meal plan (owner only)',
        description: `${method === 'PATCH' ? 'Same as the PUT operation. ' : ''}Any subset of the fields. ${CHANGE}${DATES} ${TEXTS}`,
        params: Params,
        body: MealPlanPatchBody,
        response: { 200: One('The meal plan as saved'), 403: ErrorRef, 404: ErrorRef, 409: ErrorRef }
      },
      handler: async request => ({ mealPlan: await service.update(currentUser(request).id, request.params.mealPlanId, request.body) })
    })
  }

  fastify.delete('/:mealPlanId', {
    schema: {
      operationId: 'mealplans.delete',
      summary: 'Delete a meal plan (owner only), with its planned meals and shares',
      description: 'A recipient who can see the plan gets 403, anyone else 404.',
      params: Params,
      response: { 200: described('Deleted', Message), 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => {
    await service.remove(currentUser(request).id, request.params.mealPlanId)
    return { message: 'Meal plan deleted' }
  })
}

export default mealPlans
