// Subscription plans, as admins manage them: every plan (inactive ones too), create, change, delete. The first change
// stores the built-in plans first (services/plans.ts), so they never vanish.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  AdminPlanList, AdminPlanResponse, PlanCreateBody, PlanParams, PlanUpdateBody
} from '../../../../schemas/admin-plans.js'
import { described, ErrorRef, Message } from '../../../../schemas/common.js'

const STORES_BUILT_IN = 'While no plan is stored (the built-in free, premium and family plans are served), this first ' +
  'stores the built-in plans, in the same transaction.'

const plans: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.planService

  fastify.get('/', {
    schema: {
      operationId: 'admin.plans.list',
      summary: 'Every subscription plan, inactive ones included',
      description: 'Not paged: the handful of plans there are, in list order (sortOrder, then price).',
      response: { 200: AdminPlanList }
    }
  }, async () => await service.adminList())

  fastify.post('/', {
    schema: {
      operationId: 'admin.plans.create',
      summary: 'Create a subscription plan',
      description: `${STORES_BUILT_IN} An id already taken answers 409.`,
      body: PlanCreateBody,
      response: { 201: described('The new plan', AdminPlanResponse), 409: ErrorRef }
    }
  }, async (request, reply) => {
    const plan = await service.createPlan(request.body)
    return await reply.code(201).send({ plan })
  })

  fastify.patch('/:planId', {
    schema: {
      operationId: 'admin.plans.update',
      summary: 'Change a subscription plan',
      description: 'Fields left out keep their value; in `limits`, only the limits given change. `active: false` ' +
        'stops offering the plan (it leaves GET /api/subscription-plans) while users already on it keep it; the free ' +
        `plan cannot be deactivated (409). ${STORES_BUILT_IN}`,
      params: PlanParams,
      body: PlanUpdateBody,
      response: { 200: described('The plan as saved', AdminPlanResponse), 404: ErrorRef, 409: ErrorRef }
    }
  }, async request => ({ plan: await service.updatePlan(request.params.planId, request.body) }))

  fastify.delete('/:planId', {
    schema: {
      operationId: 'admin.plans.delete',
      summary: 'Delete a subscription plan',
      description: 'Only a plan no user is on (409 otherwise: move them, or deactivate the plan instead); the free ' +
        `plan cannot be deleted (409). Feature flags stop naming it. ${STORES_BUILT_IN}`,
      params: PlanParams,
      response: { 200: described('Deleted', Message), 404: ErrorRef, 409: ErrorRef }
    }
  }, async request => {
    await service.deletePlan(request.params.planId)
    return { message: 'Plan deleted' }
  })
}

export default plans
