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
    SCHEDULED_JOBS: 'false',
    ...env
  })
}

export async function build (t: Test, options: BuildOptions = {}): Promise<FastifyInstance> {
  const config = await testConfig(options.env)
  const instance = Fastify(serverOptions(config, options.server))
  await instance.register(fp(app), { config })
  if (options.extend != null) await instance.register(fp(async (f: FastifyInstance) => { await options.extend!(f) }))
  t.teardown(async () => await instance.close())
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

/** A public client address: loopback and private addresses are exempt from most rate limits. */
export const PUBLIC_IP = '203.0.113.10'

/** Waits for background work (notifications, emails) to land: polls `check` until it returns a value or the deadline passes. */
export async function eventually<T> (check: () => Promise<T | null | undefined | false>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value != null && value !== false) return value
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise(resolve => setTimeout(resolve, 20))
  }
}
