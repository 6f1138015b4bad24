// The unread count every client polls, read with the session check in one statement.
import type { Db } from '../../../external/db.js'
import { countShown } from '../notification-visibility.js'
import { sessionsWith, type SessionKey, type SessionState } from './session.js'
import { reusedPart } from './sql.js'

/** Unread notifications shown to `users u`; built once per handle (the polled statement's only notification part). */
const unreadCountColumn = reusedPart(1, (db: Db) =>
  db`${countShown(db, db`n.user_id = u.id and not n.read`, db`u.id`)} as unread_count`)

/** Unread counts read with their session checks (the route's `sessionRead`). bench: unread-count. */
export async function unreadCountSessions (db: Db, checks: SessionKey[]): Promise<Array<{ session: SessionState, value: number } | null>> {
  return await sessionsWith(db, checks, unreadCountColumn(db), (row: { unreadCount: number }) => row.unreadCount)
}
