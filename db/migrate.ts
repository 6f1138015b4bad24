// `npm run db:migrate`: applies migrations to DATABASE_URL (or the embedded database in DATA_DIR).
import { loadConfig } from '../config.js'
import { prepareDatabase } from './database.js'

const log = { info: (msg: string) => console.log(msg), warn: (msg: string) => console.warn(msg) }

try {
  const database = await prepareDatabase(await loadConfig(), log)
  await database.stop()
  console.log('migrations applied')
} catch (err) {
  console.error(err instanceof Error ? err.message : err)
  process.exitCode = 1
}
