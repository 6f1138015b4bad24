// The process: configuration, database, both instances (API and web proxy), graceful shutdown.
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import path from 'node:path'
import closeWithGrace from 'close-with-grace'
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { pino, type LoggerOptions } from 'pino'
import app from './app.js'
import bff from './bff/app.js'
import { ConfigError, loadConfig, type Config } from './config.js'
import { prepareDatabase, type ProcessDatabase } from './db/database.js'
import lifecycle from './plugins/app/lifecycle.js'
import { loggerOptions, serverOptions } from './server-options.js'

// Read here, not with `node --env-file-if-exists`, which prints a notice on every start without one. loadEnvFile
// keeps the variables already set, so the real environment wins over the file.
const ENV_FILE = path.resolve('.env')
const hasEnvFile = existsSync(ENV_FILE)

async function loadConfigOrExit (): Promise<Config> {
  try {
    if (hasEnvFile) process.loadEnvFile(ENV_FILE)
    return await loadConfig()
  } catch (err) {
    // One clear line, no stack: a bad value is an operator mistake, not a crash.
    console.error(err instanceof ConfigError ? err.message : `Invalid configuration: ${(err as Error).message}`)
    process.exit(1)
  }
}

const config = await loadConfigOrExit()
const loggerSettings = loggerOptions(config) as LoggerOptions
// Without a transport (pretty output on a terminal), lines go to stdout asynchronously: under load the lines written
// while one write is in flight go out together in the next, instead of one write(2) per request line; alone, a line
// goes out at once. What is still buffered is written synchronously when the process exits (pino's exit handler).
// A reader of stdout that stops reading costs at most LOG_BUFFER_BYTES of memory: lines beyond it are dropped.
const LOG_BUFFER_BYTES = 16 * 1024 * 1024
const pinoLogger = loggerSettings.transport != null
  ? pino(loggerSettings)
  : pino(loggerSettings, pino.destination({ dest: 1, sync: false, maxLength: LOG_BUFFER_BYTES }))
const logger = pinoLogger as FastifyBaseLogger
if (hasEnvFile) logger.info(`Read ${ENV_FILE} (variables set in the environment take precedence)`)

function describeCache (redisUrl: string | undefined): string {
  if (redisUrl == null) return 'Cache: in-process (set REDIS_URL to share it between instances)'
  const url = URL.parse(redisUrl)
  return `Cache: Redis at ${url?.hostname ?? '?'}:${url?.port || 6379}`
}

/** Where the parts a newcomer looks for live when nothing is configured, and which setting moves each. */
function describeDefaults (): string[] {
  const { storage, mail, dataDir } = config
  const s3 = storage.s3
  const unsetSecrets = ['JWT_SECRET', 'ADMIN_JWT_SECRET'].filter(name => process.env[name] == null)
  return [
    s3 != null
      ? `Uploads: S3 bucket ${s3.bucket} at ${s3.endPoint}${s3.port == null ? '' : `:${s3.port}`}`
      : `Uploads: local disk in ${storage.localDir} (set S3_* to use object storage)`,
    mail.smtpUrl != null
      ? `Email: SMTP at ${URL.parse(mail.smtpUrl)?.host ?? '?'}`
      : 'Email: recorded in the database, not sent (set SMTP_URL to send)',
    ...(unsetSecrets.length > 0 && !config.isProduction
      ? [`Secrets: ${unsetSecrets.join(', ')} generated once and kept in ${path.join(dataDir, 'secrets.json')} (set them in production)`]
      : [])
  ]
}

/** Errors an operator fixes with a setting: one line naming it, and no stack. */
function listenError (err: NodeJS.ErrnoException, port: number, variable: string): Error {
  if (err.code === 'EADDRINUSE') return new ConfigError(`Port ${port} is already in use: set ${variable} to a free port`)
  if (err.code === 'EACCES') return new ConfigError(`Port ${port} needs privileges: set ${variable} to 1024 or above`)
  if (err.code === 'EADDRNOTAVAIL') return new ConfigError(`HOST ${config.host} is not an address of this machine`)
  return err
}

