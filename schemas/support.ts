// Support tickets (bug reports, questions): the form anyone may send and the tickets a signed-in sender reads back.
import { Type, type Static } from 'typebox'
import { SUPPORT_CATEGORIES } from '../db/schema/compliance.js'
import { DateTime, Id, Nullable, StringEnum } from './common.js'

/** The values of support_tickets.status (db/schema/compliance.ts). */
export const SUPPORT_STATUSES = ['open', 'pending', 'resolved', 'closed'] as const

export const SUPPORT_LIMITS = {
  subject: 200,
  message: 10_000,
  email: 254,
  name: 200,
  pageUrl: 2048,
  /** The User-Agent header is stored cut to this many characters. */
  userAgent: 500,
  /** Tickets one client address may send an hour. */
  perHour: 10,
  /** The same ticket again (sender, subject and message) within this many minutes answers the first one. */
  duplicateMinutes: 10
} as const

export const SupportTicket = Type.Object({
  id: Id,
  email: Nullable(Type.String(), { description: 'The address we answer: the account\'s for signed-in senders' }),
  name: Nullable(Type.String()),
  category: StringEnum(SUPPORT_CATEGORIES),
  subject: Type.String(),
  message: Type.String(),
  pageUrl: Nullable(Type.String(), { description: 'The page the sender was on, as given' }),
  status: StringEnum(SUPPORT_STATUSES, { description: 'open -> pending (waiting for you) -> resolved / closed' }),
  createdAt: DateTime
}, { $id: 'SupportTicket', description: 'A support ticket you sent' })
export type SupportTicketView = Static<typeof SupportTicket>

export const SupportTicketBody = Type.Object({
  subject: Type.String({ minLength: 1, maxLength: SUPPORT_LIMITS.subject, description: `Trimmed; not blank; at most ${SUPPORT_LIMITS.subject} characters` }),
  message: Type.String({ minLength: 1, maxLength: SUPPORT_LIMITS.message, description: `Trimmed; not blank; at most ${SUPPORT_LIMITS.message} characters` }),
  email: Type.Optional(Type.String({
    format: 'email',
    maxLength: SUPPORT_LIMITS.email,
    description: `Required when not signed in (at most ${SUPPORT_LIMITS.email} characters); ignored when signed in (the account's address is used)`
  })),
  name: Type.Optional(Type.String({ maxLength: SUPPORT_LIMITS.name, description: `At most ${SUPPORT_LIMITS.name} characters` })),
  category: Type.Optional(StringEnum(SUPPORT_CATEGORIES, { default: 'other' })),
  pageUrl: Type.Optional(Type.String({
    maxLength: SUPPORT_LIMITS.pageUrl,
    pattern: '^https?://[^\\s]+$',
    description: `The page the problem is on: an http(s) URL of at most ${SUPPORT_LIMITS.pageUrl} characters`
  }))
})
export type SupportTicketInput = Static<typeof SupportTicketBody>

export const SupportTicketParams = Type.Object({ ticketId: Id })

/** `{ success: true, ticketId }`, described for one route's status. */
export const supportAcknowledgement = (description: string) => Type.Object({
  success: Type.Literal(true),
  ticketId: Id
}, { description })
