// Admin shapes for subscription plans and feature flags (/api/admin/plans, /api/admin/feature-flags).
import { Type, type Static } from 'typebox'
import { featureFlags, plans } from '../db/schema/plans.js'
import { pick, tableColumns } from './columns.js'
import { DateTime, Id, Nullable, ref } from './common.js'
import { FAMILY_LIMITS } from './families.js'
import { Plan } from './plans.js'

/** Plan ids, feature keys and flag keys: lower-case words joined by hyphens, as in `free`, `ai-recipes`. */
const KEY_PATTERN = '^[a-z0-9][a-z0-9-]{0,63}$'
export const PlanId = Type.String({ pattern: KEY_PATTERN, description: 'Lower-case letters, digits and hyphens, 1-64 characters' })
export const FlagKey = Type.String({ pattern: KEY_PATTERN, description: 'Lower-case letters, digits and hyphens, 1-64 characters' })

/** Bounds of what admins may store. */
export const ADMIN_PLAN_LIMITS = {
  plansPerFlag: 50,
  userIdsPerFlag: 1000,
  featuresPerPlan: 50,
  /** Cents per month: up to 100,000.00. */
  priceMonthly: 10_000_000,
  /** A usage limit above this is not a limit: use null (unlimited). */
  limit: 1_000_000
} as const

// Path parameters are not pattern-checked: an unknown or malformed id answers 404 (decisions.md section 1).
export const PlanParams = Type.Object({ planId: Type.String({ minLength: 1, maxLength: 64 }) })
export const FeatureFlagParams = Type.Object({ key: Type.String({ minLength: 1, maxLength: 64 }) })

const CURRENCY_PATTERN = '^[A-Z]{3}$'
const ACTIVE = 'false: no longer offered (hidden from GET /api/subscription-plans); users already on it keep it'
const Limit = Nullable(Type.Integer({ minimum: 0, maximum: ADMIN_PLAN_LIMITS.limit }), { description: 'null means unlimited' })
const FamilyMembersLimit = Nullable(Type.Integer({ minimum: 0, maximum: FAMILY_LIMITS.members }), {
  description: `Members of a family this plan's owners may have (at most ${FAMILY_LIMITS.members} in any case); null means no plan cap`
})
const Features = Type.Array(Type.String({ pattern: KEY_PATTERN }), {
  maxItems: ADMIN_PLAN_LIMITS.featuresPerPlan,
  description: `What the plan offers (at most ${ADMIN_PLAN_LIMITS.featuresPerPlan} keys, e.g. recipe-import; repeats are dropped)`
})
const fields = {
  name: Type.String({ minLength: 1, maxLength: 100 }),
  description: Nullable(Type.String({ maxLength: 1000 })),
  priceMonthly: Type.Integer({ minimum: 0, maximum: ADMIN_PLAN_LIMITS.priceMonthly, description: 'Cents per month' }),
  currency: Type.String({ pattern: CURRENCY_PATTERN, description: 'ISO 4217 code, e.g. USD' }),
  features: Features,
  sortOrder: Type.Integer({ minimum: -1000, maximum: 1000, description: 'Position in the plan list (then by price)' }),
  active: Type.Boolean({ description: ACTIVE })
}

export const AdminPlan = Type.Object({
  ...Plan.properties,
  ...pick(tableColumns(plans), ['sortOrder', 'active'], { active: ACTIVE }),
  // Not the columns as they are: a built-in plan has no row.
  createdAt: Nullable(DateTime, { description: 'null for a built-in plan while no plan is stored' }),
  updatedAt: Nullable(DateTime, { description: 'null for a built-in plan while no plan is stored' })
}, { $id: 'AdminPlan', description: 'A subscription plan, offered or not' })
export type AdminPlanView = Static<typeof AdminPlan>

export const AdminPlanList = Type.Object({
  plans: Type.Array(ref(AdminPlan)),
  builtIn: Type.Boolean({ description: 'true while no plan is stored and the built-in plans are served; the first change stores them' })
}, { description: 'Every plan, inactive ones included, in list order' })

export const AdminPlanResponse = Type.Object({ plan: ref(AdminPlan) })

export const PlanCreateBody = Type.Object({
  id: PlanId,
  name: fields.name,
  description: Type.Optional(fields.description),
  priceMonthly: fields.priceMonthly,
  currency: Type.Optional(Type.String({ pattern: CURRENCY_PATTERN, default: 'USD', description: 'ISO 4217 code (default USD)' })),
  limits: Type.Object({ recipes: Limit, aiGenerations: Limit, imports: Limit, familyMembers: Type.Optional(FamilyMembersLimit) }, {
    description: 'aiGenerations and imports count per calendar month'
  }),
  features: Type.Optional(fields.features),
  sortOrder: Type.Optional(Type.Integer({ minimum: -1000, maximum: 1000, description: 'Position in the plan list (then by price); default: after the last plan' })),
  active: Type.Optional(Type.Boolean({ default: true, description: ACTIVE }))
})
export type PlanCreateInput = Static<typeof PlanCreateBody>

export const PlanUpdateBody = Type.Object({
  name: Type.Optional(fields.name),
  description: Type.Optional(fields.description),
  priceMonthly: Type.Optional(fields.priceMonthly),
  currency: Type.Optional(fields.currency),
  limits: Type.Optional(Type.Object({
    recipes: Type.Optional(Limit),
    aiGenerations: Type.Optional(Limit),
    imports: Type.Optional(Limit),
    familyMembers: Type.Optional(FamilyMembersLimit)
  }, { description: 'Only the limits given change' })),
  features: Type.Optional(fields.features),
  sortOrder: Type.Optional(fields.sortOrder),
  active: Type.Optional(fields.active)
})
export type PlanUpdateInput = Static<typeof PlanUpdateBody>

export const FeatureFlag = Type.Object(pick(tableColumns(featureFlags),
  ['key', 'description', 'enabled', 'plans', 'rolloutPercentage', 'userIds', 'updatedAt'], {
    key: FlagKey,
    enabled: 'false: off for everyone, allow-listed users included',
    plans: Nullable(Type.Array(Type.String()), { description: 'Plans whose users get it; null: every plan' }),
    rolloutPercentage: Type.Integer({ minimum: 0, maximum: 100, description: 'Share of the plans\' users who get it, stable per user' }),
    userIds: Type.Array(Id, { description: 'Users who always get it while it is enabled, whatever their plan and the rollout say' })
  }
), { $id: 'FeatureFlag', description: 'A feature flag' })
export type FeatureFlagView = Static<typeof FeatureFlag>

export const FeatureFlagList = Type.Object({
  featureFlags: Type.Array(ref(FeatureFlag))
}, { description: 'Every flag, by key' })

export const FeatureFlagBody = Type.Object({
  key: FlagKey,
  enabled: Type.Boolean(),
  description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  plans: Type.Optional(Nullable(Type.Array(PlanId, {
    maxItems: ADMIN_PLAN_LIMITS.plansPerFlag,
    description: `Existing plan ids (at most ${ADMIN_PLAN_LIMITS.plansPerFlag}; repeats are dropped); null: every plan`
  }))),
  rolloutPercentage: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
  userIds: Type.Optional(Type.Array(Id, {
    maxItems: ADMIN_PLAN_LIMITS.userIdsPerFlag,
    description: `At most ${ADMIN_PLAN_LIMITS.userIdsPerFlag} user ids (repeats are dropped; not checked: an id of no user matches no one)`
  }))
})
export type FeatureFlagInput = Static<typeof FeatureFlagBody>

export const FeatureFlagResponse = Type.Object({ featureFlag: ref(FeatureFlag) })
