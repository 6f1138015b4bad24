// In-app notifications: list (with unread count), mark read (PUT or PATCH), mark all read, delete.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { ErrorRef, Id, pagination, Pagination, PaginationQuery, ref } from '../../../schemas/common.js'
import { Notification } from '../../../schemas/notifications.js'

const Params = Type.Object({ id: Id })

const notificationRoutes: FastifyPluginAsyncTypebox = async fastify => {
  const notifications = fastify.notificationService

  fastify.get('/', {
    schema: {
      summary: 'Your notifications, newest first',
      querystring: Type.Object({ ...PaginationQuery.properties, unreadOnly: Type.Boolean({ default: false }) }),
      response: { 200: Type.Object({ notifications: Type.Array(ref(Notification)), unreadCount: Type.Integer(), pagination: ref(Pagination) }) }
    }
  }, async request => {
    const { page, limit, unreadOnly } = request.query
    const { items, total, unreadCount } = await notifications.list(currentUser(request).id, unreadOnly, page, limit)
    return { notifications: items, unreadCount, pagination: pagination(page, limit, total) }
  })

  fastify.get('/unread-count', {
    schema: { summary: 'How many notifications are unread', response: { 200: Type.Object({ unreadCount: Type.Integer() }) } }
  }, async request => ({ unreadCount: await notifications.unreadCount(currentUser(request).id) }))

  for (const method of ['PUT', 'PATCH'] as const) {
    fastify.route({
      method,
      url: '/read-all',
      schema: { summary: 'Mark all your notifications read', response: { 200: Type.Object({ success: Type.Literal(true), updated: Type.Integer() }) } },
      handler: async request => ({ success: true as const, updated: await notifications.markAllRead(currentUser(request).id) })
    })
    fastify.route({
      method,
      url: '/:id/read',
      schema: { summary: 'Mark one notification read', params: Params, response: { 200: Type.Object({ notification: ref(Notification) }), 404: ErrorRef } },
      handler: async request => {
        const { id } = request.params as { id: string }
        return { notification: await notifications.markRead(currentUser(request).id, id) }
      }
    })
  }

  fastify.delete('/:id', {
    schema: { summary: 'Delete a notification', params: Params, response: { 200: Type.Object({ success: Type.Literal(true), message: Type.String() }), 404: ErrorRef } }
  }, async request => {
    await notifications.remove(currentUser(request).id, request.params.id)
    return { success: true as const, message: 'Notification deleted' }
  })
}

export default notificationRoutes
