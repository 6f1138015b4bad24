// Strict session checks: the user's state and whether the token is revoked, read in one statement, alone (batched
// per instance), beside a route's answer (`sessionRead`) or inside a write (`sessionInStatement`), plugins/app/auth.ts.
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

/** A strict check: the user and the token (by jti) presented. */
export interface SessionKey { id: string, jti: string }

/**
 * Each check `c` (c.jti, c.n: its place) joined to its user `users u`. The arrays are hidden from the planner:
 * PostgreSQL keeps one generic plan instead of planning each batch for its length (0.1 ms, five times the statement's
 * work).
 */
const checkedUsers = (db: Db, checks: SessionKey[]): Fragment => db`
  unnest(${hiddenValue(db, checks.map(c => c.id), 'text[]')}, ${hiddenValue(db, checks.map(c => c.jti), 'text[]')}) with ordinality as c(id, jti, n)
  join users u on u.id = c.id`

/**
 * Each user's auth state and whether the token `jti` is revoked (null: no such user), for several checks in one
 * statement: one state per check, in order. bench: feed, mixed (every route behind `authenticate` without its own
 * `sessionRead`).
 */
export async function sessionStates (db: Db, checks: SessionKey[]): Promise<Array<SessionState | null>> {
  const rows = await db<Array<SessionState & { n: string }>>`select c.n, ${sessionColumns(db, db`c.jti`)} from ${checkedUsers(db, checks)}`
  const states: Array<SessionState | null> = checks.map(() => null)
  for (const { n, ...state } of rows) states[Number(n) - 1] = state
  return states
}

/**
 * Each check's session state and a route's answer, `answer` of `columns` over `users u`, for several checks in one
 * statement (null: no such user), in order: what a route's `sessionRead` returns (plugins/app/auth.ts batches the
 * checks that arrive together). Measured on M, PostgreSQL's CPU a check of GET /api/auth/me: 80-95 µs alone, 25 in
 * fives, 17 in tens. bench: me, unread-count, push-preferences.
 */
export async function sessionsWith<Row extends object, T> (db: Db, checks: SessionKey[], columns: Fragment,
  answer: (row: Row) => T): Promise<Array<{ session: SessionState, value: T } | null>> {
  const rows = await db<Array<SessionState & Row & { n: string }>>`
      select c.n, ${sessionColumns(db, db`c.jti`)}, ${columns} from ${checkedUsers(db, checks)}`
  const found: Array<{ session: SessionState, value: T } | null> = checks.map(() => null)
  for (const row of rows) found[Number(row.n) - 1] = { session: row, value: answer(row) }
  return found
}
