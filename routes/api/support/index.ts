// Support: send a ticket (bug report, question; sign-in optional) and read back the tickets you sent (signed in).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { ErrorRef, pagination, Pagination, PaginationQuery, ref } from '../../../schemas/common.js'
import { SUPPORT_LIMITS, supportAcknowledgement, SupportTicket, SupportTicketBody, SupportTicketParams } from '../../../schemas/support.js'

const support: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.supportService

  fastify.post('/', {
    onRequest: fastify.optionalAuth,
    schema: {
      operationId: 'support.create',
      summary: 'Send a support ticket (bug report, question)',
      description: 'Sign-in is optional: with a valid Bearer token the ticket is kept with your account and answered at ' +
        'its address (`email` is then ignored); without one, `email` is required (400). A token that fails the check is ' +
        `ignored, never a 401. The User-Agent header is stored with the ticket (cut to ${SUPPORT_LIMITS.userAgent} ` +
        `characters). The same ticket (same sender, subject and message) within ${SUPPORT_LIMITS.duplicateMinutes} ` +
        'minutes answers 200 with the first ticket\'s id and stores nothing new, even when sent twice at once. At most ' +
        `${SUPPORT_LIMITS.perHour} tickets an hour per client address (429 with retryAfter), on top of the API's rate limits.`,
      body: SupportTicketBody,
      response: {
        200: supportAcknowledgement('The same ticket was received already: its id'),
        201: supportAcknowledgement('The ticket was received: its id'),
        429: ErrorRef
      }
    }
  }, async (request, reply) => {
    const { created, ticketId } = await service.create(request.user ?? null, request.ip, request.headers['user-agent'], request.body)
    return await reply.code(created ? 201 : 200).send({ success: true as const, ticketId })
  })

  fastify.get('/tickets', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'support.listTickets',
      summary: 'A page of the support tickets you sent while signed in, newest first',
      querystring: PaginationQuery,
      response: { 200: Type.Object({ tickets: Type.Array(ref(SupportTicket)), pagination: ref(Pagination) }, { description: 'A page of your tickets' }) }
    }
  }, async request => {
    const { page, limit } = request.query
    const { items, total } = await service.list(currentUser(request).id, page, limit)
    return { tickets: items, pagination: pagination(page, limit, total) }
  })

  fastify.get('/tickets/:ticketId', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'support.getTicket',
      summary: 'A support ticket you sent',
      description: 'Another user\'s ticket, or one sent without signing in, is 404.',
      params: SupportTicketParams,
      response: { 200: Type.Object({ ticket: ref(SupportTicket) }, { description: 'The ticket' }), 404: ErrorRef }
    }
  }, async request => ({ ticket: await service.get(currentUser(request).id, request.params.ticketId) }))
}

export default support
