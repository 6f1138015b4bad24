// SQL pieces every repository may use: row types of aggregates, LIKE escaping and the capped count of a filtered list.
// The parts of the measured statements (reused parts, hidden values, quick commits) are hot/sql.ts, for hot/ alone.
import type postgres from 'postgres'
import type { Db } from '../../external/db.js'

/** A piece of SQL built with the caller's handle (`db\`...\``), spliced into another query. */
export type Fragment = postgres.PendingQuery<postgres.Row[]>

/** The row of an aggregate, e.g. `count(*)::int as total` is `Counted<'total'>`. */
export type Counted<K extends string> = Record<K, number>

/** The row of boolean expressions, e.g. `exists (...) as found` is `Flagged<'found'>`. */
export type Flagged<K extends string> = Record<K, boolean>

/** `text` matched literally inside a LIKE pattern (`%`, `_` and `\` escaped). */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&')

/** How many rows of `from` (a table with its alias) match `where`, counting no further than `cap`. */
export async function countUpTo (db: Db, from: Fragment, where: Fragment, cap: number): Promise<number> {
  const [{ n }] = await db<Array<Counted<'n'>>>`select count(*)::int as n from (select 1 from ${from} where ${where} limit ${cap}) s`
  return n
}
