import { sql } from 'drizzle-orm'
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { createdAt, id, timestamptz, updatedAt } from './columns.js'

export const users = pgTable('users', {
  id: id(),
  /** Lower-cased, NFKC-normalised. */
  email: text('email').notNull(),
  username: text('username').notNull(),
  /** NFKC + case-folded username: uniqueness and login lookups are case-insensitive. */
  usernameKey: text('username_key').notNull(),
  password: text('password').notNull(),
  firstName: text('first_name'),
  lastName: text('last_name'),
  bio: text('bio'),
  location: text('location'),
  avatarUrl: text('avatar_url'),
  active: boolean('active').notNull().default(true),
  verified: boolean('verified').notNull().default(false),
  emailVerifiedAt: timestamptz('email_verified_at'),
  oauthProvider: text('oauth_provider'),
  oauthId: text('oauth_id'),
  /** SHA-256 of the reset token; the token itself is only ever in the email. */
  resetToken: text('reset_token'),
  resetTokenExpiry: timestamptz('reset_token_expiry'),
  passwordChangedAt: timestamptz('password_changed_at'),
  failedLoginAttempts: integer('failed_login_attempts').notNull().default(0),
  lockedAt: timestamptz('locked_at'),
  bannedAt: timestamptz('banned_at'),
  banReason: text('ban_reason'),
  lastLoginAt: timestamptz('last_login_at'),
  emailPreferences: jsonb('email_preferences').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: createdAt(),
  updatedAt: updatedAt()
}, t => [
  uniqueIndex('users_email_key').on(t.email),
  uniqueIndex('users_username_key_key').on(t.usernameKey),
  uniqueIndex('users_oauth_key').on(t.oauthProvider, t.oauthId).where(sql`${t.oauthProvider} is not null`),
  index('users_username_trgm_idx').using('gin', t.usernameKey.op('gin_trgm_ops')),
  index('users_updated_at_idx').on(t.updatedAt)
])
