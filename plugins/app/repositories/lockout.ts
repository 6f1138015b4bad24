// Account lockout (5 failures within 15 minutes lock for 15 minutes), the same for users and admins: both tables carry
// failed_login_attempts (the length of the current series), failed_login_times (when its failures happened, oldest
// first) and locked_at. Only the last `failed_login_attempts` times belong to the series, so every statement that
// resets the counter to 0 (a success, a password reset, an admin's unlock) also ends the series without touching the
// times.
import type { users } from '../../../db/schema/index.js'
import type { Db } from '../../external/db.js'
import type { Counted } from './sql.js'

type AccountTable = 'users' | 'admin_users'

/** The failures of the current series that happened within the last `seconds`, oldest first (an array expression). */
function recentFailures (db: Db, seconds: number) {
  return db`array(
    select f.at from unnest(failed_login_times) with ordinality as f(at, n)
    where f.n > cardinality(failed_login_times) - failed_login_attempts
      and f.at > now() - make_interval(secs => ${seconds})
    order by f.n)`
}

/**
 * Reserves one password attempt before the password is compared, in one statement (exact under concurrency):
 * returns its number in the current series, or null when the account is locked (nothing reserved). Failures older
 * than `lockSeconds` no longer count; the reservation that makes `maxAttempts` recent ones sets the lock. A lock older
 * than `lockSeconds` has expired and a new series starts (the lock used up the failures that set it).
 */
export async function reserveLoginAttempt (db: Db, table: AccountTable, id: string, maxAttempts: number, lockSeconds: number): Promise<number | null> {
  const series = () => db`case when locked_at is null then ${recentFailures(db, lockSeconds)} else '{}' end`
  const [row] = await db<Array<Pick<typeof users.$inferSelect, 'failedLoginAttempts'>>>`
    update ${db(table)} set
      failed_login_times = ${series()} || now(),
      failed_login_attempts = cardinality(${series()}) + 1,
      locked_at = case when cardinality(${series()}) + 1 >= ${maxAttempts} then now() else null end
    where id = ${id} and (locked_at is null or locked_at <= now() - make_interval(secs => ${lockSeconds}))
    returning failed_login_attempts`
  return row?.failedLoginAttempts ?? null
}

/**
 * Gives back a reserved attempt that turned out not to be a failure (the right password), with the lock it set: a
 * lock stays only while `maxAttempts` recent failures remain without it. The newest time goes, whichever reservation
 * wrote it: the count is the same.
 */
export async function releaseLoginAttempt (db: Db, table: AccountTable, id: string, maxAttempts: number, lockSeconds: number): Promise<void> {
  await db`
    update ${db(table)} set
      failed_login_times = failed_login_times[1:cardinality(failed_login_times) - 1],
      failed_login_attempts = failed_login_attempts - 1,
      locked_at = case when cardinality(${recentFailures(db, lockSeconds)}) - 1 >= ${maxAttempts} then locked_at end
    where id = ${id} and failed_login_attempts > 0`
}

/** Seconds until the account's lock ends (null: not locked). */
export async function lockSecondsLeft (db: Db, table: AccountTable, id: string, lockSeconds: number): Promise<number | null> {
  // 0 when not locked (a null locked_at), which reads as no lock like any elapsed one.
  const [row] = await db<Array<Counted<'secondsLeft'>>>`
    select coalesce(ceil(extract(epoch from locked_at + make_interval(secs => ${lockSeconds}) - now())), 0)::int as seconds_left
    from ${db(table)} where id = ${id}`
  return row == null || row.secondsLeft <= 0 ? null : row.secondsLeft
}
