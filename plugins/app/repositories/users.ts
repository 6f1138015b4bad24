// User rows: accounts (credentials, lockout, reset tokens, external identities) and profiles (public view with counts,
// search, follow lists, preferences). Methods take the caller's handle first and return data or null; the rules
// live in services/accounts.ts and services/users.ts.
import { createId } from '@paralleldrive/cuid2'
import fp from 'fastify-plugin'
import type postgres from 'postgres'
import type { notificationSettings, users } from '../../../db/schema/index.js'
import type { EmailPreferencesInput, ProfileInput, UserPublicView, UserSelfView } from '../../../schemas/users.js'
import { json, type Db } from '../../external/db.js'
import type { Page } from './recipes.js'
import { lockSecondsLeft, reserveLoginAttempt } from './lockout.js'
import { escapeLike, hiddenValue, reusedPart, type Fragment } from './sql.js'
import { recipeVisibleTo } from './visibility.js'

declare module 'fastify' {
  interface FastifyInstance {
    usersRepository: typeof usersRepository
  }
}

type UserRow = typeof users.$inferSelect

/** What issuing a token and checking one need; JSON-safe, so it can be cached. */
export interface AuthState extends Pick<UserRow, 'id' | 'email' | 'username' | 'active' | 'tokenVersion'> {
  banned: boolean
}

/** The auth state plus whether the presented token (by jti) is revoked: what a strict check reads. */
export type SessionState = AuthState & { revoked: boolean }

/** An account as sign-in sees it. */
export type AccountRow = Pick<UserRow, 'id' | 'email' | 'username' | 'active' | 'bannedAt' | 'tokenVersion'>
export type LoginRow = AccountRow & Pick<UserRow, 'password'>

export interface NewUser extends Pick<UserRow, 'email' | 'username' | 'usernameKey' | 'password'> {
  firstName?: string | null
  lastName?: string | null
  oauthProvider?: string
  oauthId?: string
}

export type NotificationSettingsRow = Omit<typeof notificationSettings.$inferSelect, 'userId' | 'updatedAt'>
export type NotificationSettingsPatch = Partial<NotificationSettingsRow>

interface UserViewRow extends Pick<UserRow, 'id' | 'username' | 'firstName' | 'lastName' | 'bio' | 'location' | 'avatarUrl' | 'verified' | 'createdAt'> {
  recipeCount: number
  followerCount: number
  followingCount: number
  isFollowing: boolean
}

type SelfRow = Omit<UserViewRow, 'isFollowing'> & Pick<UserRow, 'email' | 'planId' | 'updatedAt'>

function publicFields (row: Omit<UserViewRow, 'isFollowing'>) {
  return {
    id: row.id,
    username: row.username,
    firstName: row.firstName,
    lastName: row.lastName,
    bio: row.bio,
    location: row.location,
    avatarUrl: row.avatarUrl,
    verified: row.verified,
    createdAt: row.createdAt.toISOString(),
    _count: { recipes: row.recipeCount, followers: row.followerCount, following: row.followingCount }
  }
}

const mapPublic = (row: UserViewRow): UserPublicView => ({ ...publicFields(row), isFollowing: row.isFollowing })

const mapSelf = (row: SelfRow): UserSelfView =>
  ({ ...publicFields(row), email: row.email, plan: row.planId, updatedAt: row.updatedAt.toISOString() })

/** Shown to others: active and not banned. */
const shownUser = (db: Db) => db`(u.active and u.banned_at is null)`

/** `users h` is deactivated or banned: the predicate of users_hidden_idx, written the same so the planner uses it. */
const hiddenUser = (db: Db) => db`(not h.active or h.banned_at is not null)`

/** The followers of `users u` that others see: all edges minus those of hidden users. */
export const followerCount = (db: Db) => db`(u.follower_count - (select count(*) from users h
  join follows f on f.follower_id = h.id and f.following_id = u.id where ${hiddenUser(db)}))::int`

/** Whom `users u` follows, as others see it: all edges minus those to hidden users. */
const followingCount = (db: Db) => db`(u.following_count - (select count(*) from users h
  join follows f on f.following_id = h.id and f.follower_id = u.id where ${hiddenUser(db)}))::int`

/**
 * The public columns of `users u` plus counts as the viewer may see them. Follow counts leave hidden users out:
 * all edges (kept on the user by triggers, migration 0025) minus those to the few hidden users (users_hidden_idx).
 */
const userColumns = (db: Db, viewerId: string | null) => db`
  u.id, u.username, u.first_name, u.last_name, u.bio, u.location, u.avatar_url, u.verified, u.created_at,
  (select count(*) from recipes r where r.author_id = u.id and ${recipeVisibleTo(db, viewerId)})::int as recipe_count,
  ${followerCount(db)} as follower_count, ${followingCount(db)} as following_count,
  ${viewerId == null ? db`false` : db`exists (select 1 from follows f where f.follower_id = ${viewerId} and f.following_id = u.id)`} as is_following`

