import { sql } from 'drizzle-orm'
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { createdAt, id, timestamptz, updatedAt } from './columns.js'

/** Operators of the admin API: a table of their own, never a flag on `users`. */
export const adminUsers = pgTable('admin_users', {
  id: id(),
  /** Lower-cased; sign-in by email is case-insensitive, by username exact. */
  email: text('email').notNull(),
  username: text('username').notNull(),
  password: text('password').notNull(),
  active: boolean('active').notNull().default(true),
  /** The TOTP secret (AES-256-GCM, `lib/secret-box.ts`) once MFA is enabled. */
  mfaSecret: text('mfa_secret'),
  /** A secret from `mfa/setup` waiting for its first code (`mfa/enable`); encrypted the same way. */
  mfaPendingSecret: text('mfa_pending_secret'),
  /** The last TOTP time step accepted (unix time / 30: an integer until the year 4010): a code is never accepted twice (the update that moves it is the check). */
  mfaLastStep: integer('mfa_last_step'),
  failedLoginAttempts: integer('failed_login_attempts').notNull().default(0),
  /** When the failures happened, oldest first; the last `failedLoginAttempts` are the current series (repositories/lockout.ts). */
  failedLoginTimes: timestamptz('failed_login_times').array().notNull().default(sql`'{}'`),
  lockedAt: timestamptz('locked_at'),
  lastLoginAt: timestamptz('last_login_at'),
  passwordChangedAt: timestamptz('password_changed_at'),
  createdBy: text('created_by'),
  createdAt: createdAt(),
  updatedAt: updatedAt()
}, t => [
  uniqueIndex('admin_users_email_key').on(t.email),
  uniqueIndex('admin_users_username_key').on(t.username)
])

/** MFA backup codes: HMAC-SHA256 of each code, single use (`used_at` set by the update that accepts it). */
export const adminBackupCodes = pgTable('admin_backup_codes', {
  adminId: text('admin_id').notNull().references(() => adminUsers.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull(),
  usedAt: timestamptz('used_at'),
  createdAt: createdAt()
}, t => [primaryKey({ columns: [t.adminId, t.codeHash] })])

/** One row per admin sign-in: the token is bound to it (by hash), so logout and revocation take effect at once. */
export const adminSessions = pgTable('admin_sessions', {
  id: id(),
  adminId: text('admin_id').notNull().references(() => adminUsers.id, { onDelete: 'cascade' }),
  /** SHA-256 of the JWT. */
  tokenHash: text('token_hash').notNull(),
  ip: text('ip'),
  userAgent: text('user_agent'),
  createdAt: createdAt(),
  lastSeenAt: timestamptz('last_seen_at').notNull().defaultNow(),
  expiresAt: timestamptz('expires_at').notNull(),
  revokedAt: timestamptz('revoked_at')
}, t => [
  index('admin_sessions_admin_idx').on(t.adminId, t.createdAt)
])

/** Every request to /api/admin, as answered; bodies are stored with secret fields redacted. */
export const adminAuditLogs = pgTable('admin_audit_logs', {
  id: id(),
  /** Null for requests no admin was signed in for (failed sign-ins, refused tokens). */
  adminId: text('admin_id').references(() => adminUsers.id, { onDelete: 'set null' }),
  /** The route's operationId (`admin.users.ban`), or the method and route pattern when it has none. */
  action: text('action').notNull(),
  method: text('method').notNull(),
  path: text('path').notNull(),
  body: jsonb('body'),
  ip: text('ip'),
  userAgent: text('user_agent'),
  status: integer('status').notNull(),
  createdAt: createdAt()
}, t => [
  index('admin_audit_logs_created_idx').on(t.createdAt, t.id),
  index('admin_audit_logs_admin_idx').on(t.adminId, t.createdAt).where(sql`${t.adminId} is not null`),
  index('admin_audit_logs_action_idx').on(t.action, t.createdAt)
])
