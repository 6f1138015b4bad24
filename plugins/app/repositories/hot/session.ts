// Strict session checks: the user's state and whether the token is revoked, read in one statement, alone (batched
// per instance), beside a route's answer (`sessionRead`) or inside a write (`sessionInStatement`), plugins/app/auth.ts.
import type postgres from 'postgres'
import type { users } from '../../../../db/schema/index.js'
import type { Db } from '../../../external/db.js'
import type { Fragment } from '../sql.js'
import { hiddenValue } from './sql.js'

type UserRow = typeof users.$inferSelect

/** What issuing a token and checking one need; JSON-safe, so it can be cached. */
export interface AuthState extends Pick<UserRow, 'id' | 'email' | 'username' | 'active' | 'tokenVersion'> {
  banned: boolean
}

/** The auth state plus whether the presented token (by jti) is revoked: what a strict check reads. */
export type SessionState = AuthState & { revoked: boolean }

/** A token whose session a route's own statement checks (`sessionValid`): its user, id and token version. */
export interface SessionCheck { userId: string, jti: string, ver: number }

/** Whether the token `jti` is revoked. */
const revoked = (db: Db, jti: string | Fragment) => db`exists (select 1 from revoked_tokens t where t.jti = ${jti})`

/** `users u` as a strict auth check sees it, and whether the token `jti` is revoked. */
const sessionColumns = (db: Db, jti: string | Fragment) => db`
  u.id, u.email, u.username, u.active, u.banned_at is not null as banned, u.token_version, ${revoked(db, jti)} as revoked`

/**
 * Whether the token `jti`, issued at token version `ver`, is a valid session of user `u` now: the rule of `passes` in
 * plugins/app/auth.ts, for statements that check the session themselves (`sessionInStatement`). Null when there is
 * no such user (left join): test it with `coalesce(..., false)` or `is true`. bench: like-storm, mixed (likes.ts).
 */
export const sessionValid = (db: Db, jti: Fragment, ver: Fragment): Fragment => db`
  (u.active and u.banned_at is null and u.token_version = ${ver} and not ${revoked(db, jti)})`

/**
 * The session state of user `id` and token `jti` and a route's answer, `answer` of `columns` over `users u`, in one
 * statement: what a route's `sessionRead` returns (plugins/app/auth.ts). bench: me, unread-count, push-preferences.
 */
export async function sessionWith<Row extends object, T> (db: Db, id: string, jti: string, columns: postgres.PendingQuery<postgres.Row[]>,
  answer: (row: Row) => T): Promise<{ session: SessionState, value: T } | null> {
  const [row] = await db<Array<SessionState & Row>>`select ${sessionColumns(db, jti)}, ${columns} from users u where u.id = ${id}`
  return row == null ? null : { session: row, value: answer(row) }
}

/**
 * Each user's auth state and whether the token `jti` is revoked (null: no such user), for several checks in one
 * statement: one state per check, in order. The arrays are hidden from the planner: PostgreSQL keeps one generic
 * plan instead of planning each batch for its length (0.1 ms, five times the statement's work).
 * bench: feed, mixed (every route behind `authenticate` without its own `sessionRead`).
 */
export async function sessionStates (db: Db, checks: Array<{ id: string, jti: string }>): Promise<Array<SessionState | null>> {
  const rows = await db<Array<SessionState & { n: string }>>`
      select c.n, ${sessionColumns(db, db`c.jti`)}
      from unnest(${hiddenValue(db, checks.map(c => c.id), 'text[]')}, ${hiddenValue(db, checks.map(c => c.jti), 'text[]')}) with ordinality as c(id, jti, n)
      join users u on u.id = c.id`
  const states: Array<SessionState | null> = checks.map(() => null)
  for (const { n, ...state } of rows) states[Number(n) - 1] = state
  return states
}
