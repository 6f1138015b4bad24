import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core'
import { createdAt, id, timestamptz } from './columns.js'
import { users } from './users.js'

export const EMAIL_STATUSES = ['recorded', 'queued', 'sent', 'failed'] as const

/** Every email the service produces. Without SMTP it stops at `recorded`: nothing is lost, nothing is sent. */
export const emailOutbox = pgTable('email_outbox', {
  id: id(),
  userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
  to: text('to').notNull(),
  kind: text('kind').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html'),
  headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
  status: text('status').$type<typeof EMAIL_STATUSES[number]>().notNull().default('recorded'),
  error: text('error'),
  createdAt: createdAt(),
  sentAt: timestamptz('sent_at')
}, t => [
  index('email_outbox_user_idx').on(t.userId, t.createdAt),
  index('email_outbox_status_idx').on(t.status, t.createdAt)
])
