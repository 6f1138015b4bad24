// User accounts as the admin API sees them: lists with filters, one account with its counts, and the state admins
// change (active, verified, plan, ban, sign-in lock). Every write is one statement; the rules and the cache
// invalidation live in services/admin-users.ts.
import { createId } from '@paralleldrive/cuid2'
import fp from 'fastify-plugin'
import type { users } from '../../../db/schema/index.js'
import type { AdminUserDetailView, AdminUserFilters, AdminUserStatus, AdminUserView } from '../../../schemas/admin-users.js'
import type { Db } from '../../external/db.js'
import type { Page } from './recipe-queries.js'
import { countUpTo, escapeLike, type Counted } from './sql.js'

declare module 'fastify' {
  interface FastifyInstance {
    adminUsersRepository: typeof adminUsersRepository
  }
}

type UserRow = typeof users.$inferSelect

/** `lockedUntil` is computed from the lock's start (a timestamp like it). */
type SummaryRow = Pick<UserRow, 'id' | 'email' | 'username' | 'firstName' | 'lastName' | 'active' | 'verified' | 'planId' | 'bannedAt' | 'lastLoginAt' | 'createdAt'> &
  Record<'lockedUntil', UserRow['lockedAt']>

type DetailRow = SummaryRow & Pick<UserRow, 'banReason' | 'failedLoginAttempts' | 'emailVerifiedAt' | 'oauthProvider'> &
  Counted<'recipeCount' | 'followerCount' | 'followingCount' | 'commentCount' | 'openReportCount'>

/** What a change is decided on, read under the row's lock. */
export type AdminUserState = Pick<UserRow, 'id' | 'active' | 'verified' | 'planId' | 'bannedAt'>

export type AdminUserChanges = Partial<Pick<UserRow, 'active' | 'verified' | 'planId'>>

const iso = (date: Date | null) => date?.toISOString() ?? null

function statusOf (row: SummaryRow): AdminUserStatus {
  if (row.bannedAt != null) return 'banned'
  if (!row.active) return 'deactivated'
  return row.lockedUntil != null ? 'locked' : 'active'
}

function summary (row: SummaryRow): AdminUserView {
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    firstName: row.firstName,
    lastName: row.lastName,
    status: statusOf(row),
    active: row.active,
    verified: row.verified,
    planId: row.planId,
    bannedAt: iso(row.bannedAt),
    lockedUntil: iso(row.lockedUntil),
    lastLoginAt: iso(row.lastLoginAt),
    createdAt: row.createdAt.toISOString()
  }
}

function detail (row: DetailRow): AdminUserDetailView {
  return {
    ...summary(row),
    banReason: row.banReason,
    failedLoginAttempts: row.failedLoginAttempts,
    emailVerifiedAt: iso(row.emailVerifiedAt),
    oauthProvider: row.oauthProvider,
    _count: {
      recipes: row.recipeCount,
      followers: row.followerCount,
      following: row.followingCount,
      comments: row.commentCount,
      openReports: row.openReportCount
    }
  }
}

/** A sign-in lock in force: set less than `lockSeconds` ago (an older one has expired by itself). */
const lockedNow = (db: Db, lockSeconds: number) =>
  db`(u.locked_at is not null and u.locked_at > now() - make_interval(secs => ${lockSeconds}))`

const summaryColumns = (db: Db, lockSeconds: number) => db`
  u.id, u.email, u.username, u.first_name, u.last_name, u.active, u.verified, u.plan_id, u.banned_at, u.last_login_at,
  u.created_at, case when ${lockedNow(db, lockSeconds)} then u.locked_at + make_interval(secs => ${lockSeconds}) end as locked_until`

function statusCondition (db: Db, status: AdminUserStatus, lockSeconds: number) {
  switch (status) {
    case 'banned': return db`u.banned_at is not null`
    case 'deactivated': return db`(u.banned_at is null and not u.active)`
    case 'locked': return db`(u.banned_at is null and u.active and ${lockedNow(db, lockSeconds)})`
    case 'active': return db`(u.banned_at is null and u.active and not ${lockedNow(db, lockSeconds)})`
  }
}