/** Whether the token `jti` is revoked. */
const revoked = (db: Db, jti: string | Fragment) => db`exists (select 1 from revoked_tokens t where t.jti = ${jti})`

/** `users u` as a strict auth check sees it, and whether the token `jti` is revoked. */
const sessionColumns = (db: Db, jti: string | Fragment) => db`
  u.id, u.email, u.username, u.active, u.banned_at is not null as banned, u.token_version, ${revoked(db, jti)} as revoked`

/** A token whose session a route's own statement checks (`sessionValid`): its user, id and token version. */
export interface SessionCheck { userId: string, jti: string, ver: number }

/**
 * Whether the token `jti`, issued at token version `ver`, is a valid session of user `u` now: the rule of `passes` in
 * plugins/app/auth.ts, for statements that check the session themselves (`sessionInStatement`). Null when there is
 * no such user (left join): test it with `coalesce(..., false)` or `is true`.
 */
export const sessionValid = (db: Db, jti: Fragment, ver: Fragment): Fragment => db`
  (u.active and u.banned_at is null and u.token_version = ${ver} and not ${revoked(db, jti)})`

/**
 * The session state of user `id` and token `jti` and a route's answer, `answer` of `columns` over `users u`, in one
 * statement: what a route's `sessionRead` returns (plugins/app/auth.ts).
 */
export async function sessionWith<Row extends object, T> (db: Db, id: string, jti: string, columns: postgres.PendingQuery<postgres.Row[]>,
  answer: (row: Row) => T): Promise<{ session: SessionState, value: T } | null> {
  const [row] = await db<Array<SessionState & Row>>`select ${sessionColumns(db, jti)}, ${columns} from users u where u.id = ${id}`
  return row == null ? null : { session: row, value: answer(row) }
}

/** The own profile's columns of `users u`: userColumns as its owner sees them (every one of their recipes counts). */
const selfColumns = reusedPart(1, (db: Db) => db`
  u.id, u.username, u.first_name, u.last_name, u.bio, u.location, u.avatar_url, u.verified, u.created_at,
  (select count(*) from recipes r where r.author_id = u.id)::int as recipe_count,
  ${followerCount(db)} as follower_count, ${followingCount(db)} as following_count,
  u.plan_id, u.updated_at`)

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

  /**
   * Each user's auth state and whether the token `jti` is revoked (null: no such user), for several checks in one
   * statement: one state per check, in order. The arrays are hidden from the planner: PostgreSQL keeps one generic
   * plan instead of planning each batch for its length (0.1 ms, five times the statement's work).
   */
  async sessionStates (db: Db, checks: Array<{ id: string, jti: string }>): Promise<Array<SessionState | null>> {
    const rows = await db<Array<SessionState & { n: string }>>`
      select c.n, ${sessionColumns(db, db`c.jti`)}
      from unnest(${hiddenValue(db, checks.map(c => c.id), 'text[]')}, ${hiddenValue(db, checks.map(c => c.jti), 'text[]')}) with ordinality as c(id, jti, n)
      join users u on u.id = c.id`
    const states: Array<SessionState | null> = checks.map(() => null)
    for (const { n, ...state } of rows) states[Number(n) - 1] = state
    return states
  },

  /** The session check and the own profile in one statement (GET /api/auth/me: one round trip, not two). */
  async selfSession (db: Db, id: string, jti: string): Promise<{ session: SessionState, value: UserSelfView } | null> {
    return await sessionWith(db, id, jti, selfColumns(db), mapSelf)
  },

  async findForLogin (db: Db, by: { email: string } | { usernameKey: string }): Promise<LoginRow | null> {
    const where = 'email' in by ? db`email = ${by.email}` : db`username_key = ${by.usernameKey}`
    const [row] = await db<LoginRow[]>`
      select id, email, username, password, active, banned_at, token_version from users where ${where}`
    return row ?? null
  },

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

  lockSecondsLeft: async (db: Db, id: string, lockSeconds: number) => await lockSecondsLeft(db, 'users', id, lockSeconds),

  async recordSuccessfulLogin (db: Db, id: string): Promise<void> {
    await db`update users set failed_login_attempts = 0, locked_at = null, last_login_at = now() where id = ${id}`
  },

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

  async self (db: Db, id: string): Promise<UserSelfView | null> {
    const [row] = await db<SelfRow[]>`
      select ${selfColumns(db)}, u.email from users u where u.id = ${id}`
    return row == null ? null : mapSelf(row)
  },

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
      db<Array<{ total: number }>>`select count(*)::int as total from users u where ${shownUser(db)} and ${match}`
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
      db<Array<{ total: number }>>`select count(*)::int as total from follows f join users u on u.id = ${other} where ${where}`
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
    const [row] = await db<Array<{ preferences: EmailPreferencesInput }>>`
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
