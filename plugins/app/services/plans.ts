// Subscription plans (from the database, with built-in fallback plans), usage against their limits, feature flags,
// and the admin side of both. Admin plan writes take one advisory lock: the first one stores the built-in plans in its
// own transaction (so creating one plan never makes free/premium/family vanish, however many first writes race), and
// a delete's "nobody is on it" check holds until it commits.
import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { PlanLimits } from '../../../db/schema/index.js'
import { DuplicatePlan, FeatureFlagNotFound, FreePlanRequired, PlanInUse, PlanNotFound, validationError } from '../../../lib/errors.js'
import type {
  AdminPlanView, FeatureFlagInput, FeatureFlagView, PlanCreateInput, PlanUpdateInput
} from '../../../schemas/admin-plans.js'
import type { Db } from '../../external/db.js'
import type { FlagRow, PlanFields, UsageKind } from '../repositories/plans.js'

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

/** The plan every user is on unless moved: it can be neither deleted nor deactivated. */
export const FREE_PLAN = 'free'

const toPlan = ({ id, name, description, priceMonthly, currency, limits, features }: Plan): Plan =>
  ({ id, name, description, priceMonthly, currency, limits, features })

/** The built-in plans as the rows the first admin write stores. */
const fallbackRows = (): PlanFields[] => FALLBACK_PLANS.map((plan, i) => ({ ...toPlan(plan), sortOrder: i, active: true }))

function adminView (row: PlanFields & { createdAt: Date | null, updatedAt: Date | null }): AdminPlanView {
  return { ...toPlan(row), sortOrder: row.sortOrder, active: row.active, createdAt: row.createdAt?.toISOString() ?? null, updatedAt: row.updatedAt?.toISOString() ?? null }
}

function flagView (row: FlagRow): FeatureFlagView {
  return {
    key: row.key,
    description: row.description,
    enabled: row.enabled,
    plans: row.plans ?? null,
    rolloutPercentage: row.rolloutPercentage,
    userIds: row.userIds,
    updatedAt: row.updatedAt.toISOString()
  }
}

