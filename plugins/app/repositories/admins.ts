// Admin accounts, their sessions and MFA backup codes. Every check that must hold under concurrent requests (lockout
// reservation, session touch, TOTP step, backup code use) is a single conditional UPDATE whose row count is the answer.
import { createId } from '@paralleldrive/cuid2'
import fp from 'fastify-plugin'
import type { adminSessions, adminUsers } from '../../../db/schema/index.js'
import type { Db } from '../../external/db.js'
import { lockSecondsLeft, releaseLoginAttempt, reserveLoginAttempt } from './lockout.js'
import type { Page } from './recipe-queries.js'
import type { Counted, Flagged } from './sql.js'

declare module 'fastify' {
  interface FastifyInstance {
    adminsRepository: typeof adminsRepository
  }
}

export type AdminRow = typeof adminUsers.$inferSelect
type SessionRow = typeof adminSessions.$inferSelect

/**
 * What the API shows of an admin (never the hash or the secrets). `lockedAt`: when the current lock began (a lock lasts
 * LOCKOUT_SECONDS); null when unlocked.
 */
export type AdminView = Pick<AdminRow, 'id' | 'email' | 'username' | 'active' | 'lockedAt' | 'lastLoginAt' | 'createdAt'> & Flagged<'mfaEnabled'>

export type AdminSessionView = Pick<SessionRow, 'id' | 'ip' | 'userAgent' | 'createdAt' | 'lastSeenAt' | 'expiresAt'>

/** The signed-in admin an admin token stands for. */
export type AdminPrincipal = Pick<AdminRow, 'id' | 'email' | 'username'> & { sessionId: SessionRow['id'] }

const view = (db: Db) => db`id, email, username, active, mfa_secret is not null as mfa_enabled, locked_at, last_login_at, created_at`

