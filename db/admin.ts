// Cluster-level operations (create, clone, drop databases) on a maintenance connection.
import postgres from 'postgres'

/** Runs `fn` on a single short-lived connection to `url`. */
export async function withConnection<T> (url: string, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 })
  try {
    return await fn(sql)
  } finally {
    await sql.end({ timeout: 5 })
  }
}

export async function createDatabaseIfMissing (maintenanceUrl: string, name: string, template?: string): Promise<void> {
  await withConnection(maintenanceUrl, async sql => {
    const [exists] = await sql`select 1 from pg_database where datname = ${name}`
    if (exists != null) return
    await sql`create database ${sql(name)} ${template != null ? sql`template ${sql(template)}` : sql``}`
      .catch((err: { code?: string }) => { if (err.code !== '42P04') throw err })
  })
}

export async function dropDatabase (maintenanceUrl: string, name: string): Promise<void> {
  await withConnection(maintenanceUrl, async sql => {
    await sql`drop database if exists ${sql(name)} with (force)`
  })
}

/** The same server's URL with another database name. */
export function databaseUrl (url: string, database: string): string {
  const parsed = new URL(url)
  parsed.pathname = `/${database}`
  return parsed.toString()
}
