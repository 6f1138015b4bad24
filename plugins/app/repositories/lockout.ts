// Account lockout (5 failures lock for 15 minutes), the same for users and admins: both tables carry
// failed_login_attempts and locked_at.
import type { Db } from '../../external/db.js'

type AccountTable = 'users' | 'admin_users'

/**
 * Reserves one password attempt before the password is compared, in one statement (exact under concurrency):
 * returns its number in the current series, or null when the account is locked (nothing reserved). The
 * `maxAttempts`-th reservation sets the lock; a lock older than `lockSeconds` has expired and a new series starts.
 */
export async function reserveLoginAttempt (db: Db, table: AccountTable, id: string, maxAttempts: number, lockSeconds: number): Promise<number | null> {
  const [row] = await db<Array<{ failedLoginAttempts: number }>>`
    update ${db(table)} set
      failed_login_attempts = case when locked_at is null then failed_login_attempts + 1 else 1 end,
      locked_at = case when (case when locked_at is null then failed_login_attempts + 1 else 1 end) >= ${maxAttempts}
        then now() else null end
    where id = ${id} and (locked_at is null or locked_at <= now() - make_interval(secs => ${lockSeconds}))
    returning failed_login_attempts`
  return row?.failedLoginAttempts ?? null
}

/** Seconds until the account's lock ends (null: not locked). */
export async function lockSecondsLeft (db: Db, table: AccountTable, id: string, lockSeconds: number): Promise<number | null> {
  const [row] = await db<Array<{ secondsLeft: number | null }>>`
    select ceil(extract(epoch from locked_at + make_interval(secs => ${lockSeconds}) - now()))::int as seconds_left
    from ${db(table)} where id = ${id}`
  return row?.secondsLeft == null || row.secondsLeft <= 0 ? null : row.secondsLeft
}
