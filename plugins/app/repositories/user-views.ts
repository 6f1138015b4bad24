// A user as others and as their owner see them: the follow counts (hidden users left out) and the mappers of the
// public and own profiles, shared by users.ts and the own profile's measured statements (hot/me.ts).
import type { users } from '../../../db/schema/index.js'
import type { UserSelfView } from '../../../schemas/users.js'
import type { Db } from '../../external/db.js'
import type { Counted, Flagged } from './sql.js'

type UserRow = typeof users.$inferSelect

export type UserViewRow = Pick<UserRow, 'id' | 'username' | 'firstName' | 'lastName' | 'bio' | 'location' | 'avatarUrl' | 'verified' | 'createdAt'> &
  Counted<'recipeCount' | 'followerCount' | 'followingCount'> & Flagged<'isFollowing'>

export type SelfRow = Omit<UserViewRow, 'isFollowing'> & Pick<UserRow, 'email' | 'planId' | 'updatedAt'>

/** `users h` is deactivated or banned: the predicate of users_hidden_idx, written the same so the planner uses it. */
const hiddenUser = (db: Db) => db`(not h.active or h.banned_at is not null)`

/** The followers of `users u` that others see: all edges minus those of hidden users. */
export const followerCount = (db: Db) => db`(u.follower_count - (select count(*) from users h
  join follows f on f.follower_id = h.id and f.following_id = u.id where ${hiddenUser(db)}))::int`

/** Whom `users u` follows, as others see it: all edges minus those to hidden users. */
export const followingCount = (db: Db) => db`(u.following_count - (select count(*) from users h
  join follows f on f.following_id = h.id and f.follower_id = u.id where ${hiddenUser(db)}))::int`

export function publicFields (row: Omit<UserViewRow, 'isFollowing'>) {
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

export const mapSelf = (row: SelfRow): UserSelfView =>
  ({ ...publicFields(row), email: row.email, plan: row.planId, updatedAt: row.updatedAt.toISOString() })
