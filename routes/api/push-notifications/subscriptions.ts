// Web Push subscriptions: the public VAPID key (anyone), then the caller's own browsers: subscribe, unsubscribe, list,
// remove one. Everything but the key needs sign-in.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { described, ErrorRef, Id, Message, pagination, Pagination, PaginationQuery, ref } from '../../../schemas/common.js'
import { PushSubscribeBody, PushSubscription, PushUnsubscribeBody } from '../../../schemas/push.js'

const Subscribed = Type.Object({ subscription: ref(PushSubscription) }, { description: 'The subscription as saved' })

const subscriptionRoutes: FastifyPluginAsyncTypebox = async fastify => {
  const push = fastify.pushService

  fastify.get('/vapid-public-key', {
    schema: {
      operationId: 'pushNotifications.vapidPublicKey',
      summary: 'The key browsers subscribe with',
      description: 'Pass it as `applicationServerKey` to `PushManager.subscribe()`. 503 when push is not configured.',
      response: {
        200: Type.Object({ publicKey: Type.String({ description: 'base64url, an uncompressed P-256 point' }) }, { description: 'The VAPID public key' }),
        503: ErrorRef
      }
    }
  }, async () => ({ publicKey: push.publicKey() }))

  fastify.post('/subscribe', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'pushNotifications.subscribe',
      summary: 'Receive push notifications in this browser',
      description: 'The body is the browser\'s `PushSubscription.toJSON()`. 201 when the subscription is new to you, 200 ' +
        'when you had already subscribed it (its keys are updated). An endpoint another user subscribed becomes yours. ' +
        'You keep at most 20: a new one beyond that replaces your oldest. The endpoint must be a known push service.',
      body: PushSubscribeBody,
      response: { 200: described('Already subscribed: the subscription', Subscribed), 201: Subscribed, 400: ErrorRef, 503: ErrorRef }
    }
  }, async (request, reply) => {
    const { subscription, created } = await push.subscribe(currentUser(request).id, request.body, request.headers['user-agent'])
    return await reply.code(created ? 201 : 200).send({ subscription })
  })

  fastify.delete('/subscribe', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'pushNotifications.unsubscribe',
      summary: 'Stop push notifications to a browser',
      description: 'Removes your subscription with this endpoint (what `PushSubscription.unsubscribe()` ends in the browser).',
      body: PushUnsubscribeBody,
      response: { 200: described('Unsubscribed', Message), 404: ErrorRef }
    }
  }, async request => {
    await push.unsubscribe(currentUser(request).id, request.body.endpoint)
    return { message: 'Push subscription removed' }
  })

  fastify.get('/subscriptions', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'pushNotifications.listSubscriptions',
      summary: 'Your browsers that receive push notifications, newest first',
      description: 'Only the push service\'s origin of each endpoint is shown: the endpoint itself is a secret address.',
      querystring: PaginationQuery,
      response: {
        200: Type.Object({
          subscriptions: Type.Array(ref(PushSubscription)),
          pagination: ref(Pagination)
        }, { description: 'A page of your push subscriptions' })
      }
    }
  }, async request => {
    const { page, limit } = request.query
    const { items, total } = await push.subscriptions(currentUser(request).id, page, limit)
    return { subscriptions: items, pagination: pagination(page, limit, total) }
  })

  fastify.delete('/subscriptions/:subscriptionId', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'pushNotifications.deleteSubscription',
      summary: 'Remove one of your push subscriptions',
      params: Type.Object({ subscriptionId: Id }),
      response: { 200: described('Removed', Message), 404: ErrorRef }
    }
  }, async request => {
    await push.removeSubscription(currentUser(request).id, request.params.subscriptionId)
    return { message: 'Push subscription removed' }
  })
}

export default subscriptionRoutes
