// In-app notifications: written in the transaction of the action that causes them, never for your own actions,
// deduplicated (liking, unliking and liking again within an hour notifies once, across instances via the cache).
// A new recipe's fan-out to followers can be large, so it is a queued job sent in the creating transaction.
// Email and push follow as a `notification.deliver` job sent with the notification (repositories/notification-delivery.ts
// says which notifications get one).
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { NotificationNotFound } from '../../../lib/errors.js'
import type { NotificationView } from '../../../schemas/notifications.js'
import type { Db } from '../../external/db.js'
import type { SessionRead } from '../auth.js'
import type { DeliveryRow } from '../repositories/notification-delivery.js'
import type { NewNotification } from '../repositories/notifications.js'

const DEDUPE_SECONDS = 60 * 60
const NEW_RECIPE_JOB = 'notify-new-recipe'
const DELIVER_JOB = 'notification.deliver'
const PUSH_TITLES: Record<DeliveryRow['type'], string> = {
  like: 'New like',
  comment: 'New comment',
  reply: 'New reply',
  follow: 'New follower',
  rating: 'New rating',
  new_recipe: 'New recipe',
  family_invite: 'Family',
  meal_plan_shared: 'Shared meal plan',
  system: 'Recipes'
}

declare module 'fastify' {
  interface FastifyInstance {
    notificationService: ReturnType<typeof createNotificationService>
  }
}

export function createNotificationService (fastify: FastifyInstance) {
  const repo = fastify.notificationsRepository
  return {
    /**
     * Notifies the recipient unless they are the actor or `dedupeKey` was used within the hour. The delivery job is
     * sent in the same transaction as the notification (the action's, or one of its own when given the pool), so an
     * email or push exists exactly when the notification does.
     */
    async notify (db: Db, event: NewNotification & { dedupeKey?: string }): Promise<void> {
      if (event.recipientId === event.actorId) return
      if (event.dedupeKey != null && !(await fastify.cache.add(`notified:${event.dedupeKey}`, 1, DEDUPE_SECONDS))) return
      const write = async (tx: Db) => {
        const { id, deliver } = await repo.insert(tx, event)
        if (deliver) await fastify.queue.send(DELIVER_JOB, { id }, tx)
      }
      if (db === fastify.db) await fastify.transaction(write)
      else await write(db)
    },

    /** Tells the author's followers who may see it, once `tx` commits. */
    async newRecipe (tx: Db, recipeId: string): Promise<void> {
      await fastify.queue.send(NEW_RECIPE_JOB, { recipeId }, tx)
    },

    /** A page with its total and the unread count (one statement). */
    async list (userId: string, unreadOnly: boolean, page: number, limit: number) {
      return await repo.list(fastify.db, userId, unreadOnly, page, limit)
    },

    /** The unread count read with the session check: a `sessionRead` for GET /api/notifications/unread-count. */
    unreadCountSession: repo.unreadCountSessions satisfies SessionRead<number>,

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
  // Runs again after a crash or a failed attempt; the ids are derived from (recipe, follower), so nobody gets two,
  // and the delivery jobs commit with the notifications they deliver.
  await fastify.queue.work<{ recipeId: string }>(NEW_RECIPE_JOB, async ({ recipeId }) => {
    await fastify.transaction(async tx => {
      const { deliver } = await fastify.notificationsRepository.fanOutNewRecipe(tx, recipeId)
      await fastify.queue.sendMany(DELIVER_JOB, deliver.map(id => ({ id })), tx)
    })
  })

  // The email is idempotent (its id derives from the notification's), so a retry after a failed push adds no second
  // email; pushes that went out are not retried (pushService.send only throws when the database fails).
  await fastify.queue.work<{ id: string }>(DELIVER_JOB, async ({ id }) => {
    const n = await fastify.notificationDeliveryRepository.forDelivery(fastify.db, id)
    if (n == null) return // read, deleted or no longer shown to its recipient (its recipe hidden) meanwhile
    if (n.wantsEmail) await fastify.emailService.notification(fastify.db, n)
    if (n.wantsPush) {
      await fastify.pushService.send(n.userId, n.type, {
        title: PUSH_TITLES[n.type],
        body: n.message,
        url: n.recipeId == null ? `${fastify.config.publicUrl}/notifications` : `${fastify.config.publicUrl}/recipes/${n.recipeId}`,
        tag: n.type,
        notificationId: n.id
      })
    }
  }, { batchSize: 50 })
}, {
  name: 'notification-service',
  dependencies: ['notifications-repository', 'notification-delivery-repository', 'email-service', 'push-service', 'queue', 'cache', 'db']
})
