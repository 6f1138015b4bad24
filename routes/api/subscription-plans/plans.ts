// The plans on offer (public): from the database, or the built-in plans while none are stored.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { ref } from '../../../schemas/common.js'
import { Plan } from '../../../schemas/plans.js'

const plans: FastifyPluginAsyncTypebox = async fastify => {
  fastify.get('/', {
    schema: {
      operationId: 'subscriptionPlans.list',
      summary: 'Subscription plans and their limits',
      description: 'Not paged: the handful of plans on offer, cheapest first.',
      response: { 200: Type.Object({ plans: Type.Array(ref(Plan)) }, { description: 'Every plan on offer' }) }
    }
  }, async () => ({ plans: await fastify.planService.all() }))
}

export default plans