async function listen (instance: FastifyInstance, port: number, variable: string, text: (address: string) => string): Promise<void> {
  await instance.listen({ port, host: config.host, listenTextResolver: text }).catch(err => { throw listenError(err, port, variable) })
}

/** A port in use is found before the database starts and migrates (minutes on a first start), not after. */
async function assertFree (port: number, variable: string): Promise<void> {
  if (port === 0) return
  const probe = createServer()
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject)
    probe.listen({ port, host: config.host, exclusive: true }, resolve)
  }).catch(err => { throw listenError(err, port, variable) })
  await new Promise(resolve => probe.close(resolve))
}

let database: ProcessDatabase | undefined
let api: FastifyInstance | undefined
let proxy: FastifyInstance | undefined

/**
 * Reading every socket at least once more before idle connections are closed: a request whose bytes reached the
 * machine before the signal is then being served, not lying unread on a connection that looks idle.
 */
const READ_TURN_MS = 50

/**
 * Both instances answer with `Connection: close` from now on. Node's server.close() closes only the connections idle
 * at that moment: one whose request is still being served would stay open after its answer (keep-alive) and hold
 * the close until close-with-grace's timeout (exit 1, pools never closed).
 */
function startDraining (): void {
  for (const instance of [api, proxy]) if (instance != null) instance.lifecycle.draining = true
}

// Signals: drain (readiness 503, `Connection: close`, still serving) for SHUTDOWN_DRAIN_MS, then stop accepting,
// finish in-flight requests, close pools, stop the embedded database, exit 0. Uncaught exceptions and unhandled
// rejections close at once (no drain wait) and exit 1, so a supervisor restarts and alerts.
closeWithGrace({ delay: config.shutdownDrainMs + 15_000, logger }, async ({ signal, err }) => {
  startDraining()
  if (err != null) {
    logger.error({ err }, 'uncaught error: shutting down')
  } else {
    logger.info({ signal, drainMs: config.shutdownDrainMs }, 'shutting down')
    await new Promise(resolve => setTimeout(resolve, Math.max(config.shutdownDrainMs, READ_TURN_MS)))
  }
  await proxy?.close()
  await api?.close()
  await database?.stop()
  logger.info('closed')
  // A transport (pretty output on a terminal) writes from a worker: what is buffered goes out before the exit.
  pinoLogger.flush()
})

try {
  await assertFree(config.port, 'PORT')
  await assertFree(config.bffPort, 'BFF_PORT')
  database = await prepareDatabase(config, logger)
  logger.info(describeCache(config.redisUrl))
  for (const line of describeDefaults()) logger.info(line)
  api = Fastify(serverOptions(config, { loggerInstance: logger }))
  await api.register(fp(app), { config: { ...config, databaseUrl: database.url } })
  await listen(api, config.port, 'PORT', address => `API listening on ${address}`)

  // With PORT=0 the real port is known only now.
  const apiPort = (api.server.address() as { port: number }).port
  const apiHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host
  const apiUrl = `http://${apiHost.includes(':') ? `[${apiHost}]` : apiHost}:${apiPort}`
  logger.info(`API docs at ${apiUrl}/api/docs`)
  proxy = Fastify(serverOptions(config, { loggerInstance: logger.child({ instance: 'bff' }) }))
  // The same draining switch as the API's (its readiness route is the API's alone).
  await proxy.register(lifecycle)
  await proxy.register(fp(bff), { config, apiUrl })
  await listen(proxy, config.bffPort, 'BFF_PORT', address => `Web proxy listening on ${address}, forwarding /bff/api to ${apiUrl}/api`)
} catch (err) {
  if (err instanceof ConfigError) logger.fatal(err.message)
  else logger.fatal({ err }, 'start-up failed')
  await proxy?.close().catch(() => {})
  await api?.close().catch(() => {})
  await database?.stop().catch(() => {})
  process.exit(1)
}
