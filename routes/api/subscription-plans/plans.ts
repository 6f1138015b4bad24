// The plans on offer (public): from the database, or the built-in plans while none are stored.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'

const Limit = Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'null means unlimited' })
export const PlanSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  priceMonthly: Type.Integer({ description: 'Cents per month' }),
  currency: Type.String(),
  limits: Type.Object({ recipes: Limit, aiGenerations: Limit, imports: Limit }, { description: 'aiGenerations and imports count per calendar month' }),
  features: Type.Array(Type.String())
})

const plans: FastifyPluginAsyncTypebox = async fastify => {
  fastify.get('/', {
    schema: { summary: 'Subscription plans and their limits', response: { 200: Type.Object({ plans: Type.Array(PlanSchema) }) } }
  }, async () => ({ plans: await fastify.plans.all() }))
}

export default plans
