// In-app notifications: written in the transaction of the action that causes them, never for your own actions,
// deduplicated (liking, unliking and liking again within an hour notifies once, across instances via the cache).
// A new recipe's fan-out to followers can be large, so it is a queued job sent in the creating transaction.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { NotificationNotFound } from '../../../lib/errors.js'
import type { NotificationView } from '../../../schemas/notifications.js'
import type { Db } from '../../external/db.js'
import type { NewNotification } from '../repositories/notifications.js'

const DEDUPE_SECONDS = 60 * 60
const NEW_RECIPE_JOB = 'notify-new-recipe'

declare module 'fastify' {
  interface FastifyInstance {
    notificationService: ReturnType<typeof createNotificationService>
  }
}

export function createNotificationService (fastify: FastifyInstance) {
  const repo = fastify.notificationsRepository
  return {
    /** Notifies the recipient unless they are the actor or `dedupeKey` was used within the hour. */
    async notify (db: Db, event: NewNotification & { dedupeKey?: string }): Promise<void> {
      if (event.recipientId === event.actorId) return
      if (event.dedupeKey != null && !(await fastify.cache.add(`notified:${event.dedupeKey}`, 1, DEDUPE_SECONDS))) return
      await repo.insert(db, event)
    },

    /** Tells the author's followers who may see it, once `tx` commits. */
    async newRecipe (tx: Db, recipeId: string): Promise<void> {
      await fastify.queue.send(NEW_RECIPE_JOB, { recipeId }, tx)
    },

    async list (userId: string, unreadOnly: boolean, page: number, limit: number) {
      const [list, unreadCount] = await Promise.all([
        repo.list(fastify.db, userId, unreadOnly, page, limit),
        repo.unreadCount(fastify.db, userId)
      ])
      return { ...list, unreadCount }
    },

    async unreadCount (userId: string): Promise<number> {
      return await repo.unreadCount(fastify.db, userId)
    },

    async markRead (userId: string, id: string): Promise<NotificationView> {
      const notification = await repo.markRead(fastify.db, userId, id)
      if (notification == null) throw new NotificationNotFound()
      return notification
    },

    async markAllRead (userId: string): Promise<number> {
      return await repo.markAllRead(fastify.db, userId)
    },

    async remove (userId: string, id: string): Promise<void> {
      if (!(await repo.remove(fastify.db, userId, id))) throw new NotificationNotFound()
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('notificationService', createNotificationService(fastify))
  // Runs again after a crash or a failed attempt; the ids are derived from (recipe, follower), so nobody gets two.
  await fastify.queue.work<{ recipeId: string }>(NEW_RECIPE_JOB, async ({ recipeId }) => {
    await fastify.notificationsRepository.fanOutNewRecipe(fastify.db, recipeId)
  })
}, { name: 'notification-service', dependencies: ['notifications-repository', 'queue', 'cache'] })
