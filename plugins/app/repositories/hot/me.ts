// The own profile: with the session check in one statement (GET /api/auth/me), or alone (the login's answer).
import type { UserSelfView } from '../../../../schemas/users.js'
import type { Db } from '../../../external/db.js'
import { followerCount, followingCount, mapSelf, type SelfRow } from '../user-views.js'
import { sessionsWith, type SessionKey, type SessionState } from './session.js'
import { reusedPart } from './sql.js'

/** The own profile's columns of `users u`: userColumns as its owner sees them (every one of their recipes counts). */
const selfColumns = reusedPart(1, (db: Db) => db`
  u.id, u.username, u.first_name, u.last_name, u.bio, u.location, u.avatar_url, u.verified, u.created_at,
  (select count(*) from recipes r where r.author_id = u.id)::int as recipe_count,
  ${followerCount(db)} as follower_count, ${followingCount(db)} as following_count,
  u.plan_id, u.updated_at`)

/** Session checks and each one's own profile in one statement (one round trip, not two). bench: me. */
export async function selfSessions (db: Db, checks: SessionKey[]): Promise<Array<{ session: SessionState, value: UserSelfView } | null>> {
  return await sessionsWith(db, checks, selfColumns(db), mapSelf)
}

/** The own profile. bench: login (the answer's user). */
export async function self (db: Db, id: string): Promise<UserSelfView | null> {
  const [row] = await db<SelfRow[]>`
      select ${selfColumns(db)}, u.email from users u where u.id = ${id}`
  return row == null ? null : mapSelf(row)
}
