// The caller's plan and how much of it they have used. Plan changes are an admin action (no payment provider).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { described } from '../../../schemas/common.js'
import { SubscriptionResponse } from '../../../schemas/plans.js'

const subscriptions: FastifyPluginAsyncTypebox = async fastify => {
  fastify.get('/me', {
    schema: { operationId: 'subscriptions.me', summary: 'Your subscription, plan and usage', response: { 200: described('Your subscription', SubscriptionResponse) } }
  }, async request => await fastify.planService.subscription(currentUser(request).id))
}

export default subscriptions
