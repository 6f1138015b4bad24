// Sharing meal plans with users and families: share (owner only), list what you shared and what was shared with
// you, revoke (owner or sharer). Recipients see the plan in GET /api/mealplans with their access.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { described, ErrorRef, Id, Message, pagination, Pagination, ref } from '../../../schemas/common.js'
import { MEAL_PLAN_LIMITS, SharedMealPlan, SharedMealPlanBody, SharedMealPlanListQuery } from '../../../schemas/meal-plans.js'

const L = MEAL_PLAN_LIMITS

const sharedMealPlans: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.sharedMealPlanService

  fastify.post('/', {
    schema: {
      operationId: 'sharedMealPlans.create',
      summary: 'Share one of your meal plans with users or a family',
      description: 'Give familyId (a family you belong to, else 404), userIds (active users, at most ' +
        `${L.userIdsPerShare}, not yourself; an unknown id is 400 naming it), or both. view permission lets recipients read the plan; ` +
        'edit also lets them add, change and remove its planned meals. Sharing again with a recipient sets the permission ' +
        `(never a second share). Owner only: a recipient gets 403, anyone else 404. A plan has at most ${L.sharesPerPlan} shares ` +
        '(403 with limit and used). Each new recipient is notified (meal_plan_shared; for a family, every member but you). ' +
        '201 with every share the request names, new or updated; `created` counts the new ones.',
      body: SharedMealPlanBody,
      response: {
        201: Type.Object({
          shares: Type.Array(ref(SharedMealPlan)),
          created: Type.Integer({ minimum: 0, description: 'How many of the shares are new' })
        }, { description: 'The shares' }),
        403: ErrorRef,
        404: ErrorRef
      }
    }
  }, async (request, reply) => {
    const result = await service.share(currentUser(request), request.body)
    return await reply.code(201).send(result)
  })

  fastify.get('/', {
    schema: {
      operationId: 'sharedMealPlans.list',
      summary: 'A page of meal plan shares: those you made and those made with you, newest first',
      description: 'received: shares with you or with a family you belong to; sent: shares of your plans.',
      querystring: SharedMealPlanListQuery,
      response: {
        200: Type.Object({ sharedMealPlans: Type.Array(ref(SharedMealPlan)), pagination: ref(Pagination) }, { description: 'A page of shares' })
      }
    }
  }, async request => {
    const { page, limit, direction } = request.query
    const { items, total } = await service.list(currentUser(request).id, direction, page, limit)
    return { sharedMealPlans: items, pagination: pagination(page, limit, total) }
  })

  fastify.delete('/:shareId', {
    schema: {
      operationId: 'sharedMealPlans.delete',
      summary: 'Revoke a share (the plan\'s owner), or leave one made to you',
      description: 'Takes effect at once: the recipients lose access with their next request. The user a plan was shared ' +
        'with directly may remove that share; members of a family it was shared with get 403; anyone else 404.',
      params: Type.Object({ shareId: Id }),
      response: { 200: described('Revoked', Message), 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => {
    await service.revoke(currentUser(request).id, request.params.shareId)
    return { message: 'Meal plan share revoked' }
  })
}

export default sharedMealPlans
