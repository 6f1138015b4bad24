// Who hears of a notification outside the app, written once as SQL: which email switch governs each type (instant
// emails), whether push applies, and what a delivery job reads. The digest collects every type regardless.
import fp from 'fastify-plugin'
import type postgres from 'postgres'
import { NOTIFICATION_SETTINGS_DEFAULTS, type comments, type notifications, type recipes, type users } from '../../../db/schema/index.js'
import type { Db } from '../../external/db.js'
import { notificationShown } from './notification-visibility.js'
import type { Flagged } from './sql.js'

declare module 'fastify' {
  interface FastifyInstance {
    notificationDeliveryRepository: typeof notificationDeliveryRepository
  }
}

type Fragment = postgres.PendingQuery<postgres.Row[]>

/** A switch of the `email_preferences` JSON; only an explicit `false` turns it off (`unsubscribedAll`: `true` on). */
const preferenceOff = (db: Db, key: string) => db`coalesce(u.email_preferences -> ${key}, 'null') = 'false'::jsonb`

/**
 * Whether the user `userId` wants an instant email for a notification of `type` (SQL expressions). like: emailLikes;
 * comment and reply: emailComments; follow: emailFollows; new_recipe: emailNewRecipes; family and shared meal plans:
 * always; rating and system: digest only. Nothing for accounts unsubscribed from all, deactivated or banned.
 */
export const wantsEmail = (db: Db, userId: Fragment, type: Fragment) => db`(
  select u.active and u.banned_at is null
    and coalesce(u.email_preferences -> 'unsubscribedAll', 'false') <> 'true'::jsonb
    and case ${type}
      when 'like' then coalesce(ns.email_likes, ${NOTIFICATION_SETTINGS_DEFAULTS.emailLikes})
      when 'comment' then coalesce(ns.email_comments, ${NOTIFICATION_SETTINGS_DEFAULTS.emailComments})
      when 'reply' then coalesce(ns.email_comments, ${NOTIFICATION_SETTINGS_DEFAULTS.emailComments})
      when 'follow' then not ${preferenceOff(db, 'emailFollows')}
      when 'new_recipe' then not ${preferenceOff(db, 'emailNewRecipes')}
      when 'family_invite' then true
      when 'meal_plan_shared' then true
      else false
    end
  from users u left join notification_settings ns on ns.user_id = u.id
  where u.id = ${userId})`

/** Whether the user has a push subscription and has not switched push off for `type` (a type without a row is on). */
export const wantsPush = (db: Db, userId: Fragment, type: Fragment) => db`(
  exists (select 1 from push_subscriptions s where s.user_id = ${userId})
  and coalesce((select p.push from notification_preferences p where p.user_id = ${userId} and p.type = ${type}), true))`

export type DeliveryRow = Pick<typeof notifications.$inferSelect, 'id' | 'userId' | 'type' | 'message' | 'recipeId' | 'data'> &
  Pick<typeof users.$inferSelect, 'email' | 'username'> & Flagged<'wantsEmail' | 'wantsPush'> & {
    actorUsername: (typeof users.$inferSelect)['username'] | null
    recipeTitle: (typeof recipes.$inferSelect)['title'] | null
    commentContent: (typeof comments.$inferSelect)['content'] | null
  }

export const notificationDeliveryRepository = {
  /**
   * The notification with what its messages show and the channels that apply now (settings may have changed); null
   * once read, or while it is not shown to its recipient (a recipe they may no longer see: no title leaves by email
   * or push).
   */
  async forDelivery (db: Db, id: string): Promise<DeliveryRow | null> {
    const [row] = await db<DeliveryRow[]>`
      select n.id, n.user_id, n.type, n.message, n.recipe_id, n.data, u.email, u.username,
        a.username as actor_username, r.title as recipe_title, c.content as comment_content,
        ${wantsEmail(db, db`n.user_id`, db`n.type`)} as wants_email,
        ${wantsPush(db, db`n.user_id`, db`n.type`)} as wants_push
      from notifications n
      join users u on u.id = n.user_id
      left join users a on a.id = n.actor_id
      left join recipes r on r.id = n.recipe_id
      left join comments c on c.id = n.data ->> 'commentId'
      where n.id = ${id} and not n.read and ${notificationShown(db, db`n.user_id`)}`
    return row ?? null
  },

  /** Of the notifications just written, those that go out by email or push. */
  async needingDelivery (db: Db, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return []
    const rows = await db<Array<Pick<typeof notifications.$inferSelect, 'id'>>>`select n.id from notifications n where n.id = any(${ids})
      and ${notificationShown(db, db`n.user_id`)} and (${wantsEmail(db, db`n.user_id`, db`n.type`)} or ${wantsPush(db, db`n.user_id`, db`n.type`)})`
    return rows.map(r => r.id)
  }
}

export default fp(async fastify => {
  fastify.decorate('notificationDeliveryRepository', notificationDeliveryRepository)
}, { name: 'notification-delivery-repository' })
