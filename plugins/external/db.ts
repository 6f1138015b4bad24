// PostgreSQL through postgres.js: one pool per instance, every query a tagged template (prepared automatically).
// Columns arrive camelCased (`author_id` -> `authorId`) so rows match the Drizzle table types (`$inferSelect`).
import fp from 'fastify-plugin'
import postgres from 'postgres'

/**
 * A database handle: the pool, or the transaction a service opened. Repositories take one on every method, so the
 * caller decides what commits together.
 */
export type Db = postgres.Sql

/** A value for a json/jsonb column (postgres.js's JSONValue type does not admit interfaces such as our views). */
export const json = (db: Db, value: unknown) => db.json(value as postgres.JSONValue)

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
  // request in flight waited for its pause (docs/architecture.md, "Performance rules", says why the array outlives it).
  rows.length = 0
  return row
}

/** A column of bytesRow as text. */
export const text = (bytes: Buffer | null): string | null => bytes?.toString() ?? null

/** A column of bytesRow as a number (SQL NULL as 0). */
export const integer = (bytes: Buffer | null): number => bytes == null ? 0 : Number(bytes.toString())

declare module 'fastify' {
  interface FastifyInstance {
    /** The pool: queries outside any transaction. */
    db: Db
    /** Runs `work` in one transaction: it commits when `work` resolves and rolls back when it throws. */
    transaction: <T>(work: (tx: Db) => Promise<T>) => Promise<T>
  }
}

export default fp(async fastify => {
  const { databaseUrl, dbPoolMax } = fastify.config
  if (databaseUrl == null) throw new Error('databaseUrl must be resolved before the app is built')
  const sql = postgres(databaseUrl, {
    max: dbPoolMax,
    idle_timeout: 60,
    connect_timeout: 10,
    onnotice: () => {},
    // Only column names: json values keep the keys clients sent.
    transform: { column: { from: postgres.toCamel, to: postgres.fromCamel } },
    connection: { application_name: 'recipe-platform', TimeZone: 'UTC' }
  })
  fastify.decorate('db', sql)
  fastify.decorate('transaction', async <T>(work: (tx: Db) => Promise<T>): Promise<T> => {
    // postgres.js types a transaction as a narrower `TransactionSql`; for queries it is the same tagged template.
    return await (sql.begin(async tx => await work(tx as unknown as Db)) as Promise<T>)
  })
  fastify.addHook('onClose', async () => { await sql.end({ timeout: 5 }) })
}, { name: 'db' })
