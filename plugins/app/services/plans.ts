// Subscription plans (from the database, with built-in fallback plans), usage against their limits, feature flags.
import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { PlanLimits } from '../../../db/schema/index.js'
import type { Db } from '../../external/db.js'
import type { UsageKind } from '../repositories/plans.js'

export interface Plan {
  id: string
  name: string
  description: string | null
  priceMonthly: number
  currency: string
  limits: PlanLimits
  features: string[]
}

/**
 * Served while the plans table is empty (interface.md: "built-in fallback plan data"). `familyMembers`: a family owned
 * on the free or premium plan holds up to 6 members, on the family plan up to 12.
 */
export const FALLBACK_PLANS: Plan[] = [
  {
    id: 'free',
    name: 'Free',
    description: 'Everything you need to start a recipe collection',
    priceMonthly: 0,
    currency: 'USD',
    limits: { recipes: 50, aiGenerations: 5, imports: 10, familyMembers: 6 },
    features: ['recipes', 'collections', 'meal-plans', 'grocery-lists']
  },
  {
    id: 'premium',
    name: 'Premium',
    description: 'Unlimited recipes, more imports and AI generations',
    priceMonthly: 499,
    currency: 'USD',
    limits: { recipes: null, aiGenerations: 100, imports: 200, familyMembers: 6 },
    features: ['recipes', 'collections', 'meal-plans', 'grocery-lists', 'nutrition', 'ai-recipes', 'recipe-import']
  },
  {
    id: 'family',
    name: 'Family',
    description: 'Premium for the whole household, with shared meal plans',
    priceMonthly: 899,
    currency: 'USD',
    limits: { recipes: null, aiGenerations: 200, imports: 500, familyMembers: 12 },
    features: ['recipes', 'collections', 'meal-plans', 'grocery-lists', 'nutrition', 'ai-recipes', 'recipe-import', 'families', 'shared-meal-plans']
  }
]

declare module 'fastify' {
  interface FastifyInstance {
    planService: ReturnType<typeof createPlanService>
  }
}

/** The calendar month usage counts against, e.g. 2026-11. */
export const usagePeriod = (date = new Date()) => date.toISOString().slice(0, 7)

/** A stable 0-99 bucket per user and flag, so a percentage rollout keeps the same users in. */
export function rolloutBucket (flag: string, userId: string): number {
  return createHash('sha256').update(`${flag}:${userId}`).digest().readUInt32BE(0) % 100
}

export function createPlanService (fastify: FastifyInstance) {
  const repo = fastify.plansRepository

  async function all (db: Db = fastify.db): Promise<Plan[]> {
    const rows = await repo.active(db)
    if (rows.length === 0) return FALLBACK_PLANS
    return rows.map(({ id, name, description, priceMonthly, currency, limits, features }) => ({ id, name, description, priceMonthly, currency, limits, features }))
  }

  /** The user's plan; an unknown plan key (a plan removed after users joined it) falls back to the free plan. */
  async function forUser (userId: string, db: Db = fastify.db): Promise<Plan> {
    const [list, planId] = await Promise.all([all(db), repo.planIdOf(db, userId)])
    return list.find(p => p.id === (planId ?? 'free')) ?? FALLBACK_PLANS[0]
  }

  return {
    all,
    forUser,

    async subscription (userId: string) {
      const plan = await forUser(userId)
      const [subscription, recipes, used] = await Promise.all([
        repo.subscription(fastify.db, userId),
        fastify.recipesRepository.countByAuthor(fastify.db, userId),
        repo.usage(fastify.db, userId, usagePeriod())
      ])
      return {
        subscription: { planId: plan.id, status: subscription?.status ?? 'active', startedAt: subscription?.startedAt.toISOString() ?? null },
        plan,
        usage: {
          period: usagePeriod(),
          recipes: { used: recipes, limit: plan.limits.recipes },
          aiGenerations: { used: used.aiGenerations, limit: plan.limits.aiGenerations },
          imports: { used: used.imports, limit: plan.limits.imports }
        }
      }
    },

    /** Counts one monthly use of `kind` in the caller's transaction. */
    async spend (tx: Db, userId: string, kind: UsageKind): Promise<number> {
      return await repo.increment(tx, userId, kind, usagePeriod())
    },

    /** Whether `flag` is on for this user: enabled, and allow-listed, or on their plan and inside the rollout. */
    async isEnabled (flag: string, userId: string): Promise<boolean> {
      const row = await repo.flag(fastify.db, flag)
      if (row == null || !row.enabled) return false
      if (row.userIds.includes(userId)) return true
      if (row.plans != null && !row.plans.includes((await forUser(userId)).id)) return false
      return rolloutBucket(flag, userId) < row.rolloutPercentage
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('planService', createPlanService(fastify))
}, { name: 'plan-service', dependencies: ['plans-repository', 'recipes-repository'] })
