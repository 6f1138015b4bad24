// The statement parts only hot/ uses (README.md says why each exists and how it was measured): values hidden from the
// planner, parts built once and reused across requests, and commits that do not wait for the WAL flush.
import type { Db } from '../../../external/db.js'
import type { Fragment } from '../sql.js'

/** The SQL types `hiddenValue` casts to (a closed list: the type is spliced into the statement's text). */
type HiddenType = 'text' | 'timestamptz' | 'text[]'

/**
 * A value the planner cannot see: an InitPlan's result, `(select $n::type)`. A statement whose best plan depends on
 * its values (a viewer, a cursor, the length of an array) is otherwise planned anew on every run, because its
 * custom plans look cheaper than the generic one; blind to the value, every plan costs the same and PostgreSQL keeps
 * the generic plan. Indexes still take the value (key lookups). A search's term and offset are hidden the same way,
 * as a CTE in front of a reused statement (searchStatement in recipe-search.ts).
 */
export const hiddenValue = (db: Db, value: string | string[], type: HiddenType): Fragment =>
  // A timestamp goes as text: a timestamptz parameter is serialised by postgres.js through a JS Date, which drops
  // the microseconds a keyset cursor needs (rows of one millisecond were skipped).
  db`(select ${value}::${db.unsafe(type === 'timestamptz' ? 'text::timestamptz' : type)})`

/**
 * A CTE (`quick_commit`) that lets the statement's transaction commit without waiting for its WAL flush
 * (synchronous_commit = off, for that transaction only; read at commit, so it may run anywhere in the statement, but
 * the statement must reference it for it to run at all). For small writes whose loss in a database crash costs little:
 * likes. A crash may lose the last fraction of a second of them, never half of one (the row and its counter are one
 * statement). A row lock is then held for the statement, not for the disk flush: measured with pgbench on one hot
 * recipe, 675 like/unlike pairs a second before, 1,335 after.
 */
export const quickCommit = (db: Db): Fragment =>
  db`quick_commit as materialized (select set_config('synchronous_commit', 'off', true) as setting)`

/**
 * A statement part built once per handle and key, then reused. Each `db`...`` is a postgres.js Query (a Promise
 * subclass); a page statement composes some 25 of them per request, and under load V8 promoted nearly all of them to
 * the old generation, which then needed a full collection every few hundred milliseconds (bench: list p99). A part
 * is only its text and values, never run by itself, so one built part serves every statement on that handle. Only
 * for parts whose values are the same for every request (no viewer, no search term); the arguments are the key
 * (joined), and `keys` bounds the map.
 */
export function reusedPart<A extends Array<string | number>> (keys: number, build: (db: Db, ...args: A) => Fragment): (db: Db, ...args: A) => Fragment {
  const built = new WeakMap<Db, Map<string, Fragment>>()
  return (db, ...args) => {
    let parts = built.get(db)
    if (parts == null) built.set(db, parts = new Map())
    const key = args.join(' ')
    let part = parts.get(key)
    if (part == null && parts.size < keys) parts.set(key, part = build(db, ...args))
    return part ?? build(db, ...args)
  }
}
