// In-app notifications: list (with unread count), mark read (PUT or PATCH), mark all read, delete.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser, sessionValue } from '../../../plugins/app/auth.js'
import { ErrorRef, Id, pagination, Pagination, PaginationQuery, ref } from '../../../schemas/common.js'
import { Notification } from '../../../schemas/notifications.js'

const Params = Type.Object({ notificationId: Id })
const MarkedAll = Type.Object({ success: Type.Literal(true), updated: Type.Integer({ description: 'How many were unread' }) }, { description: 'All read' })
const MarkedOne = Type.Object({ notification: ref(Notification) }, { description: 'The notification, now read' })
/** What every route here says of notifications about a recipe the caller can no longer see. */
const HIDDEN = 'A notification about a recipe you may no longer see (made private, or otherwise hidden from you; a ' +
  'deleted recipe takes its notifications with it) is hidden: left out of the list, the total and the unread count, not ' +
  'found by mark-read or delete, not emailed or pushed if not sent yet, and left out of digests. It comes back, as ' +
  'it was, when the recipe is shown to you again. Notifications about your own recipes are always shown.'

const notificationRoutes: FastifyPluginAsyncTypebox = async fastify => {
  const notifications = fastify.notificationService

  fastify.get('/', {
    schema: {
      operationId: 'notifications.list',
      summary: 'Your notifications, newest first',
      description: HIDDEN,
      querystring: Type.Object({ ...PaginationQuery.properties, unreadOnly: Type.Boolean({ default: false }) }),
      response: {
        200: Type.Object({
          notifications: Type.Array(ref(Notification)),
          unreadCount: Type.Integer(),
          pagination: ref(Pagination)
        }, { description: 'A page of notifications and how many are unread in all' })
      }
    }
  }, async request => {
    const { page, limit, unreadOnly } = request.query
    const { items, total, unreadCount } = await notifications.list(currentUser(request).id, unreadOnly, page, limit)
    return { notifications: items, unreadCount, pagination: pagination(page, limit, total) }
  })

  fastify.get('/unread-count', {
    // Polled by every client: the session check reads the count too, one statement.
    config: { sessionRead: notifications.unreadCountSession },
    schema: {
      operationId: 'notifications.unreadCount',
      summary: 'How many notifications are unread',
      description: HIDDEN,
      response: { 200: Type.Object({ unreadCount: Type.Integer() }, { description: 'The unread count' }) }
    }
  }, async request => ({ unreadCount: sessionValue<number>(request) }))

  // PUT is the documented verb; PATCH does the same for clients that use it (decisions.md), under its own operationId.
  for (const method of ['PUT', 'PATCH'] as const) {
    const alias = method === 'PATCH' ? { suffix: 'Patch', description: 'Same as the PUT operation.' } : { suffix: '' }
    fastify.route({
      method,
      url: '/read-all',
      schema: {
        operationId: `notifications.markAllRead${alias.suffix}`,
        summary: 'Mark all your notifications read',
        description: alias.description ?? HIDDEN,
        response: { 200: MarkedAll }
      },
      handler: async request => ({ success: true as const, updated: await notifications.markAllRead(currentUser(request).id) })
    })
    fastify.route({
      method,
      url: '/:notificationId/read',
      schema: {
        operationId: `notifications.markRead${alias.suffix}`,
        summary: 'Mark one notification read',
        description: alias.description ?? HIDDEN,
        params: Params,
        response: { 200: MarkedOne, 404: ErrorRef }
      },
      handler: async request => {
        const { notificationId } = request.params as { notificationId: string }
        return { notification: await notifications.markRead(currentUser(request).id, notificationId) }
      }
    })
  }

  fastify.delete('/:notificationId', {
    schema: {
      operationId: 'notifications.delete',
      summary: 'Delete a notification',
      description: HIDDEN,
      params: Params,
      response: { 200: Type.Object({ success: Type.Literal(true), message: Type.String() }, { description: 'Deleted' }), 404: ErrorRef }
    }
  }, async request => {
    await notifications.remove(currentUser(request).id, request.params.notificationId)
    return { success: true as const, message: 'Notification deleted' }
  })
}

export default notificationRoutes
