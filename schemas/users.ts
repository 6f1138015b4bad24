// Public and own user shapes; registered once and referenced by name.
import { Type } from 'typebox'
import { DateTime, Id } from './common.js'

export const TEXT_LIMITS = { firstName: 100, lastName: 100, bio: 2000, location: 200 } as const

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()])

const Counts = Type.Object({
  recipes: Type.Integer({ minimum: 0 }),
  followers: Type.Integer({ minimum: 0 }),
  following: Type.Integer({ minimum: 0 })
})

const publicFields = {
  id: Id,
  username: Type.String(),
  firstName: Nullable(Type.String()),
  lastName: Nullable(Type.String()),
  bio: Nullable(Type.String()),
  location: Nullable(Type.String()),
  avatarUrl: Nullable(Type.String()),
  verified: Type.Boolean(),
  createdAt: DateTime,
  _count: Counts
}

export const UserPublic = Type.Object({
  ...publicFields,
  isFollowing: Type.Boolean({ description: 'Whether the caller follows this user (false when anonymous)' })
}, { $id: 'UserPublic', description: 'A user as anyone may see them: never an email address or a secret' })

export const UserSelf = Type.Object({
  ...publicFields,
  email: Type.String({ format: 'email' }),
  plan: Type.String({ description: 'Subscription plan key' }),
  updatedAt: DateTime
}, { $id: 'UserSelf', description: 'The caller\'s own account' })

export const USER_SCHEMAS = [UserPublic, UserSelf]