export const adminsRepository = {
  async count (db: Db): Promise<number> {
    const [row] = await db<Array<Counted<'count'>>>`select count(*)::int as count from admin_users`
    return row.count
  },

  /** Inserts an admin; null when the email or username is taken. */
  async create (db: Db, row: { email: string, username: string, password: string, createdBy: string | null }): Promise<AdminView | null> {
    const [created] = await db<AdminView[]>`
      insert into admin_users ${db({ id: createId(), ...row })} on conflict do nothing returning ${view(db)}`
    return created ?? null
  },

  /**
   * Creates the first admin only while there is none. Instances starting at once with the same settings race on the
   * unique email, so one row results.
   */
  async createFirst (db: Db, row: { email: string, username: string, password: string }): Promise<AdminView | null> {
    const [created] = await db<AdminView[]>`
      insert into admin_users (id, email, username, password)
      select ${createId()}, ${row.email}, ${row.username}, ${row.password}
      where not exists (select 1 from admin_users)
      on conflict do nothing
      returning ${view(db)}`
    return created ?? null
  },

  async list (db: Db, page: number, limit: number): Promise<Page<AdminView>> {
    const [items, [{ total }]] = await Promise.all([
      db<AdminView[]>`select ${view(db)} from admin_users order by created_at, id limit ${limit} offset ${(page - 1) * limit}`,
      db<Array<Counted<'total'>>>`select count(*)::int as total from admin_users`
    ])
    return { items, total }
  },

  async find (db: Db, id: string): Promise<AdminView | null> {
    const [row] = await db<AdminView[]>`select ${view(db)} from admin_users where id = ${id}`
    return row ?? null
  },

  /** Email lower-cased by the caller, or the username in its exact case. */
  async findForLogin (db: Db, by: { email: string } | { username: string }): Promise<AdminRow | null> {
    const where = 'email' in by ? db`email = ${by.email}` : db`username = ${by.username}`
    const [row] = await db<AdminRow[]>`select * from admin_users where ${where}`
    return row ?? null
  },

  async credentials (db: Db, id: string): Promise<AdminRow | null> {
    const [row] = await db<AdminRow[]>`select * from admin_users where id = ${id}`
    return row ?? null
  },

  /** As for users (lockout.ts): one reserved attempt, or null while the account is locked. */
  reserveLoginAttempt: async (db: Db, id: string, maxAttempts: number, lockSeconds: number) =>
    await reserveLoginAttempt(db, 'admin_users', id, maxAttempts, lockSeconds),

  /** Gives back a reserved attempt that was not a failure (the right password), with the lock it may have set. */
  releaseLoginAttempt: async (db: Db, id: string, maxAttempts: number, lockSeconds: number) =>
    await releaseLoginAttempt(db, 'admin_users', id, maxAttempts, lockSeconds),

  lockSecondsLeft: async (db: Db, id: string, lockSeconds: number) => await lockSecondsLeft(db, 'admin_users', id, lockSeconds),

  /** Ends a lock and its series of failures (another admin's action); false when there is no such admin. */
  async unlock (db: Db, id: string): Promise<boolean> {
    const rows = await db`update admin_users set failed_login_attempts = 0, locked_at = null where id = ${id} returning 1`
    return rows.length > 0
  },

  async loginSucceeded (db: Db, id: string): Promise<void> {
    await db`update admin_users set failed_login_attempts = 0, locked_at = null, last_login_at = now() where id = ${id}`
  },

  /** Accepts a TOTP time step once: true only for the first caller with a step above the last accepted one. */
  async useTotpStep (db: Db, id: string, step: number): Promise<boolean> {
    const rows = await db`update admin_users set mfa_last_step = ${step}
      where id = ${id} and (mfa_last_step is null or mfa_last_step < ${step}) returning 1`
    return rows.length > 0
  },

  /** Marks a backup code used; true only for the first use. */
  async useBackupCode (db: Db, adminId: string, codeHash: string): Promise<boolean> {
    const rows = await db`update admin_backup_codes set used_at = now()
      where admin_id = ${adminId} and code_hash = ${codeHash} and used_at is null returning 1`
    return rows.length > 0
  },

  async setPendingMfaSecret (db: Db, id: string, sealed: string): Promise<void> {
    await db`update admin_users set mfa_pending_secret = ${sealed} where id = ${id}`
  },

  /** Turns the pending secret on with its backup codes; false when MFA was enabled meanwhile. */
  async enableMfa (db: Db, id: string, sealed: string, step: number, codeHashes: string[]): Promise<boolean> {
    const rows = await db`update admin_users set mfa_secret = ${sealed}, mfa_pending_secret = null, mfa_last_step = ${step}
      where id = ${id} and mfa_secret is null returning 1`
    if (rows.length === 0) return false
    await db`delete from admin_backup_codes where admin_id = ${id}`
    await db`insert into admin_backup_codes ${db(codeHashes.map(codeHash => ({ adminId: id, codeHash })))}`
    return true
  },

  async disableMfa (db: Db, id: string): Promise<void> {
    await db`update admin_users set mfa_secret = null, mfa_pending_secret = null, mfa_last_step = null where id = ${id}`
    await db`delete from admin_backup_codes where admin_id = ${id}`
  },

  async unusedBackupCodes (db: Db, id: string): Promise<number> {
    const [row] = await db<Array<Counted<'count'>>>`select count(*)::int as count from admin_backup_codes where admin_id = ${id} and used_at is null`
    return row.count
  },

  async setPassword (db: Db, id: string, hash: string): Promise<void> {
    await db`update admin_users set password = ${hash}, password_changed_at = now(), failed_login_attempts = 0, locked_at = null where id = ${id}`
  },

  async createSession (db: Db, row: Pick<SessionRow, 'id' | 'adminId' | 'tokenHash' | 'ip' | 'userAgent' | 'expiresAt'>): Promise<void> {
    await db`insert into admin_sessions ${db(row)}`
  },

  /**
   * The admin of a live session: it exists with this token hash, is not revoked, has not expired and was used within
   * `idleSeconds`, and its admin is active. Marks it used, at most once a minute (every admin request would otherwise
   * rewrite the same row). One statement, so it is exact across instances.
   */
  async touchSession (db: Db, sessionId: string, tokenHash: string, idleSeconds: number): Promise<AdminPrincipal | null> {
    const [row] = await db<AdminPrincipal[]>`
      with live as (
        select s.id as session_id, s.last_seen_at, a.id, a.email, a.username
        from admin_sessions s join admin_users a on a.id = s.admin_id
        where s.id = ${sessionId} and s.token_hash = ${tokenHash} and a.active
          and s.revoked_at is null and s.expires_at > now() and s.last_seen_at > now() - make_interval(secs => ${idleSeconds})
      ), touched as (
        update admin_sessions s set last_seen_at = now() from live
        where s.id = live.session_id and live.last_seen_at < now() - interval '1 minute'
      )
      select id, email, username, session_id from live`
    return row ?? null
  },

  /** The admin's live sessions, newest first. */
  async sessions (db: Db, adminId: string, idleSeconds: number): Promise<AdminSessionView[]> {
    return await db<AdminSessionView[]>`
      select id, ip, user_agent, created_at, last_seen_at, expires_at from admin_sessions
      where admin_id = ${adminId} and revoked_at is null and expires_at > now()
        and last_seen_at > now() - make_interval(secs => ${idleSeconds})
      order by created_at desc, id limit 100`
  },

  /** Revokes one of the admin's sessions; false when it is not theirs or already revoked. */
  async revokeSession (db: Db, adminId: string, sessionId: string): Promise<boolean> {
    const rows = await db`update admin_sessions set revoked_at = now()
      where id = ${sessionId} and admin_id = ${adminId} and revoked_at is null returning 1`
    return rows.length > 0
  },

  /** Revokes every session of the admin except `keep`. */
  async revokeOtherSessions (db: Db, adminId: string, keep: string | null): Promise<void> {
    await db`update admin_sessions set revoked_at = now()
      where admin_id = ${adminId} and revoked_at is null and id is distinct from ${keep}`
  },

  /** Sessions that ended more than a day ago are of no use to anyone; deletes up to `limit` of them. */
  async purgeEnded (db: Db, limit: number): Promise<number> {
    const rows = await db`delete from admin_sessions where id in (
      select id from admin_sessions where expires_at < now() - interval '1 day' limit ${limit}) returning 1`
    return rows.length
  }
}

export default fp(async fastify => {
  fastify.decorate('adminsRepository', adminsRepository)
}, { name: 'admins-repository' })
