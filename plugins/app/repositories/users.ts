// User rows: accounts (credentials, lockout, reset tokens, external identities) and profiles (public view with counts,
// search, follow lists, preferences). Methods take the caller's handle first and return data or null; the rules
// live in services/accounts.ts and services/users.ts. Session checks, the own profile and sign-in's reads are
// measured statements of hot/ (session.ts, me.ts, login.ts), which the methods below name.
import { createId } from '@paralleldrive/cuid2'
import fp from 'fastify-plugin'
import type { notificationSettings, users } from '../../../db/schema/index.js'
import type { EmailPreferencesInput, ProfileInput, UserPublicView } from '../../../schemas/users.js'
import { json, type Db } from '../../external/db.js'
import type { Page } from './recipes.js'
import { lockSecondsLeft, releaseLoginAttempt, reserveLoginAttempt } from './lockout.js'
import { escapeLike, type Counted } from './sql.js'
import { followerCount, followingCount, publicFields, type UserViewRow } from './user-views.js'
import { recipeVisibleTo } from './visibility.js'
import { findForLogin, recordSuccessfulLogin } from './hot/login.js'
import { self, selfSessions } from './hot/me.js'
import { sessionStates, type AuthState } from './hot/session.js'

declare module 'fastify' {
  interface FastifyInstance {
    usersRepository: typeof usersRepository
  }
}

type UserRow = typeof users.$inferSelect

/** An account as sign-in sees it. */
export type AccountRow = Pick<UserRow, 'id' | 'email' | 'username' | 'active' | 'bannedAt' | 'tokenVersion'>

export interface NewUser extends Pick<UserRow, 'email' | 'username' | 'usernameKey' | 'password'> {
  firstName?: string | null
  lastName?: string | null
  oauthProvider?: string
  oauthId?: string
}

export type NotificationSettingsRow = Omit<typeof notificationSettings.$inferSelect, 'userId' | 'updatedAt'>
export type NotificationSettingsPatch = Partial<NotificationSettingsRow>

const mapPublic = (row: UserViewRow): UserPublicView => ({ ...publicFields(row), isFollowing: row.isFollowing })

/** Shown to others: active and not banned. */
const shownUser = (db: Db) => db`(u.active and u.banned_at is null)`

/**
 * The public columns of `users u` plus counts as the viewer may see them. Follow counts leave hidden users out:
 * all edges (kept on the user by triggers, migration 0025) minus those to the few hidden users (users_hidden_idx).
 */
const userColumns = (db: Db, viewerId: string | null) => db`
  u.id, u.username, u.first_name, u.last_name, u.bio, u.location, u.avatar_url, u.verified, u.created_at,
  (select count(*) from recipes r where r.author_id = u.id and ${recipeVisibleTo(db, viewerId)})::int as recipe_count,
  ${followerCount(db)} as follower_count, ${followingCount(db)} as following_count,
  ${viewerId == null ? db`false` : db`exists (select 1 from follows f where f.follower_id = ${viewerId} and f.following_id = u.id)`} as is_following`

const keyOf = (username: string) => username.normalize('NFKC').trim().toLowerCase()

