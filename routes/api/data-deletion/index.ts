// Data deletion requests: create (signed in; through the web proxy for browsers), cancel during the grace period,
// list your own, and the public status page by the request's unguessable id (address masked).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { ErrorRef, pagination, Pagination, PaginationQuery, ref } from '../../../schemas/common.js'
import { DataDeletionBody, DataDeletionRequest, DeletionRequestParams } from '../../../schemas/data-deletion.js'

const Created = (description: string) => Type.Object({
  success: Type.Literal(true),
  requestId: Type.String(),
  request: ref(DataDeletionRequest)
}, { description })

const dataDeletion: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.dataDeletionService
  const graceDays = Math.round(fastify.config.dataDeletionGraceSeconds / 86_400)

  fastify.post('/', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'dataDeletion.request',
      summary: 'Ask for your account or your data to be deleted',
      description: `Carried out by a background job after a grace period (${graceDays} days here) during which ` +
        'POST /api/data-deletion/{requestId}/cancel stops it; a confirmation email says when. `account` deletes the ' +
        'account and everything in it (recipes, comments, likes, ratings, bookmarks, collections, plans, lists, ' +
        'notifications, push subscriptions, uploaded files; families you alone own pass to their longest-standing ' +
        'admin or member) and keeps only this request, with the address masked. `data` deletes the content and keeps ' +
        'the account. With a request already open: 200 with it, nothing new.',
      body: DataDeletionBody,
      response: { 200: Created('Your open request (nothing new was created)'), 201: Created('The request') }
    }
  }, async (request, reply) => {
    const { created, request: deletion } = await service.request(currentUser(request), request.body.deleteType, request.body.reason)
    return await reply.code(created ? 201 : 200).send({ success: true as const, requestId: deletion.id, request: deletion })
  })

  fastify.get('/', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'dataDeletion.list',
      summary: 'Your deletion requests, newest first',
      querystring: PaginationQuery,
      response: { 200: Type.Object({ requests: Type.Array(ref(DataDeletionRequest)), pagination: ref(Pagination) }, { description: 'A page of your requests' }) }
    }
  }, async request => {
    const { page, limit } = request.query
    const { items, total } = await service.list(currentUser(request).id, page, limit)
    return { requests: items, pagination: pagination(page, limit, total) }
  })

  fastify.post('/:requestId/cancel', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'dataDeletion.cancel',
      summary: 'Cancel your pending deletion request',
      description: 'Only while it is pending (409 once it is being carried out or finished). Another user\'s request: 404.',
      params: DeletionRequestParams,
      response: { 200: Type.Object({ request: ref(DataDeletionRequest) }, { description: 'The request, now cancelled' }), 404: ErrorRef, 409: ErrorRef }
    }
  }, async request => ({ request: await service.cancel(currentUser(request).id, request.params.requestId) }))

  fastify.get('/status/:requestId', {
    schema: {
      operationId: 'dataDeletion.status',
      summary: 'Status of a deletion request (public, by its id)',
      description: 'No sign-in: the id is the secret (the confirmation email links here). The address is masked ' +
        '(`j***@example.com`) and the reason is never shown. Unknown id: 404 `Request not found`.',
      params: DeletionRequestParams,
      response: { 200: Type.Object({ request: ref(DataDeletionRequest) }, { description: 'The request' }), 404: ErrorRef }
    }
  }, async request => ({ request: await service.status(request.params.requestId) }))
}

export default dataDeletion
