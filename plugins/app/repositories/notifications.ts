// A user's in-app notifications. Every query is scoped by the recipient, so one user never reaches another's, and
// reads or changes only those shown to them (notification-visibility.ts: none about a recipe they may not see).
import { createId } from '@paralleldrive/cuid2'
import fp from 'fastify-plugin'
import type { NOTIFICATION_TYPES, notifications, users } from '../../../db/schema/index.js'
import type { NotificationView } from '../../../schemas/notifications.js'
import { json, type Db } from '../../external/db.js'
import type { Page } from './recipes.js'
import { wantsEmail, wantsPush } from './notification-delivery.js'
import { countShown, notificationShown } from './notification-visibility.js'
import { unreadCountSessions } from './hot/unread-count.js'
import type { Counted, Flagged } from './sql.js'
import { visibleToFollower } from './visibility.js'

declare module 'fastify' {
  interface FastifyInstance {
    notificationsRepository: typeof notificationsRepository
  }
}

export interface NewNotification {
  type: typeof NOTIFICATION_TYPES[number]
  recipientId: string
  actorId: string | null
  recipeId?: string | null
  message: string
  data?: Record<string, unknown>
}

type UserRow = typeof users.$inferSelect

/** A notification with its actor's name and avatar (left join: null without an actor). */
type NotificationRow = Pick<typeof notifications.$inferSelect, 'id' | 'type' | 'message' | 'read' | 'recipeId' | 'actorId' | 'data' | 'createdAt'> & {
  actorUsername: UserRow['username'] | null
  actorAvatarUrl: UserRow['avatarUrl']
}

function view (row: NotificationRow): NotificationView {
  return {
    id: row.id,
    type: row.type,
    message: row.message,
    read: row.read,
    recipeId: row.recipeId,
    actor: row.actorId == null ? null : { id: row.actorId, username: row.actorUsername ?? '', avatarUrl: row.actorAvatarUrl },
    data: row.data,
    createdAt: row.createdAt.toISOString()
  }
}

/** A row of the list: the counts (`total` null when only unread ones are listed), and a notification unless the page is empty. */
type ListRow = Counted<'unreadCount'> & Record<'total', number | null> & (NotificationRow | Record<'id', null>)

const selectNotification = (db: Db) => db`select n.id, n.type, n.message, n.read, n.recipe_id, n.actor_id, n.data, n.created_at,
  a.username as actor_username, a.avatar_url as actor_avatar_url
  from notifications n left join users a on a.id = n.actor_id`

export const notificationsRepository = {
  /** Writes the notification; `deliver` says whether it also goes out by email or push (notification-delivery.ts). */
  async insert (db: Db, n: NewNotification): Promise<{ id: string, deliver: boolean }> {
    const [row] = await db<Array<Pick<NotificationRow, 'id'> & Flagged<'deliver'>>>`
      with n as (
        insert into notifications (id, user_id, actor_id, type, recipe_id, message, data)
        values (${createId()}, ${n.recipientId}, ${n.actorId}, ${n.type}, ${n.recipeId ?? null}, ${n.message}, ${json(db, n.data ?? {})})
        returning id, user_id, type)
      select n.id, ${wantsEmail(db, db`n.user_id`, db`n.type`)} or ${wantsPush(db, db`n.user_id`, db`n.type`)} as deliver from n`
    return row
  },

  /**
   * One `new_recipe` notification for each follower of the author who may see the recipe, in one statement; the
   * answer lists the new ones that also go out by email or push.
   */
  async fanOutNewRecipe (db: Db, recipeId: string): Promise<{ created: number, deliver: string[] }> {
    const rows = await db<Array<Pick<NotificationRow, 'id'> & Flagged<'deliver'>>>`
      with n as (
        insert into notifications (id, user_id, actor_id, type, recipe_id, message)
        select 'n' || md5(r.id || f.follower_id), f.follower_id, r.author_id, 'new_recipe', r.id,
          a.username || ' published a new recipe: "' || r.title || '"'
        from recipes r join users a on a.id = r.author_id join follows f on f.following_id = r.author_id
        where r.id = ${recipeId} and ${visibleToFollower(db)}
        on conflict (id) do nothing
        returning id, user_id, type)
      select n.id, ${wantsEmail(db, db`n.user_id`, db`n.type`)} or ${wantsPush(db, db`n.user_id`, db`n.type`)} as deliver from n`
    return { created: rows.length, deliver: rows.filter(r => r.deliver).map(r => r.id) }
  },

  /**
   * A page of the notifications shown to the user (notification-visibility.ts), how many there are and how many are
   * unread, in one statement: the counts are one row, the page joined to it (a page past the end is that row alone).
   */
  async list (db: Db, userId: string, unreadOnly: boolean, pageNo: number, limit: number): Promise<Page<NotificationView> & { unreadCount: number }> {
    const rows = await db<ListRow[]>`
      with counts as materialized (
        select ${countShown(db, db`n.user_id = ${userId} and not n.read`, userId)} as unread_count,
          ${unreadOnly ? db`null::int` : countShown(db, db`n.user_id = ${userId}`, userId)} as total)
      select c.unread_count, c.total, p.* from counts c left join lateral (
        ${selectNotification(db)} where n.user_id = ${userId} ${unreadOnly ? db`and not n.read` : db``}
          and ${notificationShown(db, userId)}
        order by n.created_at desc, n.id desc limit ${limit} offset ${(pageNo - 1) * limit}) p on true`
    const [{ unreadCount, total }] = rows
    return {
      items: rows.flatMap(row => row.id == null ? [] : [view(row)]),
      total: total ?? unreadCount,
      unreadCount
    }
  },

  /** The unread count read with the session check: what every client polls, in one statement (hot/unread-count.ts). */
  unreadCountSessions,

  /** Marks one of the user's notifications read; null when it is not theirs, not shown to them, or does not exist. */
  async markRead (db: Db, userId: string, id: string): Promise<NotificationView | null> {
    const [updated] = await db`update notifications n set read = true
      where n.id = ${id} and n.user_id = ${userId} and ${notificationShown(db, userId)} returning n.id`
    if (updated == null) return null
    const [row] = await db<NotificationRow[]>`${selectNotification(db)} where n.id = ${id}`
    return view(row)
  },

  async markAllRead (db: Db, userId: string): Promise<number> {
    const rows = await db`update notifications n set read = true
      where n.user_id = ${userId} and not n.read and ${notificationShown(db, userId)} returning 1`
    return rows.length
  },

  async remove (db: Db, userId: string, id: string): Promise<boolean> {
    const rows = await db`delete from notifications n where n.id = ${id} and n.user_id = ${userId} and ${notificationShown(db, userId)} returning 1`
    return rows.length > 0
  }
}

export default fp(async fastify => {
  fastify.decorate('notificationsRepository', notificationsRepository)
}, { name: 'notifications-repository' })
