// The email log (email_outbox) as the admin API sees it: pages by status, and the failed -> queued transition of a
// resend. Every transition is one conditional UPDATE, so of two concurrent resends of an email only one changes it.
import fp from 'fastify-plugin'
import type { EMAIL_STATUSES, emailOutbox } from '../../../db/schema/index.js'
import type { AdminEmailFilters, AdminEmailView } from '../../../schemas/admin-emails.js'
import type { Db } from '../../external/db.js'
import type { Page } from './recipe-queries.js'
import { countUpTo, type Flagged } from './sql.js'

declare module 'fastify' {
  interface FastifyInstance {
    adminEmailsRepository: typeof adminEmailsRepository
  }
}

type EmailRow = Pick<typeof emailOutbox.$inferSelect,
  'id' | 'to' | 'userId' | 'kind' | 'subject' | 'status' | 'attempts' | 'error' | 'lastAttemptAt' | 'sentAt' | 'createdAt'>

/** The columns admins see: never text, html or headers. */
const columns = (db: Db) => db`id, "to", user_id, kind, subject, status, attempts, error, last_attempt_at, sent_at, created_at`

const iso = (date: Date | null) => date?.toISOString() ?? null

function view (row: EmailRow): AdminEmailView {
  return {
    id: row.id,
    to: row.to,
    userId: row.userId,
    kind: row.kind,
    subject: row.subject,
    status: row.status,
    attempts: row.attempts,
    error: row.error,
    lastAttemptAt: iso(row.lastAttemptAt),
    sentAt: iso(row.sentAt),
    createdAt: row.createdAt.toISOString()
  }
}

export const adminEmailsRepository = {
  /**
   * A page of emails of one status, newest first (index email_outbox_status_idx); `total` is counted up to
   * `countCap`, `hasNext` from one row past the page.
   */
  async list (db: Db, filters: AdminEmailFilters, page: number, limit: number, countCap: number): Promise<Page<AdminEmailView> & { hasNext: boolean }> {
    const where = db`status = ${filters.status} ${filters.kind != null ? db`and kind = ${filters.kind}` : db``}`
    const [rows, total] = await Promise.all([
      db<EmailRow[]>`select ${columns(db)} from email_outbox where ${where}
        order by created_at desc, id desc limit ${limit + 1} offset ${(page - 1) * limit}`,
      countUpTo(db, db`email_outbox`, where, countCap)
    ])
    return { items: rows.slice(0, limit).map(view), total, hasNext: rows.length > limit }
  },

  /** The email's status; null when there is no such email. */
  async status (db: Db, id: string): Promise<typeof EMAIL_STATUSES[number] | null> {
    const [row] = await db<Array<Pick<EmailRow, 'status'>>>`select status from email_outbox where id = ${id}`
    return row?.status ?? null
  },

  /**
   * failed -> queued with its attempts counted from 0 again (the last error and attempt time stay until the next
   * attempt); null when the email is not `failed` (or unknown), so only one of concurrent resends gets the row.
   */
  async requeue (db: Db, id: string): Promise<AdminEmailView | null> {
    const [row] = await db<EmailRow[]>`update email_outbox set status = 'queued', attempts = 0
      where id = ${id} and status = 'failed' returning ${columns(db)}`
    return row == null ? null : view(row)
  },

  /**
   * The same for up to `max` failed emails, oldest first, in one statement; rows a concurrent resend holds are
   * skipped. Answers the ids it changed. The pick is a materialized CTE, evaluated once: as an `in (subquery)` the
   * planner may run it again for every row of a nested loop, and each run of `limit ... for update skip locked`
   * picks other rows, so the limit would not bound the statement.
   */
  async requeueFailed (db: Db, max: number): Promise<string[]> {
    const rows = await db<Array<Pick<EmailRow, 'id'>>>`
      with picked as materialized (
        select id from email_outbox where status = 'failed' order by created_at, id limit ${max} for update skip locked
      )
      update email_outbox e set status = 'queued', attempts = 0 from picked
      where e.id = picked.id and e.status = 'failed'
      returning e.id`
    return rows.map(row => row.id)
  },

  async anyFailed (db: Db): Promise<boolean> {
    const [row] = await db<Array<Flagged<'found'>>>`select exists (select 1 from email_outbox where status = 'failed') as found`
    return row.found
  }
}

export default fp(async fastify => {
  fastify.decorate('adminEmailsRepository', adminEmailsRepository)
}, { name: 'admin-emails-repository' })
