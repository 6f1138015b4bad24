// Sign-in's reads and writes of the account (the lockout's are lockout.ts).
import type { users } from '../../../../db/schema/index.js'
import type { Db } from '../../../external/db.js'

type UserRow = typeof users.$inferSelect

/** An account as sign-in sees it, with its password hash. */
export type LoginRow = Pick<UserRow, 'id' | 'email' | 'username' | 'active' | 'bannedAt' | 'tokenVersion' | 'password'>

/** The account of an email or a username key. bench: login (also OAuth sign-in and password reset). */
export async function findForLogin (db: Db, by: { email: string } | { usernameKey: string }): Promise<LoginRow | null> {
  const where = 'email' in by ? db`email = ${by.email}` : db`username_key = ${by.usernameKey}`
  const [row] = await db<LoginRow[]>`
      select id, email, username, password, active, banned_at, token_version from users where ${where}`
  return row ?? null
}

/** Clears the failed attempts and lock, and records the time. bench: login. */
export async function recordSuccessfulLogin (db: Db, id: string): Promise<void> {
  await db`update users set failed_login_attempts = 0, locked_at = null, last_login_at = now() where id = ${id}`
}
