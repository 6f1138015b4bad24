// Where the process gets its database: DATABASE_URL, or an embedded PostgreSQL in DATA_DIR.
import type { Config } from '../config.js'
import { startEmbeddedPostgres } from './embedded.js'
import { runMigrations } from './migrator.js'

export interface ProcessDatabase {
  url: string
  embedded: boolean
  stop: () => Promise<void>
}

interface Logger { info: (msg: string) => void, warn: (msg: string) => void }

/** Where a database URL points, for the logs: host:port/database, never the credentials. */
export function databaseLocation (url: string): string {
  const parsed = URL.parse(url)
  // Multi-host URLs (host1,host2) are not WHATWG URLs: anything but the raw value, which may hold a password.
  if (parsed == null) return 'the DATABASE_URL hosts'
  return `${parsed.hostname || parsed.searchParams.get('host') || 'localhost'}:${parsed.port || 5432}${parsed.pathname}`
}

export async function openProcessDatabase (config: Config, log: Logger): Promise<ProcessDatabase> {
  if (config.databaseUrl != null) {
    log.info(`Database: external PostgreSQL at ${databaseLocation(config.databaseUrl)}`)
    return { url: config.databaseUrl, embedded: false, stop: async () => {} }
  }
  const embedded = await startEmbeddedPostgres(config.dataDir, log)
  return { url: embedded.url, embedded: true, stop: embedded.stop }
}

/** Opens the database and brings its schema up to date. */
export async function prepareDatabase (config: Config, log: Logger): Promise<ProcessDatabase> {
  const database = await openProcessDatabase(config, log)
  try {
    await runMigrations(database.url)
  } catch (err) {
    await database.stop()
    throw err
  }
  return database
}
