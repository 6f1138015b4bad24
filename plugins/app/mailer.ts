// Every email goes into the outbox table. Without SMTP it stays `recorded` (decisions.md: recorded, not sent).
import { createId } from '@paralleldrive/cuid2'
import fp from 'fastify-plugin'
import type { emailOutbox } from '../../db/schema/index.js'
import { json, type Db } from '../external/db.js'

export interface OutgoingEmail {
  to: string
  userId?: string | null
  kind: string
  subject: string
  text: string
  html?: string
  headers?: Record<string, string>
}

export interface Mailer {
  /** Records the email in the outbox; with `db` (a transaction) it exists only if that commits. */
  send: (email: OutgoingEmail, db?: Db) => Promise<{ id: string }>
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer
  }
}

type OutboxRow = typeof emailOutbox.$inferSelect

export default fp(async fastify => {
  fastify.decorate('mailer', {
    async send (email: OutgoingEmail, db: Db = fastify.db) {
      const row: Omit<OutboxRow, 'createdAt' | 'sentAt' | 'error' | 'attempts' | 'providerId' | 'lastAttemptAt'> = {
        id: createId(),
        to: email.to,
        userId: email.userId ?? null,
        kind: email.kind,
        subject: email.subject,
        text: email.text,
        html: email.html ?? null,
        headers: email.headers ?? {},
        status: 'recorded'
      }
      await db`insert into email_outbox ${db({ ...row, headers: json(db, row.headers) })}`
      fastify.log.info({ emailId: row.id, kind: email.kind }, 'email recorded')
      return { id: row.id }
    }
  })
}, { name: 'mailer', dependencies: ['db'] })
