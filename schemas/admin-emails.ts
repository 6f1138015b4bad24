// The admin API's view of the email log (email_outbox): list by status, resend failed emails. Never the body.
import { Type, type Static } from 'typebox'
import { EMAIL_STATUSES, emailOutbox } from '../db/schema/mail.js'
import { pick, tableColumns } from './columns.js'
import { Id, Pagination, PaginationQuery, ref, StringEnum } from './common.js'

export const AdminEmailParams = Type.Object({ emailId: Id })

export const AdminEmailQuery = Type.Object({
  ...PaginationQuery.properties,
  status: StringEnum(EMAIL_STATUSES, {
    default: 'failed',
    description: '`failed` (default): given up after its retries or refused for good (5xx); `queued`: waiting for ' +
      'delivery or a retry; `sent`; `recorded`: kept without SMTP, never sent'
  }),
  kind: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: 'The template, e.g. welcome, password-reset, comment, digest' }))
})
export type AdminEmailFilters = Omit<Static<typeof AdminEmailQuery>, 'page' | 'limit'>

export const AdminEmail = Type.Object(pick(tableColumns(emailOutbox),
  ['id', 'to', 'userId', 'kind', 'subject', 'status', 'attempts', 'error', 'lastAttemptAt', 'sentAt', 'createdAt'], {
    to: 'The recipient\'s address',
    userId: 'The recipient\'s account; null for an address without one, or once it is erased',
    kind: 'The template: welcome, password-reset, comment, like, follow, digest, family-invite...',
    status: StringEnum(EMAIL_STATUSES),
    attempts: Type.Integer({ minimum: 0, description: 'Delivery attempts since it was written or last resent' }),
    error: 'The last failed attempt\'s error (the SMTP server\'s answer), at most 500 characters'
  }
), { $id: 'AdminEmail', description: 'An email of the log with its delivery state (never its body or headers)' })
export type AdminEmailView = Static<typeof AdminEmail>

export const AdminEmailList = Type.Object({
  emails: Type.Array(ref(AdminEmail)),
  pagination: ref(Pagination)
}, { description: 'Emails, newest first' })

export const AdminEmailResponse = Type.Object({ email: ref(AdminEmail) })

export const AdminEmailResendAllResponse = Type.Object({
  resent: Type.Integer({ minimum: 0, description: 'Failed emails put back to `queued`, each with a new delivery job' }),
  hasMore: Type.Boolean({ description: 'Failed emails remain beyond this batch: call again' })
}, { description: 'The failed emails queued again' })
