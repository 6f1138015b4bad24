import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core'
import { createdAt, id, timestamptz } from './columns.js'
import { users } from './users.js'

/** `recorded`: no SMTP configured (kept, never sent); `queued`: a delivery job holds it; then `sent` or `failed`. */
export const EMAIL_STATUSES = ['recorded', 'queued', 'sent', 'failed'] as const

/**
 * The email log: every message the service produces, whatever happens to it. Delivered by the `email.send` job;
 * `attempts`, `error` and `providerId` (the SMTP server's message id) record how that went.
 */
export const emailOutbox = pgTable('email_outbox', {
  id: id(),
  userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
  to: text('to').notNull(),
  /** The template: welcome, password-reset, comment, like, follow, digest, family-invite, data-deletion... */
  kind: text('kind').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html'),
  headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
  status: text('status').$type<typeof EMAIL_STATUSES[number]>().notNull().default('recorded'),
  error: text('error'),
  attempts: integer('attempts').notNull().default(0),
  providerId: text('provider_id'),
  createdAt: createdAt(),
  lastAttemptAt: timestamptz('last_attempt_at'),
  sentAt: timestamptz('sent_at')
}, t => [
  index('email_outbox_user_idx').on(t.userId, t.createdAt),
  index('email_outbox_status_idx').on(t.status, t.createdAt),
  // Data deletion finds the emails sent to a deleted address.
  index('email_outbox_to_idx').on(t.to)
])
