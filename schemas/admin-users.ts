// The admin API's user moderation: list and inspect accounts, change their state, ban, unban, unlock.
import { Type, type Static } from 'typebox'
import { users } from '../db/schema/users.js'
import { pick, tableColumns } from './columns.js'
import { DateTime, Id, Nullable, Pagination, PaginationQuery, ref, StringEnum } from './common.js'

/**
 * An account's state as admins see it, strongest first: `banned`, then `deactivated`, then `locked` (too many failed
 * sign-ins, for 15 minutes), otherwise `active`.
 */
export const ADMIN_USER_STATUSES = ['active', 'deactivated', 'banned', 'locked'] as const
export type AdminUserStatus = typeof ADMIN_USER_STATUSES[number]

export const AdminUserParams = Type.Object({ userId: Id })

export const AdminUserQuery = Type.Object({
  ...PaginationQuery.properties,
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Part of the username or email (case-insensitive)' })),
  status: Type.Optional(StringEnum(ADMIN_USER_STATUSES, {
    description: 'The account\'s state: banned, deactivated (not banned), locked (active, not banned, locked after failed sign-ins) or active (none of these)'
  })),
  planId: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: 'Plan id, e.g. free, premium' })),
  verified: Type.Optional(Type.Boolean())
})
export type AdminUserQueryInput = Static<typeof AdminUserQuery>
export type AdminUserFilters = Omit<AdminUserQueryInput, 'page' | 'limit'>

const user = tableColumns(users)

const summaryFields = {
  ...pick(user, ['id', 'email', 'username', 'firstName', 'lastName']),
  status: StringEnum(ADMIN_USER_STATUSES, { description: 'banned, else deactivated, else locked, else active' }),
  ...pick(user, ['active', 'verified', 'planId', 'bannedAt'], { active: 'false: deactivated (cannot sign in, tokens refused)' }),
  lockedUntil: Nullable(DateTime, { description: 'When the sign-in lock ends; null when not locked' }),
  ...pick(user, ['lastLoginAt', 'createdAt'])
}

export const AdminUser = Type.Object(summaryFields, { $id: 'AdminUser', description: 'An account as admins see it in lists' })
export type AdminUserView = Static<typeof AdminUser>

export const AdminUserDetail = Type.Object({
  ...summaryFields,
  ...pick(user, ['banReason', 'failedLoginAttempts', 'emailVerifiedAt', 'oauthProvider'], {
    failedLoginAttempts: Type.Integer({ minimum: 0, description: 'Failed sign-ins in the current series (5 lock the account)' }),
    oauthProvider: 'External sign-in provider linked to the account'
  }),
  _count: Type.Object({
    recipes: Type.Integer({ minimum: 0, description: 'All of the user\'s recipes, drafts and hidden ones included' }),
    followers: Type.Integer({ minimum: 0 }),
    following: Type.Integer({ minimum: 0 }),
    comments: Type.Integer({ minimum: 0 }),
    openReports: Type.Integer({ minimum: 0, description: 'Reports against this user not yet resolved' })
  })
}, { $id: 'AdminUserDetail', description: 'An account with its moderation state and activity counts' })
export type AdminUserDetailView = Static<typeof AdminUserDetail>

export const AdminUserList = Type.Object({
  users: Type.Array(ref(AdminUser)),
  pagination: ref(Pagination)
}, { description: 'Accounts, newest first' })

export const AdminUserResponse = Type.Object({ user: ref(AdminUserDetail) })

export const AdminUserPatchBody = Type.Object({
  active: Type.Optional(Type.Boolean({ description: 'false deactivates: sign-in refused (403) and every token stops working at once' })),
  verified: Type.Optional(Type.Boolean({ description: 'The verified badge on the public profile' })),
  planId: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: 'An existing plan\'s id (400 otherwise)' }))
})
export type AdminUserPatch = Static<typeof AdminUserPatchBody>

export const AdminBanBody = Type.Object({
  reason: Type.String({ minLength: 1, maxLength: 500, pattern: '\\S', description: 'Why; kept on the account for admins' })
})
