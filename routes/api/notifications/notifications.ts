// In-app notifications: list (with unread count), mark read (PUT or PATCH), mark all read, delete.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { HttpError } from '../../../lib/errors.js'
import { currentUser } from '../../../plugins/app/auth.js'
import { DateTime, ErrorRef, Id, pagination, Pagination, PaginationQuery, ref } from '../../../schemas/common.js'

const Notification = Type.Object({
  id: Id,
  type: Type.String({ description: 'like, comment, reply, follow, rating, new_recipe, family_invite, meal_plan_shared, system' }),
  message: Type.String(),
  read: Type.Boolean(),
  recipeId: Type.Union([Id, Type.Null()]),
  actor: Type.Union([Type.Object({ id: Id, username: Type.String(), avatarUrl: Type.Union([Type.String(), Type.Null()]) }), Type.Null()]),
  data: Type.Record(Type.String(), Type.Unknown()),
  createdAt: DateTime
})
const Params = Type.Object({ id: Id })
const NOT_FOUND = 'Notification not found'

const notifications: FastifyPluginAsyncTypebox = async fastify => {
  const repo = fastify.notificationsRepository

  fastify.get('/', {
    schema: {
      summary: 'Your notifications, newest first',

      querystring: Type.Object({ ...PaginationQuery.properties, unreadOnly: Type.Boolean({ default: false }) }),
      response: { 200: Type.Object({ notifications: Type.Array(Notification), unreadCount: Type.Integer(), pagination: ref(Pagination) }) }
    }
  }, async request => {
    const userId = currentUser(request).id
    const { page, limit, unreadOnly } = request.query
    const [{ notifications: list, total }, unreadCount] = await Promise.all([repo.list(userId, unreadOnly, page, limit), repo.unreadCount(userId)])
    return { notifications: list, unreadCount, pagination: pagination(page, limit, total) }
  })

  fastify.get('/unread-count', {
    schema: { summary: 'How many notifications are unread', response: { 200: Type.Object({ unreadCount: Type.Integer() }) } }
  }, async request => ({ unreadCount: await repo.unreadCount(currentUser(request).id) }))

  for (const method of ['PUT', 'PATCH'] as const) {
    fastify.route({
      method,
      url: '/read-all',
      schema: { summary: 'Mark all your notifications read', response: { 200: Type.Object({ success: Type.Literal(true), updated: Type.Integer() }) } },
      handler: async request => ({ success: true as const, updated: await repo.markAllRead(currentUser(request).id) })
    })
    fastify.route({
      method,
      url: '/:id/read',
      schema: { summary: 'Mark one notification read', params: Params, response: { 200: Type.Object({ notification: Notification }), 404: ErrorRef } },
      handler: async request => {
        const { id } = request.params as { id: string }
        const notification = await repo.markRead(currentUser(request).id, id)
        if (notification == null) throw new HttpError(404, NOT_FOUND)
        return { notification }
      }
    })
  }

  fastify.delete('/:id', {
    schema: { summary: 'Delete a notification', params: Params, response: { 200: Type.Object({ success: Type.Literal(true), message: Type.String() }), 404: ErrorRef } }
  }, async request => {
    if (!(await repo.remove(currentUser(request).id, request.params.id))) throw new HttpError(404, NOT_FOUND)
    return { success: true as const, message: 'Notification deleted' }
  })
}

export default notifications
