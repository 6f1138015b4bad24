// The process: configuration, database, both instances (API and web proxy), graceful shutdown.
import closeWithGrace from 'close-with-grace'
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { pino } from 'pino'
import app from './app.js'
import bff from './bff/app.js'
import { ConfigError, loadConfig, type Config } from './config.js'
import { prepareDatabase, type ProcessDatabase } from './db/database.js'
import { loggerOptions, serverOptions } from './server-options.js'

async function loadConfigOrExit (): Promise<Config> {
  try {
    return await loadConfig()
  } catch (err) {
    // One clear line, no stack: a bad value is an operator mistake, not a crash.
    console.error(err instanceof ConfigError ? err.message : `Invalid configuration: ${(err as Error).message}`)
    process.exit(1)
  }
}

const config = await loadConfigOrExit()
const logger = pino(loggerOptions(config) as object) as FastifyBaseLogger

let database: ProcessDatabase | undefined
let api: FastifyInstance | undefined
let proxy: FastifyInstance | undefined

// Signals: finish in-flight requests, close pools, stop the embedded database, exit 0.
// Uncaught exceptions and unhandled rejections take the same path but exit 1, so a supervisor restarts and alerts.
closeWithGrace({ delay: 15_000, logger }, async ({ signal, err }) => {
  if (err != null) logger.error({ err }, 'uncaught error: shutting down')
  else logger.info({ signal }, 'shutting down')
  await proxy?.close()
  await api?.close()
  await database?.stop()
})

try {
  database = await prepareDatabase(config, logger)
  api = Fastify(serverOptions(config, { loggerInstance: logger }))
  await api.register(fp(app), { config: { ...config, databaseUrl: database.url } })
  await api.listen({ port: config.port, host: config.host })

  const apiPort = (api.server.address() as { port: number }).port
  const apiHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host
  proxy = Fastify(serverOptions(config, { loggerInstance: logger.child({ instance: 'bff' }) }))
  await proxy.register(fp(bff), { config, apiUrl: `http://${apiHost.includes(':') ? `[${apiHost}]` : apiHost}:${apiPort}` })
  await proxy.listen({ port: config.bffPort, host: config.host })
} catch (err) {
  logger.fatal({ err }, 'start-up failed')
  await proxy?.close().catch(() => {})
  await api?.close().catch(() => {})
  await database?.stop().catch(() => {})
  process.exit(1)
}
