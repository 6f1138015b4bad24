// Support tickets. Anyone may send one: signed in, the ticket is kept with the account and its current address;
// otherwise an address is required. The same ticket again (sender, subject, message) within
// SUPPORT_LIMITS.duplicateMinutes answers the first one, exactly under concurrency (the sender's advisory lock); one
// client address may send SUPPORT_LIMITS.perHour tickets an hour. Senders read back their own tickets only.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { SupportTicketNotFound, validationError } from '../../../lib/errors.js'
import { normalizeEmail } from '../../../lib/identity.js'
import { optionalText } from '../../../lib/text.js'
import { SUPPORT_LIMITS, type SupportTicketInput, type SupportTicketView } from '../../../schemas/support.js'
import type { AuthUser } from '../auth.js'
import type { Page } from '../repositories/recipes.js'

declare module 'fastify' {
  interface FastifyInstance {
    supportService: ReturnType<typeof createSupportService>
  }
}

function required (field: string, text: string): string {
  const trimmed = text.trim()
  if (trimmed === '') throw validationError([`${field}: must not be blank`])
  return trimmed
}

export function createSupportService (fastify: FastifyInstance) {
  const { supportRepository: support } = fastify

  return {
    /** Stores the ticket (`created`), or answers the sender's same recent ticket (`created` false). */
    async create (caller: AuthUser | null, clientIp: string, userAgent: string | undefined, input: SupportTicketInput):
    Promise<{ created: boolean, ticketId: string }> {
      const subject = required('subject', input.subject)
      const message = required('message', input.message)
      if (caller == null && input.email == null) throw validationError(['email: is required when not signed in'])
      await fastify.rateLimits.perClient('support', clientIp, SUPPORT_LIMITS.perHour, 60 * 60)
      const email = caller?.email ?? normalizeEmail(input.email!)
      const sender = caller == null ? { email } : { userId: caller.id }
      return await fastify.transaction(async tx => {
        await support.lockKey(tx, `support:${caller == null ? `email:${email}` : `user:${caller.id}`}`)
        const existing = await support.recentDuplicate(tx, sender, { subject, message }, SUPPORT_LIMITS.duplicateMinutes)
        if (existing != null) return { created: false, ticketId: existing }
        const ticketId = await support.insert(tx, {
          userId: caller?.id ?? null,
          email,
          name: optionalText(input.name),
          category: input.category ?? 'other',
          subject,
          message,
          pageUrl: input.pageUrl ?? null,
          // Cut by code points, so a cut never leaves half a surrogate pair.
          userAgent: optionalText(userAgent == null ? undefined : Array.from(userAgent).slice(0, SUPPORT_LIMITS.userAgent).join(''))
        })
        return { created: true, ticketId }
      })
    },

    async list (userId: string, page: number, limit: number): Promise<Page<SupportTicketView>> {
      return await support.listFor(fastify.db, userId, page, limit)
    },

    /** The caller's ticket; another user's (or an unknown id) is 404. */
    async get (userId: string, ticketId: string): Promise<SupportTicketView> {
      const ticket = await support.findFor(fastify.db, userId, ticketId)
      if (ticket == null) throw new SupportTicketNotFound()
      return ticket
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('supportService', createSupportService(fastify))
}, { name: 'support-service', dependencies: ['support-repository', 'rate-limit', 'db'] })
