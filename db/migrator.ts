// Applies the committed drizzle-kit migrations under an advisory lock, so instances starting together do not race.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { drizzle } from 'drizzle-orm/postgres-js'
import { migrate } from 'drizzle-orm/postgres-js/migrator'
import postgres from 'postgres'

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')

// Any constant shared by every instance of this service (fits a PostgreSQL bigint and a JS safe integer).
const MIGRATION_LOCK_ID = 7_265_636_970_657

export async function runMigrations (url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_ID})`
    try {
      await migrate(drizzle({ client: sql }), { migrationsFolder: MIGRATIONS_DIR })
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`
    }
  } finally {
    await sql.end({ timeout: 5 })
  }
}
