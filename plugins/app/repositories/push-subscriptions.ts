// Web Push subscriptions (one row per browser endpoint) and the push switch per notification type. Queries a user
// makes are scoped by that user; the sender's bookkeeping (success, failure, gone) goes by subscription id.
import { createId } from '@paralleldrive/cuid2'
import fp from 'fastify-plugin'
import { NOTIFICATION_TYPES, type notificationPreferences, type pushSubscriptions } from '../../../db/schema/index.js'
import type { NotificationType, PushPreferencesView } from '../../../schemas/push.js'
import type { Db } from '../../external/db.js'
import type { Page } from './recipes.js'
import { sessionsWith, type SessionKey, type SessionState } from './hot/session.js'
import type { Counted } from './sql.js'

declare module 'fastify' {
  interface FastifyInstance {
    pushSubscriptionsRepository: typeof pushSubscriptionsRepository
  }
}

export type PushSubscriptionRow = Omit<typeof pushSubscriptions.$inferSelect, 'failures'>

export interface NewPushSubscription { endpoint: string, p256dh: string, auth: string, userAgent: string | null }

const columns = (db: Db) => db`id, user_id, endpoint, p256dh, auth, user_agent, created_at, last_success_at`

/** Every type's switch: the stored ones, on where none is stored. */
const withDefaults = (stored: Partial<Record<NotificationType, boolean>>): PushPreferencesView =>
  Object.fromEntries(NOTIFICATION_TYPES.map(type => [type, stored[type] ?? true])) as PushPreferencesView