export const usersRepository = {
  // ---- For every family ----

  /** An active, unbanned user by id (a follow target, a reported user...). */
  async activeUser (db: Db, id: string): Promise<Pick<UserRow, 'id' | 'username'> | null> {
    const [row] = await db<Array<Pick<UserRow, 'id' | 'username'>>>`
      select u.id, u.username from users u where u.id = ${id} and ${shownUser(db)}`
    return row ?? null
  },

  /** Locks the user's row for the rest of the transaction (per-user limits and slugs are then exact). */
  async lock (db: Db, id: string): Promise<void> {
    await db`select 1 from users where id = ${id} for update`
  },

  /** The id of an active, unbanned user by username (case-insensitive). */
  async idByUsername (db: Db, username: string): Promise<string | null> {
    const [row] = await db<Array<Pick<UserRow, 'id'>>>`
      select u.id from users u where u.username_key = ${keyOf(username)} and ${shownUser(db)}`
    return row?.id ?? null
  },

  // ---- Accounts ----

  async authState (db: Db, id: string): Promise<AuthState | null> {
    const [row] = await db<AuthState[]>`
      select id, email, username, active, banned_at is not null as banned, token_version from users where id = ${id}`
    return row ?? null
  },

  /** Several strict session checks in one statement, one state each, in order (hot/session.ts). */
  sessionStates,

  /** The session check and the own profile in one statement (GET /api/auth/me, hot/me.ts). */
  selfSessions,

  /** The account of an email or username key, with its password hash (hot/login.ts). */
  findForLogin,

  async exists (db: Db, email: string, usernameKey: string): Promise<boolean> {
    const rows = await db`select 1 from users where email = ${email} or username_key = ${usernameKey} limit 1`
    return rows.length > 0
  },

  async usernameTaken (db: Db, usernameKey: string): Promise<boolean> {
    const rows = await db`select 1 from users where username_key = ${usernameKey}`
    return rows.length > 0
  },

  async create (db: Db, user: NewUser): Promise<AccountRow> {
    const [row] = await db<AccountRow[]>`
      insert into users ${db({ id: createId(), ...user })}
      returning id, email, username, active, banned_at, token_version`
    return row
  },

  async findByOAuth (db: Db, provider: string, subject: string): Promise<AccountRow | null> {
    const [row] = await db<AccountRow[]>`
      select id, email, username, active, banned_at, token_version from users
      where oauth_provider = ${provider} and oauth_id = ${subject}`
    return row ?? null
  },

  async linkOAuth (db: Db, id: string, provider: string, subject: string): Promise<void> {
    await db`update users set oauth_provider = ${provider}, oauth_id = ${subject} where id = ${id}`
  },

  /** See lockout.ts: one reserved attempt, or null while the account is locked. */
  reserveLoginAttempt: async (db: Db, id: string, maxAttempts: number, lockSeconds: number) =>
    await reserveLoginAttempt(db, 'users', id, maxAttempts, lockSeconds),

  /** See lockout.ts: gives back a reserved attempt whose password was never compared. */
  releaseLoginAttempt: async (db: Db, id: string, maxAttempts: number, lockSeconds: number) =>
    await releaseLoginAttempt(db, 'users', id, maxAttempts, lockSeconds),

  lockSecondsLeft: async (db: Db, id: string, lockSeconds: number) => await lockSecondsLeft(db, 'users', id, lockSeconds),

  recordSuccessfulLogin,

  async passwordHash (db: Db, id: string): Promise<string | null> {
    const [row] = await db<Array<Pick<UserRow, 'password'>>>`select password from users where id = ${id}`
    return row?.password ?? null
  },

  /**
   * Sets a new password hash and bumps the token version in the same statement, so every token issued before
   * stops working; clears any reset token and lock. Returns the new version (null: no such user).
   */
  async setPassword (db: Db, id: string, hash: string): Promise<number | null> {
    const [row] = await db<Array<Pick<UserRow, 'tokenVersion'>>>`
      update users set password = ${hash}, password_changed_at = now(), token_version = token_version + 1,
        reset_token = null, reset_token_expiry = null, failed_login_attempts = 0, locked_at = null
      where id = ${id} returning token_version`
    return row?.tokenVersion ?? null
  },

  async setResetToken (db: Db, id: string, tokenHash: string, expiresAt: Date): Promise<void> {
    await db`update users set reset_token = ${tokenHash}, reset_token_expiry = ${expiresAt} where id = ${id}`
  },

  async resetTokenValid (db: Db, tokenHash: string): Promise<boolean> {
    const rows = await db`select 1 from users where reset_token = ${tokenHash} and reset_token_expiry > now()`
    return rows.length > 0
  },

  /** Uses the reset token and sets the password (and token version) in one statement: a second use finds nothing. */
  async resetPassword (db: Db, tokenHash: string, hash: string): Promise<string | null> {
    const [row] = await db<Array<Pick<UserRow, 'id'>>>`
      update users set password = ${hash}, password_changed_at = now(), token_version = token_version + 1,
        reset_token = null, reset_token_expiry = null, failed_login_attempts = 0, locked_at = null
      where reset_token = ${tokenHash} and reset_token_expiry > now()
      returning id`
    return row?.id ?? null
  },

  // ---- Profiles ----

  /** The own profile (hot/me.ts). */
  self,

  async byUsername (db: Db, username: string, viewerId: string | null): Promise<UserPublicView | null> {
    const [row] = await db<UserViewRow[]>`
      select ${userColumns(db, viewerId)} from users u where u.username_key = ${keyOf(username)} and ${shownUser(db)}`
    return row == null ? null : mapPublic(row)
  },

  /** Shown users with at least one published recipe, most recently updated first. */
  async recent (db: Db, limit: number, viewerId: string | null): Promise<UserPublicView[]> {
    const rows = await db<UserViewRow[]>`
      select ${userColumns(db, viewerId)} from users u
      where ${shownUser(db)} and exists (select 1 from recipes r where r.author_id = u.id and r.published)
      order by u.updated_at desc, u.id limit ${limit}`
    return rows.map(mapPublic)
  },

  /** Username or name contains the text (case-insensitive, wildcards literal); verified first, then closest. */
  async search (db: Db, text: string, limit: number, viewerId: string | null): Promise<{ users: UserPublicView[], total: number }> {
    const needle = keyOf(text)
    const pattern = `%${escapeLike(needle)}%`
    const match = db`(u.username_key like ${pattern}
      or lower(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) like ${pattern})`
    const [rows, [{ total }]] = await Promise.all([
      db<UserViewRow[]>`
        select ${userColumns(db, viewerId)} from users u where ${shownUser(db)} and ${match}
        order by u.verified desc, (u.username_key = ${needle}) desc, similarity(u.username_key, ${needle}) desc, u.username_key
        limit ${limit}`,
      db<Array<Counted<'total'>>>`select count(*)::int as total from users u where ${shownUser(db)} and ${match}`
    ])
    return { users: rows.map(mapPublic), total }
  },

  /** A page of the shown users following `userId` (or followed by them), newest follow first. */
  async connections (db: Db, userId: string, direction: 'followers' | 'following', viewerId: string | null, pageNo: number, limit: number): Promise<Page<UserPublicView>> {
    const [self, other] = direction === 'followers' ? [db`f.following_id`, db`f.follower_id`] : [db`f.follower_id`, db`f.following_id`]
    const where = db`${self} = ${userId} and ${shownUser(db)}`
    const [rows, [{ total }]] = await Promise.all([
      db<UserViewRow[]>`select ${userColumns(db, viewerId)} from follows f join users u on u.id = ${other}
        where ${where} order by f.created_at desc, u.id limit ${limit} offset ${(pageNo - 1) * limit}`,
      db<Array<Counted<'total'>>>`select count(*)::int as total from follows f join users u on u.id = ${other} where ${where}`
    ])
    return { items: rows.map(mapPublic), total }
  },

  async updateProfile (db: Db, id: string, fields: ProfileInput): Promise<void> {
    const values = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined))
    if (Object.keys(values).length === 0) return
    await db`update users set ${db(values)}, updated_at = now() where id = ${id}`
  },

  async setAvatar (db: Db, id: string, avatarUrl: string | null): Promise<void> {
    await db`update users set avatar_url = ${avatarUrl}, updated_at = now() where id = ${id}`
  },

  /** The stored switches among `keys` that hold a boolean (anything else a legacy row holds is ignored). */
  async emailPreferences (db: Db, id: string, keys: readonly string[]): Promise<EmailPreferencesInput | null> {
    const [row] = await db<Array<Record<'preferences', EmailPreferencesInput>>>`
      select ${knownPreferences(db, keys)} as preferences from users where id = ${id}`
    return row?.preferences ?? null
  },

  /**
   * Writes the given switches over the stored ones in one statement (concurrent updates of different keys both
   * survive) and drops whatever else the row held, so it never grows beyond the known switches.
   */
  async mergeEmailPreferences (db: Db, id: string, keys: readonly string[], patch: EmailPreferencesInput): Promise<void> {
    await db`update users set email_preferences = ${knownPreferences(db, keys)} || ${json(db, patch)}::jsonb where id = ${id}`
  },

  async notificationSettings (db: Db, id: string): Promise<NotificationSettingsRow | null> {
    const [row] = await db<NotificationSettingsRow[]>`
      select email_likes, email_comments, digest_frequency, digest_day, digest_time, digest_timezone
      from notification_settings where user_id = ${id}`
    return row ?? null
  },

  /** Creates the row with column defaults for anything not given, or changes only the given columns. */
  async saveNotificationSettings (db: Db, id: string, patch: NotificationSettingsPatch): Promise<void> {
    const values = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined))
    if (Object.keys(values).length === 0) {
      await db`insert into notification_settings ${db({ userId: id })} on conflict (user_id) do nothing`
      return
    }
    await db`insert into notification_settings ${db({ userId: id, ...values })}
      on conflict (user_id) do update set ${db(values)}, updated_at = now()`
  }
}

/** `email_preferences` reduced to the boolean values of `keys`. */
function knownPreferences (db: Db, keys: readonly string[]) {
  return db`coalesce((select jsonb_object_agg(p.key, p.value) from jsonb_each(email_preferences) p
    where p.key = any(${[...keys]}::text[]) and jsonb_typeof(p.value) = 'boolean'), '{}'::jsonb)`
}

export default fp(async fastify => {
  fastify.decorate('usersRepository', usersRepository)
}, { name: 'users-repository' })
