// Every email goes through the outbox table, which is also the email log. With SMTP configured a row is `queued` and
// the `email.send` job delivers it (retried with backoff, then `failed`); without SMTP it stays `recorded`
// (decisions.md: recorded, not sent). The row and its job are written in the caller's transaction, so a rolled-back
// action sends nothing and a committed one always has its email. A `failed` row stays in the log; admins put it back
// to `queued` and `enqueue` gives it a new job (services/admin-emails.ts), whatever became of its first one.
import { createId } from '@paralleldrive/cuid2'
import fp from 'fastify-plugin'
import type { Transporter } from 'nodemailer'
import type { emailOutbox } from '../../db/schema/index.js'
import { json, type Db } from '../external/db.js'

export interface OutgoingEmail {
  /** A stable id makes sending idempotent: a retried job that sends the same id again adds nothing. */
  id?: string
  to: string
  userId?: string | null
  kind: string
  subject: string
  text: string
  html?: string
  headers?: Record<string, string>
}

export interface Mailer {
  /** Records the email and (with SMTP) queues its delivery; with `db` (a transaction) both exist only if it commits. */
  send: (email: OutgoingEmail, db?: Db) => Promise<{ id: string, created: boolean }>
  /** Whether emails are delivered (SMTP configured); false: they are only recorded. */
  delivers: boolean
  /**
   * Queues a new delivery job for each of these rows, which the caller has just set to `queued` (a resend): with `db`
   * (a transaction) the jobs exist only if it commits. The job sends only while its row is `queued`, so a job left
   * over from an earlier attempt, or a second job, finds nothing to do once the row is `sent` or `failed`.
   */
  enqueue: (ids: string[], db?: Db) => Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer
  }
}

export const SEND_EMAIL_JOB = 'email.send'
/**
 * Attempts after the first. pg-boss 10 waits `retryDelay * 2^min(16, n + 1) / 2 * (1 + random)` after failed attempt n
 * (n = 0, 1, ...): the 10 waits add up to retryDelay * (2^10 - 1) * (1 to 2). With JOB_RETRY_DELAY_SECONDS=15 that is
 * 15 s * 1023 = 4.3 h at least, 6.4 h expected, 8.5 h at most (the last wait alone 2.1 to 4.3 h): a mail server may
 * be away for hours before a message is given up as `failed`, and admins can still resend it after that.
 */
const RETRY_LIMIT = 10
const ERROR_LENGTH = 500

type OutboxRow = typeof emailOutbox.$inferSelect
type Delivery = Pick<OutboxRow, 'id' | 'to' | 'subject' | 'text' | 'html' | 'headers'>

/** The `Message-ID` of an outbox row: receivers can drop the copy a retry sends after a lost acknowledgement. */
function messageId (id: string, from: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'localhost'
  return `<${id}@${domain}>`
}

export default fp(async fastify => {
  const { smtpUrl, from } = fastify.config.mail
  let transport: Transporter | null = null
  if (smtpUrl != null) {
    // Loaded only when mail is sent: without SMTP_URL emails are recorded, and nodemailer's ~20 MB stay out.
    const { default: nodemailer } = await import('nodemailer')
    transport = nodemailer.createTransport({
      url: smtpUrl,
      pool: true,
      maxConnections: 2,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000
    })
    fastify.addHook('onClose', async () => { transport?.close() })
  }

  fastify.decorate('mailer', {
    async send (email: OutgoingEmail, db: Db = fastify.db) {
      const row: Omit<OutboxRow, 'createdAt' | 'sentAt' | 'error' | 'providerId' | 'lastAttemptAt'> = {
        id: email.id ?? createId(),
        to: email.to,
        userId: email.userId ?? null,
        kind: email.kind,
        subject: email.subject,
        text: email.text,
        html: email.html ?? null,
        headers: email.headers ?? {},
        status: transport == null ? 'recorded' : 'queued',
        attempts: 0
      }
      const inserted = await db`insert into email_outbox ${db({ ...row, headers: json(db, row.headers) })}
        on conflict (id) do nothing returning id`
      if (inserted.length === 0) return { id: row.id, created: false }
      if (transport != null) await fastify.queue.send(SEND_EMAIL_JOB, { id: row.id }, db, { retryLimit: RETRY_LIMIT })
      fastify.log.info({ emailId: row.id, kind: email.kind, status: row.status }, 'email recorded')
      return { id: row.id, created: true }
    },
    delivers: transport != null,
    async enqueue (ids: string[], db: Db = fastify.db) {
      if (transport == null) throw new Error('mailer.enqueue: no SMTP configured, emails are only recorded')
      await fastify.queue.sendMany(SEND_EMAIL_JOB, ids.map(id => ({ id })), db, { retryLimit: RETRY_LIMIT })
    }
  } satisfies Mailer)

  if (transport == null) return
  const smtp = transport
  await fastify.queue.work<{ id: string }>(SEND_EMAIL_JOB, async ({ id }, job) => {
    const [email] = await fastify.db<Delivery[]>`select id, "to", subject, text, html, headers from email_outbox
      where id = ${id} and status = 'queued'`
    if (email == null) return // sent by an earlier attempt, or removed with its account
    try {
      const info = await smtp.sendMail({
        from,
        to: email.to,
        subject: email.subject,
        text: email.text,
        html: email.html ?? undefined,
        headers: email.headers,
        messageId: messageId(email.id, from)
      }) as { messageId?: string }
      await fastify.db`update email_outbox set status = 'sent', provider_id = ${info.messageId ?? null}, error = null,
        attempts = attempts + 1, last_attempt_at = now(), sent_at = now() where id = ${id}`
    } catch (err) {
      const message = (err instanceof Error ? err.message : String(err)).slice(0, ERROR_LENGTH)
      // A 5xx answer is the server's final word (unknown mailbox, refused content): trying again changes nothing.
      const code = (err as { responseCode?: number }).responseCode
      const giveUp = job.final || (code != null && code >= 500 && code < 600)
      await fastify.db`update email_outbox set status = ${giveUp ? 'failed' : 'queued'}, error = ${message},
        attempts = attempts + 1, last_attempt_at = now() where id = ${id}`
      fastify.log.warn({ emailId: id, attempt: job.retryCount + 1, giveUp, err }, 'email delivery failed')
      if (!giveUp) throw err
    }
  })
}, { name: 'mailer', dependencies: ['db', 'queue'] })
