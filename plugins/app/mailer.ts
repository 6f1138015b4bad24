// Every email goes into the outbox table. Without SMTP it stays `recorded` (decisions.md: recorded, not sent).
import fp from 'fastify-plugin'
import { emailOutbox } from '../../db/schema/index.js'

export interface OutgoingEmail {
  to: string
  userId?: string | null
  kind: string
  subject: string
  text: string
  html?: string
  headers?: Record<string, string>
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: { send: (email: OutgoingEmail) => Promise<{ id: string }> }
  }
}

export default fp(async fastify => {
  fastify.decorate('mailer', {
    async send (email: OutgoingEmail) {
      const [row] = await fastify.db.insert(emailOutbox).values({
        to: email.to,
        userId: email.userId ?? null,
        kind: email.kind,
        subject: email.subject,
        text: email.text,
        html: email.html,
        headers: email.headers ?? {},
        status: 'recorded'
      }).returning({ id: emailOutbox.id })
      fastify.log.info({ emailId: row.id, kind: email.kind }, 'email recorded')
      return row
    }
  })
}, { name: 'mailer', dependencies: ['db'] })
