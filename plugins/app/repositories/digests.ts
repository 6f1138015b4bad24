// Digest scheduling in SQL: PostgreSQL's time zone rules place each user's slot (digestTime on the day, or on
// digestDay for weekly digests, in digestTimezone), so daylight-saving changes move the slot with local time.
import fp from 'fastify-plugin'
import {
  type digestRuns, NOTIFICATION_SETTINGS_DEFAULTS as DEFAULTS, type notifications, type notificationSettings, type users
} from '../../../db/schema/index.js'
import type { Db } from '../../external/db.js'
import { countShown, notificationShown } from './notification-visibility.js'
import type { Counted } from './sql.js'

declare module 'fastify' {
  interface FastifyInstance {
    digestsRepository: typeof digestsRepository
  }
}

type User = typeof users.$inferSelect
type DigestRun = typeof digestRuns.$inferSelect

export interface DueDigest {
  userId: User['id']
  email: User['email']
  username: User['username']
  frequency: Exclude<(typeof notificationSettings.$inferSelect)['digestFrequency'], 'none'>
  /** The slot's local date and time plus the zone: the unique key of the digest run. */
  period: DigestRun['period']
  /** End of the previous digest; null before the first. */
  since: DigestRun['coveredUntil'] | null
}

export type DigestNotification = Pick<typeof notifications.$inferSelect, 'message' | 'createdAt' | 'recipeId'>

export const digestsRepository = {
  /**
   * Users whose latest digest slot at `now` has passed, who have had no digest since that slot, and who have unread
   * notifications shown to them (notification-visibility.ts) from between their last digest and that slot (what
   * arrives later waits for the next slot).
   * Candidates come from the unread index, so users with nothing new cost nothing.
   */
  async due (db: Db, now: Date, limit: number): Promise<DueDigest[]> {
    return await db<DueDigest[]>`
      with candidate as (
        select distinct n.user_id from notifications n where not n.read and n.created_at <= ${now}
      ), settings as (
        select u.id, u.email, u.username,
          coalesce(ns.digest_frequency, ${DEFAULTS.digestFrequency}) as frequency,
          coalesce(ns.digest_day, ${DEFAULTS.digestDay}) as day,
          coalesce(ns.digest_time, ${DEFAULTS.digestTime})::interval as at,
          coalesce(ns.digest_timezone, ${DEFAULTS.digestTimezone}) as tz,
          (select max(d.covered_until) from digest_runs d where d.user_id = u.id) as since
        from candidate c join users u on u.id = c.user_id
        left join notification_settings ns on ns.user_id = u.id
        where u.active and u.banned_at is null
          and coalesce(u.email_preferences -> 'unsubscribedAll', 'false') <> 'true'::jsonb
      ), local as (
        select s.*, ${now}::timestamptz at time zone s.tz as local_now,
          date_trunc('day', ${now}::timestamptz at time zone s.tz) as today,
          array_position(array['monday','tuesday','wednesday','thursday','friday','saturday','sunday'], s.day) as dow
        from settings s where s.frequency in ('daily', 'weekly')
      ), candidate_slot as (
        -- This period's slot in local time: today's (daily) or this week's digestDay's (weekly) digestTime.
        select l.*, case when l.frequency = 'daily' then l.today
            else l.today - make_interval(days => (extract(isodow from l.local_now)::int - l.dow + 7) % 7) end + l.at as slot,
          case when l.frequency = 'daily' then interval '1 day' else interval '7 days' end as period_length
        from local l
      ), reached as (
        -- Not reached yet: the previous period's.
        select c.*, c.slot - case when c.slot > c.local_now then c.period_length else interval '0' end as local_slot
        from candidate_slot c
      ), slot as (
        select r.*, r.local_slot at time zone r.tz as slot_at from reached r
      )
      select s.id as user_id, s.email, s.username, s.frequency,
        to_char(s.local_slot, 'YYYY-MM-DD"T"HH24:MI') || ' ' || s.tz as period, s.since
      from slot s
      where s.slot_at <= ${now}
        and (s.since is null or s.since < s.slot_at)
        and exists (select 1 from notifications n where n.user_id = s.id and not n.read
          and n.created_at <= s.slot_at and (s.since is null or n.created_at > s.since) and ${notificationShown(db, db`s.id`)})
      order by s.slot_at, s.id
      limit ${limit}`
  },

  /** Claims the run; false when another worker (or an earlier tick) already has it. */
  async claim (db: Db, userId: string, period: string, coveredUntil: Date): Promise<boolean> {
    const rows = await db`insert into digest_runs (user_id, period, covered_until, notification_count)
      values (${userId}, ${period}, ${coveredUntil}, 0) on conflict do nothing returning 1`
    return rows.length > 0
  },

  async finish (db: Db, userId: string, period: string, count: number, emailId: string): Promise<void> {
    await db`update digest_runs set notification_count = ${count}, email_id = ${emailId}
      where user_id = ${userId} and period = ${period}`
  },

  /** The newest `limit` unread notifications shown to the user in (since, until] and how many there are in all. */
  async unread (db: Db, userId: string, since: Date | null, until: Date, limit: number): Promise<{ items: DigestNotification[], total: number }> {
    const range = db`n.user_id = ${userId} and not n.read and n.created_at <= ${until}
      and (${since}::timestamptz is null or n.created_at > ${since}::timestamptz)`
    const [items, [{ total }]] = await Promise.all([
      db<DigestNotification[]>`select n.message, n.created_at, n.recipe_id from notifications n
        where ${range} and ${notificationShown(db, userId)} order by n.created_at desc, n.id desc limit ${limit}`,
      db<Array<Counted<'total'>>>`select ${countShown(db, range, userId)} as total`
    ])
    return { items, total }
  }
}

export default fp(async fastify => {
  fastify.decorate('digestsRepository', digestsRepository)
}, { name: 'digests-repository' })
