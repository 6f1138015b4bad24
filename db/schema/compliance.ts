import { sql } from 'drizzle-orm'
import { boolean, check, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { createdAt, id, timestamptz, updatedAt } from './columns.js'
import { users } from './users.js'

export const DELETE_TYPES = ['account', 'data'] as const
export const DELETION_STATUSES = ['pending', 'processing', 'completed', 'cancelled', 'failed'] as const

/**
 * A request to delete an account (`account`) or its content (`data`). Carried out by the `data-deletion.run` job after
 * the grace period; what stays of a deleted account is this row, with the email masked and no user reference.
 */
export const dataDeletionRequests = pgTable('data_deletion_requests', {
  id: id(),
  userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
  /** The account's address while the request is open; masked (`j***@example.com`) once it is carried out. */
  email: text('email').notNull(),
  deleteType: text('delete_type').$type<typeof DELETE_TYPES[number]>().notNull(),
  reason: text('reason'),
  status: text('status').$type<typeof DELETION_STATUSES[number]>().notNull().default('pending'),
  scheduledFor: timestamptz('scheduled_for').notNull(),
  error: text('error'),
  createdAt: createdAt(),
  startedAt: timestamptz('started_at'),
  completedAt: timestamptz('completed_at'),
  cancelledAt: timestamptz('cancelled_at')
}, t => [
  // One open request per user: asking again answers the open one.
  uniqueIndex('data_deletion_requests_open_idx').on(t.userId).where(sql`${t.status} in ('pending', 'processing')`),
  index('data_deletion_requests_user_idx').on(t.userId, t.createdAt),
  check('data_deletion_requests_type_check', sql`${t.deleteType} in ('account', 'data')`),
  check('data_deletion_requests_status_check', sql`${t.status} in ('pending', 'processing', 'completed', 'cancelled', 'failed')`)
])

export const CCPA_REQUEST_TYPES = ['do-not-sell', 'know', 'access', 'delete', 'correct', 'opt-out', 'other'] as const

/** A CCPA request, from a signed-in user (kept with them) or anyone with an address. */
export const ccpaRequests = pgTable('ccpa_requests', {
  id: id(),
  userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
  email: text('email').notNull(),
  name: text('name'),
  requestType: text('request_type').$type<typeof CCPA_REQUEST_TYPES[number]>().notNull(),
  details: text('details'),
  status: text('status').$type<'received' | 'in_progress' | 'completed' | 'rejected'>().notNull().default('received'),
  createdAt: createdAt()
}, t => [
  index('ccpa_requests_user_idx').on(t.userId, t.createdAt),
  index('ccpa_requests_created_idx').on(t.createdAt),
  // Data deletion finds the requests sent with a deleted user's address.
  index('ccpa_requests_email_idx').on(t.email)
])

export const SUPPORT_CATEGORIES = ['bug', 'account', 'billing', 'feature', 'content', 'other'] as const

/** A support ticket (bug report, question); signed-in senders are kept with it. */
export const supportTickets = pgTable('support_tickets', {
  id: id(),
  userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
  email: text('email'),
  name: text('name'),
  category: text('category').$type<typeof SUPPORT_CATEGORIES[number]>().notNull().default('other'),
  subject: text('subject').notNull(),
  message: text('message').notNull(),
  /** Where the sender was (page URL) and what they used (user agent), as given. */
  pageUrl: text('page_url'),
  userAgent: text('user_agent'),
  status: text('status').$type<'open' | 'pending' | 'resolved' | 'closed'>().notNull().default('open'),
  createdAt: createdAt()
}, t => [
  index('support_tickets_user_idx').on(t.userId, t.createdAt),
  index('support_tickets_status_idx').on(t.status, t.createdAt),
  // Data deletion finds the tickets sent with a deleted user's address (anonymous ones too).
  index('support_tickets_email_idx').on(t.email)
])

/** The user's privacy choices (GDPR consent). No row: nothing consented beyond what the service needs. */
export const consents = pgTable('consents', {
  userId: text('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  analytics: boolean('analytics').notNull().default(false),
  marketing: boolean('marketing').notNull().default(false),
  personalization: boolean('personalization').notNull().default(false),
  /** The privacy policy version the choices were made under. */
  policyVersion: text('policy_version'),
  updatedAt: updatedAt()
})