export const adminUsersRepository = {
  /**
   * A page of accounts, newest first; `total` is counted up to `countCap`, `hasNext` from one row past the page.
   * `q` matches the username key or the email (both stored NFKC-normalised and lower-cased).
   */
  async list (db: Db, filters: AdminUserFilters, pageNo: number, limit: number, lockSeconds: number, countCap: number): Promise<Page<AdminUserView> & { hasNext: boolean }> {
    const pattern = filters.q == null ? null : `%${escapeLike(filters.q.normalize('NFKC').trim().toLowerCase())}%`
    const where = db`true
      ${pattern != null ? db`and (u.username_key like ${pattern} or u.email like ${pattern})` : db``}
      ${filters.status != null ? db`and ${statusCondition(db, filters.status, lockSeconds)}` : db``}
      ${filters.planId != null ? db`and u.plan_id = ${filters.planId}` : db``}
      ${filters.verified != null ? db`and u.verified = ${filters.verified}` : db``}`
    const [rows, total] = await Promise.all([
      db<SummaryRow[]>`select ${summaryColumns(db, lockSeconds)} from users u where ${where}
        order by u.created_at desc, u.id desc limit ${limit + 1} offset ${(pageNo - 1) * limit}`,
      countUpTo(db, db`users u`, where, countCap)
    ])
    return { items: rows.slice(0, limit).map(summary), total, hasNext: rows.length > limit }
  },

  /** One account with its counts (all rows, hidden ones included: admins see everything); null when unknown. */
  async detail (db: Db, id: string, lockSeconds: number): Promise<AdminUserDetailView | null> {
    const [row] = await db<DetailRow[]>`
      select ${summaryColumns(db, lockSeconds)}, u.ban_reason, u.failed_login_attempts, u.email_verified_at, u.oauth_provider,
        (select count(*) from recipes r where r.author_id = u.id)::int as recipe_count,
        u.follower_count, u.following_count,
        (select count(*) from comments c where c.user_id = u.id)::int as comment_count,
        (select count(*) from reports rp where rp.type = 'user' and rp.target_id = u.id and rp.status <> 'resolved')::int as open_report_count
      from users u where u.id = ${id}`
    return row == null ? null : detail(row)
  },

  /** The account's changeable state, its row locked for the rest of the transaction; null when unknown. */
  async lockState (db: Db, id: string): Promise<AdminUserState | null> {
    const [row] = await db<AdminUserState[]>`
      select id, active, verified, plan_id, banned_at from users where id = ${id} for update`
    return row ?? null
  },

  async update (db: Db, id: string, changes: AdminUserChanges): Promise<void> {
    const values = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined))
    if (Object.keys(values).length === 0) return
    await db`update users set ${db(values)} where id = ${id}`
  },

  /** Records the plan on the account's subscription row (created when missing): a new plan starts now. */
  async setSubscriptionPlan (db: Db, userId: string, planId: string): Promise<void> {
    await db`insert into subscriptions (id, user_id, plan_id) values (${createId()}, ${userId}, ${planId})
      on conflict (user_id) do update set plan_id = excluded.plan_id, status = 'active', started_at = now(), ends_at = null, updated_at = now()`
  },

  /** Bans the account (a repeated ban keeps the first `bannedAt` and takes the new reason); false when unknown. */
  async ban (db: Db, id: string, reason: string): Promise<boolean> {
    const rows = await db`update users set banned_at = coalesce(banned_at, now()), ban_reason = ${reason} where id = ${id} returning 1`
    return rows.length > 0
  },

  async unban (db: Db, id: string): Promise<boolean> {
    const rows = await db`update users set banned_at = null, ban_reason = null where id = ${id} returning 1`
    return rows.length > 0
  },

  /** Ends the sign-in lock and clears the failed attempts; false when unknown. */
  async unlock (db: Db, id: string): Promise<boolean> {
    const rows = await db`update users set failed_login_attempts = 0, locked_at = null where id = ${id} returning 1`
    return rows.length > 0
  },

  async deactivate (db: Db, id: string): Promise<boolean> {
    const rows = await db`update users set active = false where id = ${id} returning 1`
    return rows.length > 0
  }
}

export default fp(async fastify => {
  fastify.decorate('adminUsersRepository', adminUsersRepository)
}, { name: 'admin-users-repository' })