export const pushSubscriptionsRepository = {
  /**
   * Saves the browser's subscription under `userId`. An endpoint already stored for another user moves to this one
   * (a browser belongs to whoever subscribed on it last) and counts as created; the caller's own endpoint gets its
   * new keys. `created` is false only when the endpoint was already the caller's.
   */
  async upsert (db: Db, userId: string, s: NewPushSubscription): Promise<{ row: PushSubscriptionRow, created: boolean }> {
    // Two attempts suffice: the second runs after a concurrent insert of the same endpoint has committed.
    for (let attempt = 0; attempt < 3; attempt++) {
      const [existing] = await db<Array<Pick<PushSubscriptionRow, 'id' | 'userId'>>>`
        select id, user_id from push_subscriptions where endpoint = ${s.endpoint} for update`
      if (existing == null) {
        const [inserted] = await db<PushSubscriptionRow[]>`
          insert into push_subscriptions ${db({ id: createId(), userId, ...s })}
          on conflict (endpoint) do nothing returning ${columns(db)}`
        if (inserted != null) return { row: inserted, created: true }
        continue
      }
      const moved = existing.userId !== userId
      const [row] = await db<PushSubscriptionRow[]>`
        update push_subscriptions set user_id = ${userId}, p256dh = ${s.p256dh}, auth = ${s.auth}, user_agent = ${s.userAgent},
          failures = 0 ${moved ? db`, created_at = now(), last_success_at = null` : db``}
        where id = ${existing.id} returning ${columns(db)}`
      return { row, created: moved }
    }
    throw new Error('push subscription upsert did not settle')
  },

  async countForUser (db: Db, userId: string): Promise<number> {
    const [{ n }] = await db<Array<Counted<'n'>>>`select count(*)::int as n from push_subscriptions where user_id = ${userId}`
    return n
  },

  /** Deletes the user's oldest subscriptions beyond the newest `keep` (`keepId` always stays); returns how many. */
  async trimOldest (db: Db, userId: string, keep: number, keepId: string): Promise<number> {
    const rows = await db`delete from push_subscriptions where id in (
        select id from push_subscriptions where user_id = ${userId}
        order by (id = ${keepId}) desc, created_at desc, id desc offset ${keep})
      returning 1`
    return rows.length
  },

  /** A page of the user's subscriptions, newest first. */
  async list (db: Db, userId: string, page: number, limit: number): Promise<Page<PushSubscriptionRow>> {
    const [items, [{ total }]] = await Promise.all([
      db<PushSubscriptionRow[]>`select ${columns(db)} from push_subscriptions where user_id = ${userId}
        order by created_at desc, id desc limit ${limit} offset ${(page - 1) * limit}`,
      db<Array<Counted<'total'>>>`select count(*)::int as total from push_subscriptions where user_id = ${userId}`
    ])
    return { items, total }
  },

  /** The user's newest `limit` subscriptions: where a push goes. */
  async forUser (db: Db, userId: string, limit: number): Promise<PushSubscriptionRow[]> {
    return await db<PushSubscriptionRow[]>`select ${columns(db)} from push_subscriptions where user_id = ${userId}
      order by created_at desc, id desc limit ${limit}`
  },

  async removeByEndpoint (db: Db, userId: string, endpoint: string): Promise<boolean> {
    const rows = await db`delete from push_subscriptions where user_id = ${userId} and endpoint = ${endpoint} returning 1`
    return rows.length > 0
  },

  async removeForUser (db: Db, userId: string, id: string): Promise<boolean> {
    const rows = await db`delete from push_subscriptions where id = ${id} and user_id = ${userId} returning 1`
    return rows.length > 0
  },

  async remove (db: Db, id: string): Promise<boolean> {
    const rows = await db`delete from push_subscriptions where id = ${id} returning 1`
    return rows.length > 0
  },

  async markSuccess (db: Db, id: string): Promise<void> {
    await db`update push_subscriptions set last_success_at = now(), failures = 0 where id = ${id}`
  },

  /** Counts one more consecutive failure; the `maxFailures`-th deletes the subscription. True when it was deleted. */
  async markFailure (db: Db, id: string, maxFailures: number): Promise<boolean> {
    const [row] = await db<Array<Pick<typeof pushSubscriptions.$inferSelect, 'failures'>>>`
      update push_subscriptions set failures = failures + 1 where id = ${id} returning failures`
    if (row == null || row.failures < maxFailures) return false
    const rows = await db`delete from push_subscriptions where id = ${id} and failures >= ${maxFailures} returning 1`
    return rows.length > 0
  },

  /** Every notification type's push switch, on where nothing is stored. */
  async preferences (db: Db, userId: string): Promise<PushPreferencesView> {
    const rows = await db<Array<Pick<typeof notificationPreferences.$inferSelect, 'type' | 'push'>>>`
      select type, push from notification_preferences where user_id = ${userId}`
    return withDefaults(Object.fromEntries(rows.map(r => [r.type, r.push])))
  },

  /** Preferences read with their session checks (the route's `sessionRead`), in one statement. */
  async preferencesSessions (db: Db, checks: SessionKey[]): Promise<Array<{ session: SessionState, value: PushPreferencesView } | null>> {
    return await sessionsWith(db, checks,
      db`coalesce((select json_object_agg(p.type, p.push) from notification_preferences p where p.user_id = u.id), '{}') as stored`,
      (row: { stored: Partial<Record<NotificationType, boolean>> }) => withDefaults(row.stored))
  },

  async pushEnabled (db: Db, userId: string, type: NotificationType): Promise<boolean> {
    const [row] = await db<Array<Pick<typeof notificationPreferences.$inferSelect, 'push'>>>`
      select push from notification_preferences where user_id = ${userId} and type = ${type}`
    return row?.push ?? true
  },

  async savePreferences (db: Db, userId: string, patch: Partial<PushPreferencesView>): Promise<void> {
    const rows = Object.entries(patch).filter(([, push]) => typeof push === 'boolean').map(([type, push]) => ({ userId, type, push }))
    if (rows.length === 0) return
    await db`insert into notification_preferences ${db(rows)}
      on conflict (user_id, type) do update set push = excluded.push`
  }
}

export default fp(async fastify => {
  fastify.decorate('pushSubscriptionsRepository', pushSubscriptionsRepository)
}, { name: 'push-subscriptions-repository' })
