// The email log for admins: emails by status (failed first of all), and resending failed ones.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  AdminEmailList, AdminEmailParams, AdminEmailQuery, AdminEmailResendAllResponse, AdminEmailResponse
} from '../../../../schemas/admin-emails.js'
import { described, ErrorRef } from '../../../../schemas/common.js'

const emails: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.adminEmailsService

  fastify.get('/', {
    schema: {
      operationId: 'admin.emails.list',
      summary: 'Emails of one status (failed by default), newest first',
      description: 'An email is `failed` once the SMTP server refused it for good (a 5xx answer) or its delivery ' +
        'retries ran out (hours of backoff); `error` holds the last answer. Filter by `status` and `kind`. Bodies and ' +
        'headers are never shown. The total is counted up to 10,000 (`totalExact: false` beyond).',
      querystring: AdminEmailQuery,
      response: { 200: AdminEmailList }
    }
  }, async request => {
    const { page, limit, ...filters } = request.query
    return await service.list(filters, page, limit)
  })

  fastify.post('/resend', {
    schema: {
      operationId: 'admin.emails.resendAll',
      summary: 'Resend failed emails',
      description: 'Puts up to 500 failed emails, oldest first, back to `queued` with their attempts at 0 and queues ' +
        'their delivery, in one transaction. `hasMore` says failed emails remain: call again. Emails a concurrent ' +
        'resend holds are left to it. 503 when SMTP is not configured.',
      response: { 200: AdminEmailResendAllResponse }
    }
  }, async () => await service.resendAll())

  fastify.post('/:emailId/resend', {
    schema: {
      operationId: 'admin.emails.resend',
      summary: 'Resend a failed email',
      description: 'Puts the email back to `queued` with its attempts at 0 and queues its delivery (however long ago ' +
        'its first delivery ended). Only a `failed` email can be resent (409 otherwise, also for the loser of two ' +
        'concurrent resends: the email is sent once). 503 when SMTP is not configured.',
      params: AdminEmailParams,
      response: { 200: described('The email, queued again', AdminEmailResponse), 404: ErrorRef, 409: ErrorRef }
    }
  }, async request => ({ email: await service.resend(request.params.emailId) }))
}

export default emails
