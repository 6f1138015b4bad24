import { sql } from 'drizzle-orm'
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core'
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
  /** Bumped on every password change or reset: tokens carry it (`ver`), so older ones stop working at once. */
  tokenVersion: integer('token_version').notNull().default(0),
  failedLoginAttempts: integer('failed_login_attempts').notNull().default(0),
  /** When the failures happened, oldest first; the last `failedLoginAttempts` are the current series (repositories/lockout.ts). */
  failedLoginTimes: timestamptz('failed_login_times').array().notNull().default(sql`'{}'`),
  lockedAt: timestamptz('locked_at'),
  bannedAt: timestamptz('banned_at'),
  banReason: text('ban_reason'),
  lastLoginAt: timestamptz('last_login_at'),
  emailPreferences: jsonb('email_preferences').$type<Record<string, unknown>>().notNull().default({}),
  /** When the user opted out of the sale or sharing of their personal information (CCPA do-not-sell); null: not. */
  doNotSellAt: timestamptz('do_not_sell_at'),
  /** Subscription plan key (`free`, `premium`, `family`); changed by admins. */
  planId: text('plan_id').notNull().default('free'),
  /** Follow edges to and from this user, hidden users' included; kept by triggers on follows (migration 0025). */
  followerCount: integer('follower_count').notNull().default(0),
  followingCount: integer('following_count').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt()
}, t => [
  uniqueIndex('users_email_key').on(t.email),
  uniqueIndex('users_username_key_key').on(t.usernameKey),
  uniqueIndex('users_oauth_key').on(t.oauthProvider, t.oauthId).where(sql`${t.oauthProvider} is not null`),
  index('users_username_trgm_idx').using('gin', t.usernameKey.op('gin_trgm_ops')),
  index('users_updated_at_idx').on(t.updatedAt),
  // The admin user list, newest first.
  index('users_created_at_idx').on(t.createdAt, t.id),
  // The few hidden (deactivated or banned) users: follower counts subtract their edges from an index-only count.
  index('users_hidden_idx').on(t.id).where(sql`not ${t.active} or ${t.bannedAt} is not null`)
])

export const follows = pgTable('follows', {
  followerId: text('follower_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  followingId: text('following_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  createdAt: createdAt()
}, t => [
  primaryKey({ columns: [t.followerId, t.followingId] }),
  index('follows_following_idx').on(t.followingId, t.createdAt),
  index('follows_follower_created_idx').on(t.followerId, t.createdAt),
  index('follows_created_brin_idx').using('brin', t.createdAt),
  check('follows_not_self', sql`${t.followerId} <> ${t.followingId}`)
])

/** Revoked tokens (logout, refresh) until they would have expired anyway; the cache only sits in front of this. */
export const revokedTokens = pgTable('revoked_tokens', {
  jti: text('jti').primaryKey(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamptz('expires_at').notNull()
}, t => [index('revoked_tokens_expires_idx').on(t.expiresAt)])

/**
 * Answers to requests sent with an `Idempotency-Key` (plugins/app/idempotency.ts), per user: a retry of the same
 * request gets the stored answer instead of doing the work again. `statusCode` null while the first is running.
 * Kept 24 hours.
 */
export const idempotencyKeys = pgTable('idempotency_keys', {
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  key: text('key').notNull(),
  /** sha256 of method, URL and body: the same key with another request is refused. */
  fingerprint: text('fingerprint').notNull(),
  statusCode: integer('status_code'),
  response: text('response'),
  createdAt: createdAt()
}, t => [
  primaryKey({ columns: [t.userId, t.key] }),
  index('idempotency_keys_created_idx').on(t.createdAt)
])

export const DIGEST_FREQUENCIES = ['none', 'daily', 'weekly'] as const
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const

/** What a user who never saved notification settings has: the column defaults and the API's answer alike. */
export const NOTIFICATION_SETTINGS_DEFAULTS = {
  emailLikes: true,
  emailComments: true,
  digestFrequency: 'weekly',
  digestDay: 'monday',
  digestTime: '09:00',
  digestTimezone: 'UTC'
} as const satisfies {
  emailLikes: boolean
  emailComments: boolean
  digestFrequency: typeof DIGEST_FREQUENCIES[number]
  digestDay: typeof WEEKDAYS[number]
  digestTime: string
  digestTimezone: string
}

const defaults = NOTIFICATION_SETTINGS_DEFAULTS

export const notificationSettings = pgTable('notification_settings', {
  userId: text('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  emailLikes: boolean('email_likes').notNull().default(defaults.emailLikes),
  emailComments: boolean('email_comments').notNull().default(defaults.emailComments),
  digestFrequency: text('digest_frequency').$type<typeof DIGEST_FREQUENCIES[number]>().notNull().default(defaults.digestFrequency),
  digestDay: text('digest_day').$type<typeof WEEKDAYS[number]>().notNull().default(defaults.digestDay),
  digestTime: text('digest_time').notNull().default(defaults.digestTime),
  digestTimezone: text('digest_timezone').notNull().default(defaults.digestTimezone),
  updatedAt: updatedAt()
})
