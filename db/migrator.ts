// Applies the committed drizzle-kit migrations, and the job queue's own schema, under an advisory lock, so instances
// starting together do not race.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { drizzle } from 'drizzle-orm/postgres-js'
import { migrate } from 'drizzle-orm/postgres-js/migrator'
import PgBoss from 'pg-boss'
import postgres from 'postgres'

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')

// Any constant shared by every instance of this service (fits a PostgreSQL bigint and a JS safe integer).
const MIGRATION_LOCK_ID = 7_265_636_970_657

/** pg-boss creates or upgrades its `pgboss` schema when it starts with `migrate` on. */
async function migrateQueue (url: string): Promise<void> {
  const boss = new PgBoss({ connectionString: url, max: 1, supervise: false, schedule: false })
  await boss.start()
  await boss.stop({ graceful: false, wait: true })
}

export async function runMigrations (url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_ID})`
    try {
      await migrate(drizzle({ client: sql }), { migrationsFolder: MIGRATIONS_DIR })
      await migrateQueue(url)
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`
    }
  } finally {
    await sql.end({ timeout: 5 })
  }
}
