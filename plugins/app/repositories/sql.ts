// SQL pieces every repository may use: LIKE escaping and the capped count of a filtered list.
import type postgres from 'postgres'
import type { Db } from '../../external/db.js'

/** A piece of SQL built with the caller's handle (`db\`...\``), spliced into another query. */
export type Fragment = postgres.PendingQuery<postgres.Row[]>

/** `text` matched literally inside a LIKE pattern (`%`, `_` and `\` escaped). */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&')

/** How many rows of `from` (a table with its alias) match `where`, counting no further than `cap`. */
export async function countUpTo (db: Db, from: Fragment, where: Fragment, cap: number): Promise<number> {
  const [{ n }] = await db<Array<{ n: number }>>`select count(*)::int as n from (select 1 from ${from} where ${where} limit ${cap}) s`
  return n
}
