// Rows read as the bytes PostgreSQL sent (postgres.js raw mode): the pages whose JSON PostgreSQL writes.
import type postgres from 'postgres'

/**
 * The first row of a statement in postgres.js's raw mode, by (camelCased) column name: each column as the bytes
 * PostgreSQL sent, never decoded (null for SQL NULL, and for every column when there is no row). For a page's JSON
 * that is sent as it is (lib/raw-json.ts); read the small columns with `text` and `integer`.
 */
export async function bytesRow (query: postgres.PendingQuery<postgres.Row[]>): Promise<Record<string, Buffer | null>> {
  const rows = await query.raw()
  const row = Object.fromEntries(rows.columns.map((column, i) => [column.name, rows[0]?.[i] ?? null]))
  // Emptied, postgres.js's result array no longer holds the socket buffers its columns are views of. Held, they were
  // promoted with it and freed only by full collections: on a list page about 15 kB each, so under load V8 ran a
  // mark-compact every second or two (it counts such external memory against the old generation's limit) and every
  // request in flight waited for its pause (README.md, "Raw-byte rows", says why the array outlives it).
  rows.length = 0
  return row
}

/** A column of bytesRow as text. */
export const text = (bytes: Buffer | null): string | null => bytes?.toString() ?? null

/** A column of bytesRow as a number (SQL NULL as 0). */
export const integer = (bytes: Buffer | null): number => bytes == null ? 0 : Number(bytes.toString())
