import { Type } from 'typebox'
import { Nullable, ref } from './common.js'

const Limit = Nullable(Type.Integer({ minimum: 0 }), { description: 'null means unlimited' })

export const Plan = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  priceMonthly: Type.Integer({ description: 'Cents per month' }),
  currency: Type.String(),
  limits: Type.Object({
    recipes: Limit,
    aiGenerations: Limit,
    imports: Limit,
    familyMembers: Type.Optional(Nullable(Type.Integer({ minimum: 0 }), { description: 'Members of a family this plan\'s owners may have (at most 50 in any case); null means no plan cap' }))
  }, { description: 'aiGenerations and imports count per calendar month' }),
  features: Type.Array(Type.String())
}, { $id: 'Plan' })

const Usage = Type.Object({ used: Type.Integer(), limit: Nullable(Type.Integer()) })

export const SubscriptionResponse = Type.Object({
  subscription: Type.Object({ planId: Type.String(), status: Type.String(), startedAt: Nullable(Type.String()) }),
  plan: ref(Plan),
  usage: Type.Object({ period: Type.String({ description: 'YYYY-MM' }), recipes: Usage, aiGenerations: Usage, imports: Usage })
})
