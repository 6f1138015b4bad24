// Admins and the email log: the failed emails stay listed, and a resend puts one (or a batch) back to `queued` with a
// new `email.send` job in the same transaction. The job is new, so a resend works however long ago the email's first
// job ended and was archived. The failed -> queued UPDATE is the claim: of concurrent resends of an email only the one
// that changed the row queues a job (the others answer 409), so the email is sent once.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { EmailDeliveryOff, EmailNotFailed, EmailNotFound } from '../../../lib/errors.js'
import type { AdminEmailFilters, AdminEmailView } from '../../../schemas/admin-emails.js'
import { pagination } from '../../../schemas/common.js'

declare module 'fastify' {
  interface FastifyInstance {
    adminEmailsService: ReturnType<typeof createAdminEmailsService>
  }
}

/** The admin email list counts matching emails up to this (`totalExact: false` beyond). */
export const ADMIN_EMAIL_COUNT_CAP = 10_000
/** Failed emails one resend-all request queues again: one bounded statement and as many jobs per transaction. */
export const RESEND_ALL_BATCH = 500

export function createAdminEmailsService (fastify: FastifyInstance) {
  const repo = fastify.adminEmailsRepository
  const { mailer } = fastify

  function requireDelivery (): void {
    if (!mailer.delivers) throw new EmailDeliveryOff()
  }

  return {
    async list (filters: AdminEmailFilters, page: number, limit: number) {
      const { items, total, hasNext } = await repo.list(fastify.db, filters, page, limit, ADMIN_EMAIL_COUNT_CAP)
      return { emails: items, pagination: pagination(page, limit, total, { hasNext, totalExact: total < ADMIN_EMAIL_COUNT_CAP }) }
    },

    /** failed -> queued plus a new delivery job; 404 for an unknown email, 409 for one that is not failed. */
    async resend (emailId: string): Promise<AdminEmailView> {
      requireDelivery()
      return await fastify.transaction(async tx => {
        const email = await repo.requeue(tx, emailId)
        if (email == null) throw (await repo.status(tx, emailId)) == null ? new EmailNotFound() : new EmailNotFailed()
        await mailer.enqueue([email.id], tx)
        return email
      })
    },

    /** Up to RESEND_ALL_BATCH failed emails, oldest first, back to queued with their jobs, in one transaction. */
    async resendAll (): Promise<{ resent: number, hasMore: boolean }> {
      requireDelivery()
      return await fastify.transaction(async tx => {
        const ids = await repo.requeueFailed(tx, RESEND_ALL_BATCH)
        await mailer.enqueue(ids, tx)
        return { resent: ids.length, hasMore: ids.length === RESEND_ALL_BATCH && await repo.anyFailed(tx) }
      })
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('adminEmailsService', createAdminEmailsService(fastify))
}, { name: 'admin-emails-service', dependencies: ['admin-emails-repository', 'mailer', 'db'] })
