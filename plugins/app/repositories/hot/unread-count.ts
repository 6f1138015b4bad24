// The unread count every client polls, read with the session check in one statement.
import type { Db } from '../../../external/db.js'
import { countShown } from '../notification-visibility.js'
import { sessionWith, type SessionState } from './session.js'
import { reusedPart } from './sql.js'

/** Unread notifications shown to `users u`; built once per handle (the polled statement's only notification part). */
const unreadCountColumn = reusedPart(1, (db: Db) =>
  db`${countShown(db, db`n.user_id = u.id and not n.read`, db`u.id`)} as unread_count`)

/** The unread count read with the session check (the route's `sessionRead`). bench: unread-count. */
export async function unreadCountSession (db: Db, userId: string, jti: string): Promise<{ session: SessionState, value: number } | null> {
  return await sessionWith(db, userId, jti, unreadCountColumn(db), (row: { unreadCount: number }) => row.unreadCount)
}
