// build(t): the real app with production server options, on this test file's own database.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify'
import fp from 'fastify-plugin'
import tap, { type Test } from 'tap'
import app from '../app.js'
import { loadConfig, type Config } from '../config.js'
import { serverOptions, type ServerOptions } from '../server-options.js'
import { testDatabaseUrl } from './setup/database.js'

// Per-process secrets: nothing secret is committed, and each test file signs its own tokens.
const JWT_SECRET = randomBytes(32).toString('hex')
const ADMIN_JWT_SECRET = randomBytes(32).toString('hex')
const DATA_DIR = mkdtempSync(path.join(tmpdir(), 'recipes-test-data-'))
tap.teardown(() => rmSync(DATA_DIR, { recursive: true, force: true }))
// pg-boss sometimes leaves a worker's stop loop polling after its instance has stopped (a 1 s timer that never ends),
// which would keep a finished test file alive until tap's 120 s timeout. Every assertion has run by then: say what is
// still open and end the process.
tap.teardown(() => {
  setTimeout(() => {
    process.stderr.write(`test process still busy 3 s after its last test (${process.getActiveResourcesInfo().join(', ')}): exiting\n`)
    process.exit(process.exitCode ?? 0)
  }, 3000).unref()
})

let instanceCount = 0

export interface BuildOptions {
  /** Environment variables on top of the test defaults (same names as production). */
  env?: Record<string, string | undefined>
  /** Registers extra routes or hooks before the app is ready (test-only endpoints). */
  extend?: (app: FastifyInstance) => void | Promise<void>
  /** Fastify options on top of the production ones (e.g. a logger that writes to a test stream). */
  server?: Partial<ServerOptions>
  /** An instance of this subtest's own even with no other option (closing, several instances). */
  fresh?: boolean
  /** With `env` alone: the file's one instance for these settings, shared like the default one. */
  share?: boolean
}

export async function testConfig (env: Record<string, string | undefined> = {}): Promise<Config> {
  return await loadConfig({
    NODE_ENV: 'test',
    DATA_DIR,
    DATABASE_URL: await testDatabaseUrl(),
    REDIS_URL: process.env.REDIS_URL,
    // Each app gets its own Redis key space, so rate-limit counters never leak between tests.
    CACHE_PREFIX: `test:${process.pid}:${++instanceCount}:${randomBytes(3).toString('hex')}:`,
    JWT_SECRET,
    ADMIN_JWT_SECRET,
    LOG_LEVEL: 'silent',
    // Tests make many requests from one address; the rate-limit tests set their own small limits.
    RATE_LIMIT_AUTH_MAX: '100000',
    RATE_LIMIT_ROUTER_MAX: '100000',
    RATE_LIMIT_GLOBAL_MAX: '100000',
    // Jobs retry within the test's time; timed jobs (digests) are driven by the tests' own clock.
    JOB_RETRY_DELAY_SECONDS: '1',
    // Registrations hash in a millisecond; test/app/passwords.test.ts proves the production cost, which production
    // settings keep (NODE_ENV=production refuses less than 10).
    BCRYPT_COST: env.NODE_ENV === 'production' ? undefined : '4',
    // Fixtures register tens of users at once; test/app/passwords.test.ts sets a small bound to prove the 503.
    PASSWORD_QUEUE_MAX: '10000',
    SCHEDULED_JOBS: 'false',
    // Three test files share two cores, and fixtures insert tens of thousands of rows in one statement: the database
    // bounds are wider than production's here. test/app/database-faults.test.ts sets short ones to prove them.
    DB_STATEMENT_TIMEOUT_MS: '30000',
    DB_LOCK_TIMEOUT_MS: '10000',
    DB_POOL_WAIT_MS: '30000',
    ...env
  })
}

/**
 * The app of this test file: built once, on first use, and closed when the file ends. Subtests share it and keep
 * isolation by creating their own users and rows (one database per file). `build(t, options)` with any option, or
 * `{ fresh: true }`, gives a subtest an instance of its own instead, closed when that subtest ends: for other
 * settings, test-only routes, or tests of closing and of several instances. `{ env, share: true }` shares one
 * instance per distinct `env` among the file's subtests.
 *
 * Instances on one database share its job queue, so an instance with other settings (no SMTP, say) would take the
 * jobs of the one under test: the shared instances are closed before a subtest gets its own, and built again when
 * next asked for.
 */
export async function build (t: Test, options: BuildOptions = {}): Promise<FastifyInstance> {
  const { fresh = false, share = false, ...settings } = options
  if (share && (settings.extend != null || settings.server != null)) throw new Error('build: only env settings can be shared')
  if (!fresh && (share || Object.keys(settings).length === 0)) {
    const key = JSON.stringify(settings.env ?? {})
    let shared = fileApps.get(key)
    if (shared == null) {
      shared = start(settings, tap)
      fileApps.set(key, shared)
    }
    return await shared
  }
  await closeShared()
  return await start(settings, t)
}

async function closeShared (): Promise<void> {
  const open = [...fileApps.values()]
  fileApps.clear()
  for (const instance of open) await (await instance).close()
}

/** Instances closed before their teardown. */
const closed = new WeakSet<FastifyInstance>()

/** The file's shared instances by their `env`. */
const fileApps = new Map<string, Promise<FastifyInstance>>()

async function start (options: Omit<BuildOptions, 'fresh' | 'share'>, owner: Test | typeof tap): Promise<FastifyInstance> {
  const config = await testConfig(options.env)
  // No plugin timeout of the app's own: a slow machine makes start-up slow, not wrong; tap's file timeout bounds a hang.
  const instance = Fastify(serverOptions(config, { pluginTimeout: 0, ...options.server }))
  await instance.register(fp(app), { config })
  if (options.extend != null) await instance.register(fp(async (f: FastifyInstance) => { await options.extend!(f) }))
  // Registered after the database's own teardown, so it runs first (tap runs teardowns last-in, first-out). A shared
  // instance may have been closed already (closeShared).
  owner.teardown(async () => { if (!closed.has(instance)) await instance.close() })
  instance.addHook('onClose', async () => { closed.add(instance) })
  await instance.ready()
  return instance
}

/** The JSON body of a response, typed loosely for assertions. */
export function json<T = Record<string, any>> (response: LightMyRequestResponse): T {
  return JSON.parse(response.body) as T
}

/** Asserts a 400 `Validation error` whose details mention `field`. */
export function expectValidationError (t: Test, response: LightMyRequestResponse, field: string): void {
  t.equal(response.statusCode, 400, `400 for ${field}`)
  const body = json(response)
  t.equal(body.error, 'Validation error')
  t.ok(Array.isArray(body.details) && body.details.some((d: string) => d.startsWith(field)), `details name ${field}: ${JSON.stringify(body.details)}`)
}

export * from './helpers/users.js'
export * from './helpers/recipes.js'
export * from './helpers/social.js'
export * from './helpers/images.js'
export * from './helpers/admins.js'
export * from './helpers/wait.js'

/** A public client address: loopback and private addresses are exempt from most rate limits. */
export const PUBLIC_IP = '203.0.113.10'
