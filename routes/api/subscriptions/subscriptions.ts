// The caller's plan and how much of it they have used. Plan changes are an admin action (no payment provider).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { PlanSchema } from '../subscription-plans/plans.js'

const Usage = Type.Object({ used: Type.Integer(), limit: Type.Union([Type.Integer(), Type.Null()]) })

const subscriptions: FastifyPluginAsyncTypebox = async fastify => {
  fastify.get('/me', {
    onRequest: fastify.authenticate,
    schema: {
      summary: 'Your subscription, plan and usage',
      response: {
        200: Type.Object({
          subscription: Type.Object({ planId: Type.String(), status: Type.String(), startedAt: Type.Union([Type.String(), Type.Null()]) }),
          plan: PlanSchema,
          usage: Type.Object({ period: Type.String({ description: 'YYYY-MM' }), recipes: Usage, aiGenerations: Usage, imports: Usage })
        })
      }
    }
  }, async request => {
    const userId = currentUser(request).id
    const plan = await fastify.plans.forUser(userId)
    const [subscription, used] = await Promise.all([fastify.plans.subscription(userId), fastify.plans.usage(userId)])
    return {
      subscription: { planId: plan.id, ...subscription },
      plan,
      usage: {
        period: used.period,
        recipes: { used: used.recipes, limit: plan.limits.recipes },
        aiGenerations: { used: used.aiGenerations, limit: plan.limits.aiGenerations },
        imports: { used: used.imports, limit: plan.limits.imports }
      }
    }
  })
}

export default subscriptions
