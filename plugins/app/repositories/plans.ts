// Plans, subscriptions, monthly usage counters and feature flags.
import fp from 'fastify-plugin'
import type { featureFlags, plans, subscriptions, usage, users } from '../../../db/schema/index.js'
import { json, type Db } from '../../external/db.js'
import type { Counted, Flagged } from './sql.js'

declare module 'fastify' {
  interface FastifyInstance {
    plansRepository: typeof plansRepository
  }
}

export type UsageKind = 'aiGenerations' | 'imports'
export type PlanRow = typeof plans.$inferSelect
export type FlagRow = typeof featureFlags.$inferSelect
/** Every column an admin sets on a plan. */
export type PlanFields = Pick<PlanRow, 'id' | 'name' | 'description' | 'priceMonthly' | 'currency' | 'limits' | 'features' | 'sortOrder' | 'active'>
/** A flag as saved: fields left undefined keep their stored value (the column default for a new flag). */
export interface FlagFields {
  key: string
  enabled: boolean
  description?: string | null
  plans?: string[] | null
  rolloutPercentage?: number
  userIds?: string[]
}

/** The key every admin plan write locks (transaction-scoped advisory lock). */
const PLANS_LOCK = 'plans:admin-write'

export const plansRepository = {
  /** Every stored plan, inactive ones included, in list order. */
  async all (db: Db): Promise<PlanRow[]> {
    return await db<PlanRow[]>`select * from plans order by sort_order, price_monthly, id`
  },

  /**
   * Serializes admin plan writes until the transaction ends: the first write stores the built-in plans exactly once,
   * and a delete's "nobody is on it" check holds until it commits. `shared` lets many readers of that state (a plan
   * assignment) through together while keeping writers out.
   */
  async lock (db: Db, mode: 'exclusive' | 'shared' = 'exclusive'): Promise<void> {
    if (mode === 'shared') await db`select pg_advisory_xact_lock_shared(hashtext(${PLANS_LOCK}))`
    else await db`select pg_advisory_xact_lock(hashtext(${PLANS_LOCK}))`
  },

  /** A sort order placing a plan after every stored one. */
  async nextSortOrder (db: Db): Promise<number> {
    const [row] = await db<Array<Counted<'next'>>>`select coalesce(max(sort_order) + 1, 0)::int as next from plans`
    return row.next
  },

  async isEmpty (db: Db): Promise<boolean> {
    const [row] = await db<Array<Flagged<'empty'>>>`select not exists (select 1 from plans) as empty`
    return row.empty
  },

  async find (db: Db, id: string, options: { forUpdate?: boolean } = {}): Promise<PlanRow | null> {
    const [row] = options.forUpdate === true
      ? await db<PlanRow[]>`select * from plans where id = ${id} for update`
      : await db<PlanRow[]>`select * from plans where id = ${id}`
    return row ?? null
  },

  /** Inserts the plans; ids already stored are left as they are. */
  async insertMany (db: Db, rows: PlanFields[]): Promise<void> {
    if (rows.length === 0) return
    await db`insert into plans ${db(rows.map(row => ({ ...row, limits: json(db, row.limits), features: json(db, row.features) })))}
      on conflict (id) do nothing`
  },

  /** The new plan, or null when its id is taken. */
  async insert (db: Db, row: PlanFields): Promise<PlanRow | null> {
    const [created] = await db<PlanRow[]>`insert into plans ${db({ ...row, limits: json(db, row.limits), features: json(db, row.features) })}
      on conflict (id) do nothing returning *`
    return created ?? null
  },

  async update (db: Db, row: PlanFields): Promise<PlanRow | null> {
    const [updated] = await db<PlanRow[]>`update plans set name = ${row.name}, description = ${row.description},
        price_monthly = ${row.priceMonthly}, currency = ${row.currency}, limits = ${json(db, row.limits)},
        features = ${json(db, row.features)}, sort_order = ${row.sortOrder}, active = ${row.active}, updated_at = now()
      where id = ${row.id} returning *`
    return updated ?? null
  },

  async remove (db: Db, id: string): Promise<boolean> {
    const removed = await db`delete from plans where id = ${id} returning 1`
    return removed.length > 0
  },

  /** Whether any user is on the plan (users.plan_id). */
  async inUse (db: Db, id: string): Promise<boolean> {
    const [row] = await db<Array<Flagged<'used'>>>`select exists (select 1 from users where plan_id = ${id}) as used`
    return row.used
  },

  /** Takes a plan out of every flag's plan list (the plan is gone). */
  async removeFromFlags (db: Db, planId: string): Promise<void> {
    await db`update feature_flags set plans = plans - ${planId}::text, updated_at = now()
      where jsonb_typeof(plans) = 'array' and plans ? ${planId}::text`
  },

  async planIdOf (db: Db, userId: string): Promise<string | null> {
    const [row] = await db<Array<Pick<typeof users.$inferSelect, 'planId'>>>`select plan_id from users where id = ${userId}`
    return row?.planId ?? null
  },

  async subscription (db: Db, userId: string): Promise<{ status: string, startedAt: Date } | null> {
    const [row] = await db<Array<Pick<typeof subscriptions.$inferSelect, 'status' | 'startedAt'>>>`select status, started_at from subscriptions where user_id = ${userId}`
    return row ?? null
  },

  async usage (db: Db, userId: string, period: string): Promise<Record<UsageKind, number>> {
    const rows = await db<Array<Pick<typeof usage.$inferSelect, 'kind' | 'count'>>>`select kind, count from usage where user_id = ${userId} and period = ${period}`
    const used: Record<UsageKind, number> = { aiGenerations: 0, imports: 0 }
    for (const row of rows) used[row.kind] = row.count
    return used
  },

  /** Counts one use in `period`; call it in the transaction that spends the allowance. Returns the new count. */
  async increment (db: Db, userId: string, kind: UsageKind, period: string): Promise<number> {
    const [row] = await db<Array<Pick<typeof usage.$inferSelect, 'count'>>>`
      insert into usage (user_id, kind, period, count) values (${userId}, ${kind}, ${period}, 1)
      on conflict (user_id, kind, period) do update set count = usage.count + 1 returning count`
    return row.count
  },

  /** Gives back one use counted in `period` (work that reserved it failed); never below zero. */
  async decrement (db: Db, userId: string, kind: UsageKind, period: string): Promise<void> {
    await db`update usage set count = count - 1 where user_id = ${userId} and kind = ${kind} and period = ${period} and count > 0`
  },

  async flag (db: Db, key: string): Promise<FlagRow | null> {
    const [row] = await db<FlagRow[]>`select * from feature_flags where key = ${key}`
    return row ?? null
  },

  async flags (db: Db): Promise<FlagRow[]> {
    return await db<FlagRow[]>`select * from feature_flags order by key`
  },

  /** Creates or changes the flag in one statement; `created` tells which. */
  async saveFlag (db: Db, flag: FlagFields): Promise<{ row: FlagRow, created: boolean }> {
    const given = (value: unknown) => value !== undefined
    const [row] = await db<Array<FlagRow & Flagged<'created'>>>`
      insert into feature_flags (key, description, enabled, plans, rollout_percentage, user_ids)
      values (${flag.key}, ${flag.description ?? null}, ${flag.enabled}, ${flag.plans == null ? null : json(db, flag.plans)},
        ${flag.rolloutPercentage ?? 100}, ${json(db, flag.userIds ?? [])})
      on conflict (key) do update set
        enabled = excluded.enabled,
        description = case when ${given(flag.description)} then excluded.description else feature_flags.description end,
        plans = case when ${given(flag.plans)} then excluded.plans else feature_flags.plans end,
        rollout_percentage = case when ${given(flag.rolloutPercentage)} then excluded.rollout_percentage else feature_flags.rollout_percentage end,
        user_ids = case when ${given(flag.userIds)} then excluded.user_ids else feature_flags.user_ids end,
        updated_at = now()
      returning *, (xmax = 0) as created`
    const { created, ...saved } = row
    return { row: saved, created }
  },

  async removeFlag (db: Db, key: string): Promise<boolean> {
    const removed = await db`delete from feature_flags where key = ${key} returning 1`
    return removed.length > 0
  }
}

export default fp(async fastify => {
  fastify.decorate('plansRepository', plansRepository)
}, { name: 'plans-repository' })