export function createPlanService (fastify: FastifyInstance) {
  const repo = fastify.plansRepository

  /** The plans on offer: the active stored plans, or the built-in plans while none is stored. */
  async function all (db: Db = fastify.db): Promise<Plan[]> {
    const rows = await repo.all(db)
    if (rows.length === 0) return FALLBACK_PLANS
    return rows.filter(row => row.active).map(toPlan)
  }

  /**
   * The user's plan, offered or not (a user on a deactivated plan keeps it); an unknown plan key (a plan deleted after
   * users left it, or set outside the API) falls back to the free plan.
   */
  async function forUser (userId: string, db: Db = fastify.db): Promise<Plan> {
    const [rows, planId] = await Promise.all([repo.all(db), repo.planIdOf(db, userId)])
    const list: Plan[] = rows.length === 0 ? FALLBACK_PLANS : rows.map(toPlan)
    return list.find(p => p.id === (planId ?? FREE_PLAN)) ?? list.find(p => p.id === FREE_PLAN) ?? FALLBACK_PLANS[0]
  }

  /** Every plan an admin sees: stored ones, or the built-in ones (not stored yet) while the table is empty. */
  async function adminPlans (db: Db): Promise<{ plans: AdminPlanView[], builtIn: boolean }> {
    const rows = await repo.all(db)
    if (rows.length > 0) return { plans: rows.map(adminView), builtIn: false }
    return { plans: fallbackRows().map(row => adminView({ ...row, createdAt: null, updatedAt: null })), builtIn: true }
  }

  /**
   * Runs an admin plan write in one transaction under the plans lock, after storing the built-in plans if the table is
   * still empty: concurrent first writes wait for one another, and the second finds the plans stored.
   */
  async function planWrite<T> (work: (tx: Db) => Promise<T>): Promise<T> {
    return await fastify.transaction(async tx => {
      await repo.lock(tx)
      if (await repo.isEmpty(tx)) await repo.insertMany(tx, fallbackRows())
      return await work(tx)
    })
  }

  /** 400 naming every id in `planIds` that is not a plan (stored, or built-in while none is stored). */
  async function assertPlansExist (db: Db, planIds: string[]): Promise<void> {
    const known = new Set((await adminPlans(db)).plans.map(p => p.id))
    const unknown = planIds.filter(id => !known.has(id))
    if (unknown.length > 0) throw validationError(unknown.map(id => `plans: ${id} is not a plan`))
  }

  return {
    all,
    forUser,

    /**
     * For code that puts a user on a plan, in its transaction: whether `planId` is a plan on offer. It holds the plans
     * lock (shared) until that transaction ends, so no admin can delete the plan before the assignment commits.
     */
    async holdOffered (tx: Db, planId: string): Promise<boolean> {
      await repo.lock(tx, 'shared')
      return (await all(tx)).some(plan => plan.id === planId)
    },

    async adminList (): Promise<{ plans: AdminPlanView[], builtIn: boolean }> {
      return await adminPlans(fastify.db)
    },

    async createPlan (input: PlanCreateInput): Promise<AdminPlanView> {
      return await planWrite(async tx => {
        const row = await repo.insert(tx, {
          id: input.id,
          name: input.name,
          description: input.description ?? null,
          priceMonthly: input.priceMonthly,
          currency: input.currency ?? 'USD',
          limits: input.limits,
          features: [...new Set(input.features ?? [])],
          sortOrder: input.sortOrder ?? await repo.nextSortOrder(tx),
          active: input.active ?? true
        })
        if (row == null) throw new DuplicatePlan()
        return adminView(row)
      })
    },

    async updatePlan (planId: string, input: PlanUpdateInput): Promise<AdminPlanView> {
      return await planWrite(async tx => {
        const current = await repo.find(tx, planId, { forUpdate: true })
        if (current == null) throw new PlanNotFound()
        if (planId === FREE_PLAN && input.active === false) throw new FreePlanRequired()
        const next: PlanFields = {
          id: current.id,
          name: input.name ?? current.name,
          description: input.description === undefined ? current.description : input.description,
          priceMonthly: input.priceMonthly ?? current.priceMonthly,
          currency: input.currency ?? current.currency,
          // Only the limits given change.
          limits: { ...current.limits, ...input.limits },
          features: input.features == null ? current.features : [...new Set(input.features)],
          sortOrder: input.sortOrder ?? current.sortOrder,
          active: input.active ?? current.active
        }
        const row = await repo.update(tx, next)
        if (row == null) throw new PlanNotFound()
        return adminView(row)
      })
    },

    /** 409 for the free plan and for a plan users are on (deactivate it instead); flags stop naming it. */
    async deletePlan (planId: string): Promise<void> {
      await planWrite(async tx => {
        if (await repo.find(tx, planId) == null) throw new PlanNotFound()
        if (planId === FREE_PLAN) throw new FreePlanRequired()
        if (await repo.inUse(tx, planId)) throw new PlanInUse()
        await repo.removeFromFlags(tx, planId)
        await repo.remove(tx, planId)
      })
    },

    async flags (): Promise<FeatureFlagView[]> {
      return (await repo.flags(fastify.db)).map(flagView)
    },

    /**
     * Creates or changes a flag; fields left out keep their stored value (the defaults for a new flag). Plans it names
     * must exist, and cannot be deleted before it is saved (the plans lock, shared).
     */
    async saveFlag (input: FeatureFlagInput): Promise<{ featureFlag: FeatureFlagView, created: boolean }> {
      const plans = input.plans == null ? input.plans : [...new Set(input.plans)]
      const fields = {
        key: input.key,
        enabled: input.enabled,
        description: input.description,
        plans,
        rolloutPercentage: input.rolloutPercentage,
        userIds: input.userIds == null ? undefined : [...new Set(input.userIds)]
      }
      const { row, created } = plans == null
        ? await repo.saveFlag(fastify.db, fields)
        : await fastify.transaction(async tx => {
          await repo.lock(tx, 'shared')
          await assertPlansExist(tx, plans)
          return await repo.saveFlag(tx, fields)
        })
      return { featureFlag: flagView(row), created }
    },

    async deleteFlag (key: string): Promise<void> {
      if (!await repo.removeFlag(fastify.db, key)) throw new FeatureFlagNotFound()
    },

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

    /** Counts one monthly use of `kind` in the caller's transaction (in `period`, this month by default). */
    async spend (tx: Db, userId: string, kind: UsageKind, period = usagePeriod()): Promise<number> {
      return await repo.increment(tx, userId, kind, period)
    },

    /** Gives back one use spent in `period` (a reservation whose work failed, e.g. an AI generation). */
    async refund (db: Db, userId: string, kind: UsageKind, period: string): Promise<void> {
      await repo.decrement(db, userId, kind, period)
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
