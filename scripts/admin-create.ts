// `npm run admin:create -- --email a@example.com --username alice --password '...'`: creates an admin account.
// Uses DATABASE_URL, or the embedded database in DATA_DIR (the running server's, when it is up).
import { parseArgs } from 'node:util'
import Fastify from 'fastify'
import fp from 'fastify-plugin'
import app from '../app.js'
import { loadConfig } from '../config.js'
import { prepareDatabase } from '../db/database.js'
import { runningEmbeddedUrl } from '../db/embedded.js'
import { serverOptions } from '../server-options.js'

const { values } = parseArgs({
  options: { email: { type: 'string' }, username: { type: 'string' }, password: { type: 'string' } },
  strict: true
})
const { email, username, password } = values
if (email == null || username == null || password == null) {
  console.error('usage: npm run admin:create -- --email <email> --username <name> --password <12+ characters>')
  process.exit(2)
}

const log = { info: () => {}, warn: (msg: string) => console.warn(msg) }
let config = await loadConfig({ ...process.env, LOG_LEVEL: 'silent' })
const running = config.databaseUrl == null ? await runningEmbeddedUrl(config.dataDir) : null
const database = running != null ? { url: running, stop: async () => {} } : await prepareDatabase(config, log)
config = { ...config, databaseUrl: database.url }

const instance = Fastify(serverOptions(config))
try {
  await instance.register(fp(app), { config, offline: true })
  await instance.ready()
  const admin = await instance.adminAuthService.create({ email, username, password }, null)
  console.log(`admin created: ${admin.username} <${admin.email}> (${admin.id})`)
} catch (err) {
  const body = err as { message?: string, details?: string[] }
  console.error(`admin not created: ${body.message ?? String(err)}${body.details != null ? ` (${body.details.join('; ')})` : ''}`)
  process.exitCode = 1
} finally {
  await instance.close()
  await database.stop()
}
