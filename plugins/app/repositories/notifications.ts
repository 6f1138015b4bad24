// A user's in-app notifications. Every query is scoped by the recipient, so one user never reaches another's.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type postgres from 'postgres'
import { jsonValue, toIso } from '../../../lib/pg-values.js'

declare module 'fastify' {
  interface FastifyInstance {
    notificationsRepository: ReturnType<typeof createNotificationsRepository>
  }
}

function mapNotification (row: postgres.Row) {
  return {
    id: row.id as string,
    type: row.type as string,
    message: row.message as string,
    read: row.read as boolean,
    recipeId: row.recipe_id as string | null,
    actor: row.actor_id == null ? null : { id: row.actor_id as string, username: row.actor_username as string, avatarUrl: row.actor_avatar_url as string | null },
    data: jsonValue<Record<string, unknown>>(row.data),
    createdAt: toIso(row.created_at)
  }
}

export function createNotificationsRepository (fastify: FastifyInstance) {
  const { sql } = fastify
  return {
    async list (userId: string, unreadOnly: boolean, page: number, limit: number) {
      const where = unreadOnly ? sql`n.user_id = ${userId} and not n.read` : sql`n.user_id = ${userId}`
      const [rows, [{ total }]] = await Promise.all([
        sql`select n.*, a.username as actor_username, a.avatar_url as actor_avatar_url
          from notifications n left join users a on a.id = n.actor_id
          where ${where} order by n.created_at desc, n.id desc limit ${limit} offset ${(page - 1) * limit}`,
        sql`select count(*)::int as total from notifications n where ${where}`
      ])
      return { notifications: rows.map(mapNotification), total }
    },

    async unreadCount (userId: string): Promise<number> {
      const [{ n }] = await sql`select count(*)::int as n from notifications where user_id = ${userId} and not read`
      return n
    },

    /** Marks one of the user's notifications read; null when it is not theirs (or does not exist). */
    async markRead (userId: string, id: string) {
      const [row] = await sql`update notifications n set read = true
        from (select 1) _ where n.id = ${id} and n.user_id = ${userId} returning n.id`
      if (row == null) return null
      const [full] = await sql`select n.*, a.username as actor_username, a.avatar_url as actor_avatar_url
        from notifications n left join users a on a.id = n.actor_id where n.id = ${id}`
      return mapNotification(full)
    },

    async markAllRead (userId: string): Promise<number> {
      const rows = await sql`update notifications set read = true where user_id = ${userId} and not read returning 1`
      return rows.length
    },

    async remove (userId: string, id: string): Promise<boolean> {
      const rows = await sql`delete from notifications where id = ${id} and user_id = ${userId} returning 1`
      return rows.length > 0
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('notificationsRepository', createNotificationsRepository(fastify))
}, { name: 'notifications-repository', dependencies: ['db'] })
