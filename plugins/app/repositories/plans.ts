// Plans, subscriptions, monthly usage counters and feature flags.
import fp from 'fastify-plugin'
import type { featureFlags, plans } from '../../../db/schema/index.js'
import type { Db } from '../../external/db.js'

declare module 'fastify' {
  interface FastifyInstance {
    plansRepository: typeof plansRepository
  }
}

export type UsageKind = 'aiGenerations' | 'imports'
type PlanRow = typeof plans.$inferSelect
type FlagRow = typeof featureFlags.$inferSelect

export const plansRepository = {
  async active (db: Db): Promise<PlanRow[]> {
    return await db<PlanRow[]>`select * from plans where active order by sort_order, price_monthly`
  },

  async planIdOf (db: Db, userId: string): Promise<string | null> {
    const [row] = await db<Array<{ planId: string }>>`select plan_id from users where id = ${userId}`
    return row?.planId ?? null
  },

  async subscription (db: Db, userId: string): Promise<{ status: string, startedAt: Date } | null> {
    const [row] = await db<Array<{ status: string, startedAt: Date }>>`select status, started_at from subscriptions where user_id = ${userId}`
    return row ?? null
  },

  async usage (db: Db, userId: string, period: string): Promise<Record<UsageKind, number>> {
    const rows = await db<Array<{ kind: UsageKind, count: number }>>`select kind, count from usage where user_id = ${userId} and period = ${period}`
    const used: Record<UsageKind, number> = { aiGenerations: 0, imports: 0 }
    for (const row of rows) used[row.kind] = row.count
    return used
  },

  /** Counts one use in `period`; call it in the transaction that spends the allowance. Returns the new count. */
  async increment (db: Db, userId: string, kind: UsageKind, period: string): Promise<number> {
    const [row] = await db<Array<{ count: number }>>`
      insert into usage (user_id, kind, period, count) values (${userId}, ${kind}, ${period}, 1)
      on conflict (user_id, kind, period) do update set count = usage.count + 1 returning count`
    return row.count
  },

  async flag (db: Db, key: string): Promise<FlagRow | null> {
    const [row] = await db<FlagRow[]>`select * from feature_flags where key = ${key}`
    return row ?? null
  }
}

export default fp(async fastify => {
  fastify.decorate('plansRepository', plansRepository)
}, { name: 'plans-repository' })
