// Data access for accounts and profiles. Methods take an optional transaction where a caller composes them.
import { eq, sql as dsql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type postgres from 'postgres'
import { notificationSettings, users } from '../../../db/schema/index.js'
import type { AuthState } from '../auth.js'
import type { Executor } from '../../external/db.js'
import { toDate, toIso } from '../../../lib/pg-values.js'
import { recipeVisibleTo } from './visibility.js'

export const LOCKOUT_ATTEMPTS = 5
export const LOCKOUT_SECONDS = 15 * 60

export interface LoginRow {
  id: string
  email: string
  username: string
  password: string
  active: boolean
  bannedAt: Date | null
  lockedAt: Date | null
  failedLoginAttempts: number
}

export interface UserCounts { recipes: number, followers: number, following: number }

export interface PublicUserRow {
  id: string
  username: string
  firstName: string | null
  lastName: string | null
  bio: string | null
  location: string | null
  avatarUrl: string | null
  verified: boolean
  /** ISO 8601 */
  createdAt: string
  _count: UserCounts
  isFollowing: boolean
}

export interface SelfUserRow extends Omit<PublicUserRow, 'isFollowing'> {
  email: string
  planId: string
  emailPreferences: Record<string, unknown>
  updatedAt: string
}

export interface NewUser {
  email: string
  username: string
  usernameKey: string
  password: string
  firstName?: string | null
  lastName?: string | null
  oauthProvider?: string
  oauthId?: string
  verified?: boolean
}

declare module 'fastify' {
  interface FastifyInstance {
    usersRepository: ReturnType<typeof createUsersRepository>
  }
}

function mapPublic (row: postgres.Row): PublicUserRow {
  return {
    id: row.id,
    username: row.username,
    firstName: row.first_name,
    lastName: row.last_name,
    bio: row.bio,
    location: row.location,
    avatarUrl: row.avatar_url,
    verified: row.verified,
    createdAt: toIso(row.created_at),
    _count: { recipes: row.recipe_count, followers: row.follower_count, following: row.following_count },
    isFollowing: row.is_following ?? false
  }
}

export function createUsersRepository (fastify: FastifyInstance) {
  const { db, sql } = fastify

  /** Public columns plus counts as the viewer may see them. */
  const publicColumns = (viewerId: string | null) => sql`
    u.id, u.username, u.first_name, u.last_name, u.bio, u.location, u.avatar_url, u.verified, u.created_at,
    (select count(*) from recipes r where r.author_id = u.id and ${recipeVisibleTo(sql, viewerId)})::int as recipe_count,
    (select count(*) from follows f join users fu on fu.id = f.follower_id
      where f.following_id = u.id and fu.active and fu.banned_at is null)::int as follower_count,
    (select count(*) from follows f join users fu on fu.id = f.following_id
      where f.follower_id = u.id and fu.active and fu.banned_at is null)::int as following_count,
    ${viewerId == null ? sql`false` : sql`exists (select 1 from follows f where f.follower_id = ${viewerId} and f.following_id = u.id)`} as is_following`

  const visibleUser = sql`u.active and u.banned_at is null`

  return {
    async authState (id: string): Promise<AuthState | null> {
      const [row] = await sql`select id, email, username, active, banned_at, password_changed_at from users where id = ${id}`
      if (row == null) return null
      return {
        id: row.id,
        email: row.email,
        username: row.username,
        active: row.active,
        banned: row.banned_at != null,
        passwordChangedAt: row.password_changed_at == null ? null : toDate(row.password_changed_at).getTime()
      }
    },

    async findForLogin (by: { email: string } | { usernameKey: string }): Promise<LoginRow | null> {
      const where = 'email' in by ? eq(users.email, by.email) : eq(users.usernameKey, by.usernameKey)
      const [row] = await db.select({
        id: users.id,
        email: users.email,
        username: users.username,
        password: users.password,
        active: users.active,
        bannedAt: users.bannedAt,
        lockedAt: users.lockedAt,
        failedLoginAttempts: users.failedLoginAttempts
      }).from(users).where(where)
      return row ?? null
    },

    async usernameTaken (usernameKey: string): Promise<boolean> {
      const [row] = await sql`select 1 from users where username_key = ${usernameKey}`
      return row != null
    },

    async exists (email: string, usernameKey: string): Promise<boolean> {
      const [row] = await sql`select 1 from users where email = ${email} or username_key = ${usernameKey} limit 1`
      return row != null
    },

    async create (user: NewUser, tx: Executor = db): Promise<{ id: string, email: string }> {
      const [row] = await tx.insert(users).values(user).returning({ id: users.id, email: users.email })
      return row
    },

    async findByOAuth (provider: string, subject: string) {
      const [row] = await db.select({ id: users.id, email: users.email, active: users.active, bannedAt: users.bannedAt })
        .from(users).where(dsql`${users.oauthProvider} = ${provider} and ${users.oauthId} = ${subject}`)
      return row ?? null
    },

    async linkOAuth (id: string, provider: string, subject: string): Promise<void> {
      await db.update(users).set({ oauthProvider: provider, oauthId: subject }).where(eq(users.id, id))
    },

    /**
     * Counts a failed login in one statement (exact under concurrent attempts). A lock older than the lockout
     * window has expired: the count starts again from this attempt.
     */
    async recordFailedLogin (id: string): Promise<{ attempts: number, lockedAt: Date | null }> {
      const [row] = await sql`
        update users set
          failed_login_attempts = case when locked_at is not null and locked_at <= now() - make_interval(secs => ${LOCKOUT_SECONDS})
            then 1 else failed_login_attempts + 1 end,
          locked_at = case
            when locked_at is not null and locked_at > now() - make_interval(secs => ${LOCKOUT_SECONDS}) then locked_at
            when (case when locked_at is not null then 1 else failed_login_attempts + 1 end) >= ${LOCKOUT_ATTEMPTS} then now()
            else null end
        where id = ${id}
        returning failed_login_attempts, locked_at`
      return { attempts: row.failed_login_attempts, lockedAt: row.locked_at == null ? null : toDate(row.locked_at) }
    },

    async recordSuccessfulLogin (id: string): Promise<void> {
      await sql`update users set failed_login_attempts = 0, locked_at = null, last_login_at = now() where id = ${id}`
    },

    /** Sets a new password hash; every token issued before now stops working. */
    async setPassword (id: string, hash: string, tx: Executor = db): Promise<void> {
      await tx.update(users).set({
        password: hash,
        passwordChangedAt: new Date(),
        resetToken: null,
        resetTokenExpiry: null,
        failedLoginAttempts: 0,
        lockedAt: null
      }).where(eq(users.id, id))
    },

    async passwordHash (id: string): Promise<string | null> {
      const [row] = await db.select({ password: users.password }).from(users).where(eq(users.id, id))
      return row?.password ?? null
    },

    async setResetToken (id: string, tokenHash: string, expiresAt: Date): Promise<void> {
      await db.update(users).set({ resetToken: tokenHash, resetTokenExpiry: expiresAt }).where(eq(users.id, id))
    },

    async findByResetToken (tokenHash: string): Promise<string | null> {
      const [row] = await sql`select id from users where reset_token = ${tokenHash} and reset_token_expiry > now()`
      return row?.id ?? null
    },

    /** Uses the reset token and sets the password in one statement: a second use finds nothing. */
    async resetPassword (tokenHash: string, hash: string): Promise<string | null> {
      const [row] = await sql`
        update users set password = ${hash}, password_changed_at = now(), reset_token = null, reset_token_expiry = null,
          failed_login_attempts = 0, locked_at = null
        where reset_token = ${tokenHash} and reset_token_expiry > now()
        returning id`
      return row?.id ?? null
    },

    async self (id: string): Promise<SelfUserRow | null> {
      const [row] = await sql`
        select ${publicColumns(id)}, u.email, u.plan_id, u.email_preferences, u.updated_at
        from users u where u.id = ${id}`
      if (row == null) return null
      const { isFollowing: _ignored, ...rest } = mapPublic(row)
      return { ...rest, email: row.email, planId: row.plan_id, emailPreferences: row.email_preferences, updatedAt: toIso(row.updated_at) }
    },

    async byUsername (username: string, viewerId: string | null): Promise<PublicUserRow | null> {
      const [row] = await sql`
        select ${publicColumns(viewerId)} from users u
        where u.username_key = ${username.normalize('NFKC').toLowerCase()} and ${visibleUser}`
      return row == null ? null : mapPublic(row)
    },

    async idByUsername (username: string): Promise<string | null> {
      const [row] = await sql`select id from users u where u.username_key = ${username.normalize('NFKC').toLowerCase()} and ${visibleUser}`
      return row?.id ?? null
    },

    /** Active users with at least one published recipe, most recently updated first. */
    async recent (limit: number, viewerId: string | null): Promise<PublicUserRow[]> {
      const rows = await sql`
        select ${publicColumns(viewerId)} from users u
        where ${visibleUser} and exists (select 1 from recipes r where r.author_id = u.id and r.published)
        order by u.updated_at desc limit ${limit}`
      return rows.map(mapPublic)
    },

    /** Username or name contains the text (case-insensitive); verified users first, then closest match. */
    async search (text: string, limit: number, viewerId: string | null): Promise<{ users: PublicUserRow[], total: number }> {
      const needle = text.normalize('NFKC').toLowerCase()
      const pattern = `%${needle.replace(/[\\%_]/g, '\\$&')}%`
      const match = sql`(u.username_key like ${pattern} or lower(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) like ${pattern})`
      const [rows, [{ total }]] = await Promise.all([
        sql`
          select ${publicColumns(viewerId)} from users u
          where ${visibleUser} and ${match}
          order by u.verified desc, (u.username_key = ${needle}) desc, similarity(u.username_key, ${needle}) desc, u.username_key
          limit ${limit}`,
        sql`select count(*)::int as total from users u where ${visibleUser} and ${match}`
      ])
      return { users: rows.map(mapPublic), total }
    },

    /** Everyone following `userId` (or followed by them), newest first. */
    async connections (userId: string, direction: 'followers' | 'following', viewerId: string | null): Promise<PublicUserRow[]> {
      const rows = direction === 'followers'
        ? await sql`
            select ${publicColumns(viewerId)} from follows f join users u on u.id = f.follower_id
            where f.following_id = ${userId} and ${visibleUser} order by f.created_at desc, u.id`
        : await sql`
            select ${publicColumns(viewerId)} from follows f join users u on u.id = f.following_id
            where f.follower_id = ${userId} and ${visibleUser} order by f.created_at desc, u.id`
      return rows.map(mapPublic)
    },

    async updateProfile (id: string, fields: Partial<Record<'firstName' | 'lastName' | 'bio' | 'location', string | null>>): Promise<void> {
      if (Object.keys(fields).length === 0) return
      await db.update(users).set(fields).where(eq(users.id, id))
    },

    async emailPreferences (id: string): Promise<Record<string, unknown>> {
      const [row] = await db.select({ prefs: users.emailPreferences }).from(users).where(eq(users.id, id))
      return row?.prefs ?? {}
    },

    /** Shallow merge in one statement, so concurrent updates of different keys both survive. */
    async mergeEmailPreferences (id: string, patch: Record<string, unknown>): Promise<Record<string, unknown>> {
      const [row] = await sql`
        update users set email_preferences = email_preferences || ${JSON.stringify(patch)}::jsonb, updated_at = now()
        where id = ${id} returning email_preferences`
      return row.email_preferences
    },

    async notificationSettings (id: string) {
      const [row] = await db.select().from(notificationSettings).where(eq(notificationSettings.userId, id))
      return row ?? null
    },

    async saveNotificationSettings (id: string, values: Partial<typeof notificationSettings.$inferInsert>) {
      const [row] = await db.insert(notificationSettings).values({ ...values, userId: id })
        .onConflictDoUpdate({ target: notificationSettings.userId, set: { ...values, updatedAt: new Date() } })
        .returning()
      return row
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('usersRepository', createUsersRepository(fastify))
}, { name: 'users-repository', dependencies: ['db'] })
