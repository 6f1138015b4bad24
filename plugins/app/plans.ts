// Subscription plans (from the database, with built-in fallback plans), usage and feature flags.
import { createHash } from 'node:crypto'
import { asc, eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { featureFlags, plans, type PlanLimits } from '../../db/schema/index.js'
import { toIso } from '../../lib/pg-values.js'

export interface Plan {
  id: string
  name: string
  description: string | null
  priceMonthly: number
  currency: string
  limits: PlanLimits
  features: string[]
}

/** Served while the plans table is empty (interface.md: "built-in fallback plan data"). */
export const FALLBACK_PLANS: Plan[] = [
  {
    id: 'free',
    name: 'Free',
    description: 'Everything you need to start a recipe collection',
    priceMonthly: 0,
    currency: 'USD',
    limits: { recipes: 50, aiGenerations: 5, imports: 10 },
    features: ['recipes', 'collections', 'meal-plans', 'grocery-lists']
  },
  {
    id: 'premium',
    name: 'Premium',
    description: 'Unlimited recipes, more imports and AI generations',
    priceMonthly: 499,
    currency: 'USD',
    limits: { recipes: null, aiGenerations: 100, imports: 200 },
    features: ['recipes', 'collections', 'meal-plans', 'grocery-lists', 'nutrition', 'ai-recipes', 'recipe-import']
  },
  {
    id: 'family',
    name: 'Family',
    description: 'Premium for the whole household, with shared meal plans',
    priceMonthly: 899,
    currency: 'USD',
    limits: { recipes: null, aiGenerations: 200, imports: 500 },
    features: ['recipes', 'collections', 'meal-plans', 'grocery-lists', 'nutrition', 'ai-recipes', 'recipe-import', 'families', 'shared-meal-plans']
  }
]

declare module 'fastify' {
  interface FastifyInstance {
    plans: ReturnType<typeof createPlans>
  }
}

/** The calendar month usage counts against, e.g. 2026-11. */
export const usagePeriod = (date = new Date()) => date.toISOString().slice(0, 7)

/** A stable 0-99 bucket per user and flag, so a percentage rollout keeps the same users in. */
export function rolloutBucket (flag: string, userId: string): number {
  return createHash('sha256').update(`${flag}:${userId}`).digest().readUInt32BE(0) % 100
}

export function createPlans (fastify: FastifyInstance) {
  const { db, sql } = fastify

  async function all (): Promise<Plan[]> {
    const rows = await db.select().from(plans).where(eq(plans.active, true)).orderBy(asc(plans.sortOrder), asc(plans.priceMonthly))
    if (rows.length === 0) return FALLBACK_PLANS
    return rows.map(({ id, name, description, priceMonthly, currency, limits, features }) => ({ id, name, description, priceMonthly, currency, limits, features }))
  }

  async function byId (id: string): Promise<Plan> {
    const list = await all()
    // An unknown plan key (a plan removed after users joined it) falls back to the free plan's limits.
    return list.find(p => p.id === id) ?? FALLBACK_PLANS[0]
  }

  async function forUser (userId: string): Promise<Plan> {
    const [row] = await sql`select plan_id from users where id = ${userId}`
    return await byId(row?.plan_id ?? 'free')
  }

  return {
    all,
    byId,
    forUser,

    async subscription (userId: string): Promise<{ status: string, startedAt: string | null }> {
      const [row] = await sql`select status, started_at from subscriptions where user_id = ${userId}`
      return { status: row?.status ?? 'active', startedAt: row == null ? null : toIso(row.started_at) }
    },

    async usage (userId: string) {
      const period = usagePeriod()
      const [counts] = await sql`
        select (select count(*) from recipes where author_id = ${userId})::int as recipes,
          coalesce((select count from usage where user_id = ${userId} and kind = 'aiGenerations' and period = ${period}), 0)::int as ai,
          coalesce((select count from usage where user_id = ${userId} and kind = 'imports' and period = ${period}), 0)::int as imports`
      return { period, recipes: counts.recipes as number, aiGenerations: counts.ai as number, imports: counts.imports as number }
    },

    /** Whether `flag` is on for this user: enabled, and allow-listed, or on their plan and inside the rollout. */
    async isEnabled (flag: string, user: { id: string, planId?: string }): Promise<boolean> {
      const [row] = await db.select().from(featureFlags).where(eq(featureFlags.key, flag))
      if (row == null || !row.enabled) return false
      if (row.userIds.includes(user.id)) return true
      const planId = user.planId ?? (await forUser(user.id)).id
      if (row.plans != null && !row.plans.includes(planId)) return false
      return rolloutBucket(flag, user.id) < row.rolloutPercentage
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('plans', createPlans(fastify))
}, { name: 'plans', dependencies: ['db'] })
