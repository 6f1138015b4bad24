// In-app notifications: created in the background (never slowing the request), never for your own actions, and
// deduplicated (liking, unliking and liking again within an hour notifies once, across instances via the cache).
import fp from 'fastify-plugin'
import { notifications, type NOTIFICATION_TYPES } from '../../db/schema/index.js'

const DEDUPE_SECONDS = 60 * 60

export interface NotificationEvent {
  type: typeof NOTIFICATION_TYPES[number]
  recipientId: string
  actorId: string
  recipeId?: string | null
  message: string
  data?: Record<string, unknown>
  /** Same key within an hour: notified once. */
  dedupeKey?: string
}

declare module 'fastify' {
  interface FastifyInstance {
    notify: (event: NotificationEvent) => void
    /** Tells the author's followers who may see it about a new recipe (fan-out in the background). */
    notifyNewRecipe: (recipe: { id: string, title: string, authorId: string, authorUsername: string }) => void
  }
}

export default fp(async fastify => {
  fastify.decorate('notify', (event: NotificationEvent) => {
    if (event.recipientId === event.actorId) return
    fastify.background(`notify-${event.type}`, async () => {
      if (event.dedupeKey != null && !(await fastify.cache.add(`notified:${event.dedupeKey}`, 1, DEDUPE_SECONDS))) return
      await fastify.db.insert(notifications).values({
        userId: event.recipientId,
        actorId: event.actorId,
        type: event.type,
        recipeId: event.recipeId ?? null,
        message: event.message,
        data: event.data ?? {}
      })
    })
  })

  fastify.decorate('notifyNewRecipe', (recipe: { id: string, title: string, authorId: string, authorUsername: string }) => {
    fastify.background('notify-new-recipe', async () => {
      const followers = await fastify.socialRepository.followersWhoCanSee(recipe.id)
      for (let i = 0; i < followers.length; i += 1000) {
        await fastify.db.insert(notifications).values(followers.slice(i, i + 1000).map(userId => ({
          userId,
          actorId: recipe.authorId,
          type: 'new_recipe' as const,
          recipeId: recipe.id,
          message: `${recipe.authorUsername} published a new recipe: "${recipe.title}"`
        })))
      }
    })
  })
}, { name: 'notifier', dependencies: ['db', 'cache', 'background', 'social-repository'] })
