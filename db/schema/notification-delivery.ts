import { boolean, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { createdAt, id, timestamptz } from './columns.js'
import { NOTIFICATION_TYPES } from './social.js'
import { users } from './users.js'

/** A browser's Web Push subscription. The endpoint is the push service's address for that browser: unique. */
export const pushSubscriptions = pgTable('push_subscriptions', {
  id: id(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  endpoint: text('endpoint').notNull().unique(),
  p256dh: text('p256dh').notNull(),
  auth: text('auth').notNull(),
  userAgent: text('user_agent'),
  createdAt: createdAt(),
  lastSuccessAt: timestamptz('last_success_at'),
  /** Consecutive failed deliveries other than 404/410 (those delete the row at once). */
  failures: integer('failures').notNull().default(0)
}, t => [index('push_subscriptions_user_idx').on(t.userId)])

/** Push switch per notification type; a type without a row is on. */
export const notificationPreferences = pgTable('notification_preferences', {
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  type: text('type').$type<typeof NOTIFICATION_TYPES[number]>().notNull(),
  push: boolean('push').notNull()
}, t => [primaryKey({ columns: [t.userId, t.type] })])

/**
 * One row per user and digest slot (`period`: the slot's local date and time plus the zone, e.g.
 * `2026-03-29T09:00 Europe/Paris`). Inserting it is the claim to send that digest, so several instances or a restart
 * never send one twice; `coveredUntil` is where the next digest's notifications start.
 */
export const digestRuns = pgTable('digest_runs', {
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  period: text('period').notNull(),
  coveredUntil: timestamptz('covered_until').notNull(),
  notificationCount: integer('notification_count').notNull(),
  emailId: text('email_id'),
  createdAt: createdAt()
}, t => [
  primaryKey({ columns: [t.userId, t.period] }),
  index('digest_runs_user_covered_idx').on(t.userId, t.coveredUntil)
])
