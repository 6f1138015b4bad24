// `npm run bench:scale-out`: proves that two API instances sharing one PostgreSQL and one Redis act as one service.
// Starts server.ts twice as child processes (same Node, tsx, NODE_ENV=production, the same JWT secrets) on free ports,
// on a fresh database created for the run and a Redis key prefix of its own (both at once, as a deploy does; set
// SCALE_OUT_START_TOGETHER=0 to start B once A is ready), then checks that
//   1. a token issued by A works on B, and once it is revoked on A (logout), B refuses it at once on a strict route;
//      it also reports what an optional-auth route on B does with it right after;
//   2. the global rate-limit counter is shared: alternating A and B, the 429 comes after exactly N requests in total;
//   3. the new-recipe fan-out job (pg-boss) runs once: the follower gets exactly one new_recipe notification.
// Prints `ok   <check>` or `FAIL <check>: <why>` per check and exits 0 only when all pass. The database, the Redis
// keys and the temporary folder are removed and both instances stopped (SIGTERM) at the end, also on failure.
// DATABASE_URL (a server to create the database on) and REDIS_URL default to the local ones.
// test/scale-out.test.ts runs the same check through runScaleOutCheck().
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Redis } from 'ioredis'
import type postgres from 'postgres'
import { databaseUrl as onDatabase, dropDatabase, withConnection } from '../db/admin.js'
import { freePort } from '../db/embedded.js'

export interface CheckResult {
  name: string
  ok: boolean
  /** Why it failed, or what was observed when it passed. */
  detail: string
}

export interface ScaleOutReport {
  ok: boolean
  checks: CheckResult[]
  /** What each instance wrote (LOG_LEVEL=warn: warnings and errors), for diagnosing a failure. */
  logs: Record<InstanceName, string>
}

export interface ScaleOutOptions {
  /** A PostgreSQL server to create the run's database on (its database part is only used to connect). */
  databaseUrl?: string
  redisUrl?: string
  /** Name of the database created (and dropped) for the run; default `scaleout_<random>`. */
  databaseName?: string
  /** RATE_LIMIT_GLOBAL_MAX of both instances. */
  globalLimit?: number
  /**
   * Start both instances at the same moment on the fresh database (the default; env SCALE_OUT_START_TOGETHER=0 starts
   * B after A is ready). Both then migrate and create the job queues at once, which once deadlocked in pg-boss's
   * `create_queue` (plugins/external/queue.ts retries it).
   */
  startTogether?: boolean
  /** Called as each check completes (the script prints it). */
  onResult?: (result: CheckResult) => void
}

type InstanceName = 'A' | 'B'

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres'
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379'
const SERVER = fileURLToPath(new URL('../server.ts', import.meta.url))
// Absolute: the instances run in a temporary folder, so a developer's .env in the checkout stays out of the check.
const TSX = import.meta.resolve('tsx')
const START_TIMEOUT_MS = 60_000
const STOP_TIMEOUT_MS = 20_000
const REQUEST_TIMEOUT_MS = 10_000
const JOB_TIMEOUT_MS = 20_000
/** plugins/app/auth.ts: how long an optional route may trust a cached "not revoked". */
const OPTIONAL_AUTH_CACHE_MS = 10_000
const POLL_MS = 50
const NEW_RECIPE_JOB = 'notify-new-recipe'
const PASSWORD = 'Sc4le-Out-Check'

const CHECKS = {
  setup: 'setup: two instances on one database and one Redis',
  token: 'token issued by A works on B',
  revoked: 'logout on A: B refuses the token at once (GET /api/auth/me 401)',
  optional: 'optional-auth route on B right after the logout on A',
  rateLimit: 'rate limit shared: alternating A and B, 429 after exactly the global limit in total',
  job: 'new-recipe job runs once: exactly one new_recipe notification (API on B and SQL)',
  stop: 'both instances stop gracefully on SIGTERM (exit 0)'
} as const

// ---- instances -----------------------------------------------------------------------------------------------------

interface Instance {
  name: InstanceName
  base: string
  child: ChildProcess
  output: string[]
  exitCode: number | null | undefined
  exited: Promise<number | null>
}

const sleep = async (ms: number) => await new Promise(resolve => setTimeout(resolve, ms))

/** The last lines an instance wrote, for error messages. */
function tail (instance: Instance, lines = 3): string {
  const text = instance.output.join('').trim()
  if (text === '') return '(no output)'
  return text.split('\n').slice(-lines).map(line => {
    // LOG_LEVEL=warn writes JSON lines: the message and the error's, not the stack.
    try {
      const { msg, err } = JSON.parse(line) as { msg?: string, err?: { message?: string, code?: string, detail?: string, where?: string } }
      if (err == null) return msg ?? line
      return [`${msg ?? 'error'}: ${err.message ?? ''}`, err.code, err.detail, err.where].filter(Boolean).join(' / ')
    } catch {
      return line
    }
  }).join(' | ')
}

function spawnInstance (name: InstanceName, dir: string, env: Record<string, string>): Instance {
  const child = spawn(process.execPath, ['--import', TSX, SERVER], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] })
  const instance: Instance = { name, base: `http://127.0.0.1:${env.PORT}`, child, output: [], exitCode: undefined, exited: Promise.resolve(null) }
  child.stdout!.on('data', (chunk: Buffer) => instance.output.push(chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => instance.output.push(chunk.toString()))
  instance.exited = new Promise(resolve => child.once('exit', code => { instance.exitCode = code; resolve(code) }))
  return instance
}

/** Polls /readyz until it answers 200; throws if the process exits first or the deadline passes. */
async function waitReady (instance: Instance): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS
  let last = 'no answer'
  while (Date.now() < deadline) {
    if (instance.exitCode !== undefined) throw new Error(`instance ${instance.name} exited with code ${instance.exitCode}: ${tail(instance)}`)
    try {
      const res = await fetch(`${instance.base}/readyz`, { signal: AbortSignal.timeout(2000) })
      last = `${res.status} ${await res.text()}`
      if (res.status === 200) return
    } catch (err) {
      last = (err as Error).message
    }
    await sleep(100)
  }
  throw new Error(`instance ${instance.name} not ready within ${START_TIMEOUT_MS / 1000} s (/readyz: ${last}): ${tail(instance)}`)
}

/** Starts an instance on free ports; picks new ones when another process took them in between (up to 3 tries). */
async function startInstance (name: InstanceName, dir: string, env: Record<string, string>, started: Instance[]): Promise<Instance> {
  for (let attempt = 1; ; attempt++) {
    const instance = spawnInstance(name, dir, { ...env, PORT: String(await freePort()), BFF_PORT: String(await freePort()) })
    started.push(instance)
    try {
      await waitReady(instance)
      return instance
    } catch (err) {
      if (attempt < 3 && instance.exitCode !== undefined && /already in use/.test(instance.output.join(''))) continue
      throw err
    }
  }
}

/** SIGTERM, then SIGKILL if it has not exited in time; the exit code (null when killed). */
async function stopInstance (instance: Instance): Promise<number | null> {
  if (instance.exitCode !== undefined) return instance.exitCode
  instance.child.kill('SIGTERM')
  const timer = setTimeout(() => instance.child.kill('SIGKILL'), STOP_TIMEOUT_MS)
  try {
    return await instance.exited
  } finally {
    clearTimeout(timer)
  }
}

// ---- HTTP ----------------------------------------------------------------------------------------------------------

interface Answer { status: number, body: any, headers: Headers }

async function call (instance: Instance, method: string, url: string, options: { token?: string, body?: unknown, headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers }
  if (options.token != null) headers.authorization = `Bearer ${options.token}`
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  let res: Response
  try {
    res = await fetch(instance.base + url, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS)
    })
  } catch (err) {
    const state = instance.exitCode !== undefined ? ` (instance ${instance.name} exited with code ${instance.exitCode}: ${tail(instance)})` : ''
    throw new Error(`${method} ${url} on ${instance.name}: ${(err as Error).message}${state}`)
  }
  const text = await res.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {}
  return { status: res.status, body, headers: res.headers }
}

/** The answer when its status is `status`; throws with the body otherwise. */
async function expectStatus (status: number, answer: Promise<Answer>, what: string): Promise<Answer> {
  const res = await answer
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`)
  return res
}

interface User { id: string, username: string, token: string }

async function register (instance: Instance, label: string, runId: string): Promise<User> {
  const username = `so_${runId}_${label}`
  const res = await expectStatus(201, call(instance, 'POST', '/api/auth/register', {
    body: { username, email: `${username}@example.com`, password: PASSWORD }
  }), `registering ${username} on ${instance.name}`)
  return { id: res.body.user.id, username, token: res.body.token }
}

/** Polls `check` until it returns a value (not null/undefined/false) or the deadline passes (then null). */
async function pollUntil<T> (timeoutMs: number, check: () => Promise<T | null | undefined | false>): Promise<T | null> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value != null && value !== false) return value
    if (Date.now() >= deadline) return null
    await sleep(POLL_MS)
  }
}

// ---- the checks ----------------------------------------------------------------------------------------------------

interface Context {
  a: Instance
  b: Instance
  runId: string
  globalLimit: number
  sql: <T>(fn: (sql: postgres.Sql) => Promise<T>) => Promise<T>
}

/** Checks 1 and the optional-auth report: a token from A on B, then revoked on A. */
async function checkTokens ({ a, b, runId }: Context, record: (name: string, ok: boolean, detail: string) => void): Promise<void> {
  const user = await register(a, 'tok', runId)
  // A private recipe: an optional-auth route shows it to its author only, so the answer tells who B thinks we are.
  const recipe = await expectStatus(201, call(a, 'POST', '/api/recipes', {
    token: user.token,
    body: { title: 'Scale-out private recipe', ingredients: ['1 cup flour'], visibility: 'private' }
  }), 'creating a private recipe on A')
  const recipeUrl = `/api/recipes/${String(recipe.body.recipe.id)}`

  const me = await call(b, 'GET', '/api/auth/me', { token: user.token })
  const seen = await call(b, 'GET', recipeUrl, { token: user.token })
  const tokenOk = me.status === 200 && me.body?.user?.id === user.id && seen.status === 200
  record(CHECKS.token, tokenOk, tokenOk
    ? 'GET /api/auth/me 200 with the same user; optional-auth GET /api/recipes/:id shows the private recipe (200)'
    : `GET /api/auth/me on B: ${me.status} ${JSON.stringify(me.body)}; GET ${recipeUrl} on B: ${seen.status}`)

  await expectStatus(200, call(a, 'POST', '/api/auth/logout', { token: user.token }), 'logout on A')
  // Right after the logout answered: no waiting, no retry.
  const [onB, onA] = await Promise.all([
    call(b, 'GET', '/api/auth/me', { token: user.token }),
    call(a, 'GET', '/api/auth/me', { token: user.token })
  ])
  const revokedOk = onB.status === 401 && onA.status === 401
  record(CHECKS.revoked, revokedOk, revokedOk
    ? `B: 401 ${JSON.stringify(onB.body)} (A: 401 too)`
    : `B answered ${onB.status} ${JSON.stringify(onB.body)}, A answered ${onA.status}`)

  // Optional routes read the revocation through the shared cache; the documented bound for other instances is 10 s.
  const started = Date.now()
  const first = await call(b, 'GET', recipeUrl, { token: user.token })
  if (first.status === 404) {
    record(CHECKS.optional, true, 'anonymous at once: GET /api/recipes/:id of the private recipe answers 404 (not 401; optional routes ignore a bad token)')
    return
  }
  const later = await pollUntil(OPTIONAL_AUTH_CACHE_MS + 2000, async () => {
    const res = await call(b, 'GET', recipeUrl, { token: user.token })
    return res.status !== 200 && res
  })
  const elapsed = ((Date.now() - started) / 1000).toFixed(1)
  if (later?.status === 404) {
    record(CHECKS.optional, true, `still signed in right after the logout (first answer ${first.status}); anonymous (404) after ${elapsed} s, within the ${OPTIONAL_AUTH_CACHE_MS / 1000} s cache bound`)
  } else {
    record(CHECKS.optional, false, `the revoked token still showed the private recipe after ${elapsed} s (last answer ${later?.status ?? 200})`)
  }
}

/** Check 2: one global counter in Redis, whichever instance answers. */
async function checkRateLimit ({ a, b, globalLimit }: Context): Promise<string> {
  // A public client address (TEST-NET-3) passed on by a trusted proxy: loopback itself is exempt from the global limit.
  const client = `203.0.113.${1 + Math.floor(Math.random() * 254)}`
  const headers = { 'x-forwarded-for': client }
  const instances = [a, b]
  for (let i = 1; i <= globalLimit; i++) {
    const instance = instances[(i - 1) % 2]
    const res = await call(instance, 'GET', '/api/tags', { headers })
    const remaining = res.headers.get('x-ratelimit-remaining')
    if (res.status !== 200) throw new Error(`request ${i} of ${globalLimit} (on ${instance.name}) answered ${res.status} ${JSON.stringify(res.body)}`)
    if (remaining !== String(globalLimit - i)) {
      throw new Error(`request ${i} (on ${instance.name}): x-ratelimit-remaining ${remaining}, expected ${globalLimit - i} for one shared counter`)
    }
  }
  const over = instances[globalLimit % 2]
  const limited = await call(over, 'GET', '/api/tags', { headers })
  if (limited.status !== 429) throw new Error(`request ${globalLimit + 1} (on ${over.name}) answered ${limited.status}, expected 429`)
  const body = limited.body
  if (body?.error !== 'Too many requests' || body?.limit !== 'global' || !Number.isInteger(body?.retryAfter) ||
    limited.headers.get('retry-after') !== String(body.retryAfter)) {
    throw new Error(`429 body ${JSON.stringify(body)} (Retry-After ${limited.headers.get('retry-after')}), expected { error: "Too many requests", limit: "global", retryAfter } and a matching Retry-After`)
  }
  const other = instances[(globalLimit + 1) % 2]
  const alsoLimited = await call(other, 'GET', '/api/tags', { headers })
  if (alsoLimited.status !== 429) throw new Error(`after the 429 on ${over.name}, ${other.name} answered ${alsoLimited.status}`)
  return `limit ${globalLimit}: requests 1-${globalLimit} passed with x-ratelimit-remaining counting down across both, ` +
    `request ${globalLimit + 1} on ${over.name} was 429 ${JSON.stringify(body)}, and ${other.name} refused the next one too`
}

/** Check 3: Y publishes through A, both instances run workers, X gets exactly one notification. */
async function checkJob ({ a, b, runId, sql }: Context): Promise<string> {
  const [follower, author] = await Promise.all([register(b, 'fan', runId), register(a, 'cook', runId)])
  await expectStatus(200, call(b, 'POST', `/api/social/users/${author.id}/follow`, { token: follower.token }), 'follow on B')
  const created = await expectStatus(201, call(a, 'POST', '/api/recipes', {
    token: author.token,
    body: { title: 'Scale-out public recipe', ingredients: ['2 eggs'], visibility: 'public', published: true }
  }), 'creating a published public recipe on A')
  const recipeId = String(created.body.recipe.id)
  const started = Date.now()

  const ofRecipe = async () => {
    const res = await expectStatus(200, call(b, 'GET', '/api/notifications?limit=50', { token: follower.token }), 'notifications on B')
    return (res.body.notifications as Array<{ type: string, recipeId: string | null }>)
      .filter(n => n.type === 'new_recipe' && n.recipeId === recipeId)
  }
  const seen = await pollUntil(JOB_TIMEOUT_MS, async () => { const list = await ofRecipe(); return list.length > 0 && list })
  if (seen == null) throw new Error(`no new_recipe notification on B within ${JOB_TIMEOUT_MS / 1000} s`)
  const seenAfter = Date.now() - started

  // The job is done once pg-boss marks it completed; only then is "exactly one" final.
  const jobs = async () => await sql(async db => await db<Array<{ state: string, retryCount: number }>>`
    select state, retry_count as "retryCount" from pgboss.job where name = ${NEW_RECIPE_JOB} and data->>'recipeId' = ${recipeId}`)
  const done = await pollUntil(JOB_TIMEOUT_MS, async () => { const rows = await jobs(); return rows.every(j => j.state === 'completed') && rows })
  const rows = done ?? await jobs()
  if (rows.length !== 1) throw new Error(`${rows.length} ${NEW_RECIPE_JOB} jobs for the recipe, expected 1: ${JSON.stringify(rows)}`)
  if (rows[0].state !== 'completed' || rows[0].retryCount !== 0) {
    throw new Error(`the job is ${rows[0].state} after ${rows[0].retryCount} retries, expected completed on its first run`)
  }

  const viaApi = await ofRecipe()
  const [{ n: viaSql }] = await sql(async db => await db<Array<{ n: number }>>`
    select count(*)::int as n from notifications where user_id = ${follower.id} and type = 'new_recipe' and recipe_id = ${recipeId}`)
  const [{ n: allOfFollower }] = await sql(async db => await db<Array<{ n: number }>>`
    select count(*)::int as n from notifications where user_id = ${follower.id} and type = 'new_recipe'`)
  if (viaApi.length !== 1 || viaSql !== 1 || allOfFollower !== 1) {
    throw new Error(`new_recipe notifications of the follower: ${viaApi.length} for the recipe through B's API, ${viaSql} for the recipe in SQL, ${allOfFollower} in all; expected 1 each`)
  }
  return `one job, completed on its first run; notification visible on B after ${(seenAfter / 1000).toFixed(1)} s; ` +
    '1 through the API on B, 1 in SQL'
}

// ---- the run -------------------------------------------------------------------------------------------------------

async function probeRedis (url: string): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: 3000, retryStrategy: () => null })
  // ioredis rejects with "Connection is closed."; the cause (ECONNREFUSED, ...) comes as an error event.
  let cause: string | undefined
  redis.on('error', (err: Error) => { cause ??= err.message })
  try {
    await redis.connect()
    await redis.ping()
    return redis
  } catch (err) {
    redis.disconnect()
    const where = URL.parse(url)
    throw new Error(`Redis at ${where?.hostname ?? '?'}:${where?.port || 6379} is unreachable (${cause ?? (err as Error).message}): ` +
      'this check needs a Redis shared by both instances; start one or set REDIS_URL')
  }
}

async function deleteKeys (redis: Redis, prefix: string): Promise<void> {
  let cursor = '0'
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500)
    if (keys.length > 0) await redis.del(...keys)
    cursor = next
  } while (cursor !== '0')
}

/** The environment of both instances: only what is set here (no .env, nothing inherited but PATH). */
function instanceEnv (o: { dir: string, url: string, redisUrl: string, cachePrefix: string, globalLimit: number }): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    // One shared data folder (uploads), like a shared volume.
    DATA_DIR: path.join(o.dir, 'data'),
    STORAGE_PUBLIC_URL: 'http://127.0.0.1',
    DATABASE_URL: o.url,
    DB_POOL_MAX: '5',
    REDIS_URL: o.redisUrl,
    CACHE_PREFIX: o.cachePrefix,
    // The same secrets on both (required in production): a token signed by one verifies on the other.
    JWT_SECRET: randomBytes(32).toString('hex'),
    ADMIN_JWT_SECRET: randomBytes(32).toString('hex'),
    TRUST_PROXY: 'loopback',
    RATE_LIMIT_GLOBAL_MAX: String(o.globalLimit),
    RATE_LIMIT_ROUTER_MAX: '100000',
    RATE_LIMIT_AUTH_MAX: '100000',
    LOG_LEVEL: 'warn'
  }
}

/** Runs every check and cleans up after itself; never throws for a failed check (see `ok` and `checks`). */
export async function runScaleOutCheck (options: ScaleOutOptions = {}): Promise<ScaleOutReport> {
  const maintenanceUrl = options.databaseUrl ?? process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL
  const redisUrl = options.redisUrl ?? process.env.REDIS_URL ?? DEFAULT_REDIS_URL
  const globalLimit = options.globalLimit ?? 5
  const startTogether = options.startTogether ?? process.env.SCALE_OUT_START_TOGETHER !== '0'
  const runId = randomBytes(4).toString('hex')
  const dbName = options.databaseName ?? `scaleout_${runId}`
  const cachePrefix = `scaleout:${runId}:`
  const checks: CheckResult[] = []
  // While the independent checks run together, their results are held back and then reported in CHECKS order.
  let held: CheckResult[] | null = null
  const record = (name: string, ok: boolean, detail: string): void => {
    const result = { name, ok, detail }
    if (held != null) {
      held.push(result)
      return
    }
    checks.push(result)
    options.onResult?.(result)
  }
  const run = async (name: string, work: () => Promise<string>): Promise<void> => {
    try {
      record(name, true, await work())
    } catch (err) {
      record(name, false, (err as Error).message)
    }
  }

  const started: Instance[] = []
  let redis: Redis | undefined
  let dir: string | undefined
  let databaseCreated = false
  const url = onDatabase(maintenanceUrl, dbName)
  try {
    let pair: [Instance, Instance]
    try {
      redis = await probeRedis(redisUrl)
      await withConnection(maintenanceUrl, async sql => { await sql`create database ${sql(dbName)}` })
        .catch((err: Error) => { throw new Error(`could not create database ${dbName} on ${new URL(maintenanceUrl).host}: ${err.message}`) })
      databaseCreated = true
      dir = await mkdtemp(path.join(tmpdir(), 'recipes-scale-out-'))
      const env = instanceEnv({ dir, url, redisUrl, cachePrefix, globalLimit })
      pair = startTogether
        // Both at once on the fresh database, as a deploy starts them.
        ? await Promise.all([startInstance('A', dir, env, started), startInstance('B', dir, env, started)])
        // B once A is ready, as a rolling start does: A has migrated the database and created the job queues.
        : [await startInstance('A', dir, env, started), await startInstance('B', dir, env, started)]
      record(CHECKS.setup, true, `A on ${pair[0].base}, B on ${pair[1].base}, database ${dbName}, Redis key prefix ${cachePrefix}`)
    } catch (err) {
      record(CHECKS.setup, false, (err as Error).message)
      for (const name of [CHECKS.token, CHECKS.revoked, CHECKS.optional, CHECKS.rateLimit, CHECKS.job]) record(name, false, 'not run: setup failed')
      return { ok: false, checks, logs: logsOf(started) }
    }

    const [a, b] = pair
    const context: Context = { a, b, runId, globalLimit, sql: async fn => await withConnection(url, fn) }
    // Independent of each other (own users, own client address), so they run together.
    held = []
    await Promise.all([
      checkTokens(context, record).catch((err: Error) => {
        for (const name of [CHECKS.token, CHECKS.revoked, CHECKS.optional]) {
          if (!held!.some(c => c.name === name)) record(name, false, err.message)
        }
      }),
      run(CHECKS.rateLimit, async () => await checkRateLimit(context)),
      run(CHECKS.job, async () => await checkJob(context))
    ])
    const order: string[] = Object.values(CHECKS)
    const results = held.sort((x, y) => order.indexOf(x.name) - order.indexOf(y.name))
    held = null
    for (const result of results) record(result.name, result.ok, result.detail)
  } finally {
    const running = started.filter(i => i.exitCode === undefined)
    const codes = await Promise.all(running.map(async i => [i.name, await stopInstance(i)] as const))
    if (checks[0]?.ok === true) {
      const problems = [
        ...started.filter(i => !running.includes(i)).map(i => `${i.name} had already exited with code ${i.exitCode}: ${tail(i)}`),
        ...codes.filter(([, code]) => code !== 0).map(([name, code]) => `${name} exited with ${code ?? 'SIGKILL'}`)
      ]
      record(CHECKS.stop, problems.length === 0, problems.length === 0 ? 'A and B exited 0' : problems.join('; '))
    } else {
      record(CHECKS.stop, false, 'not run: setup failed')
    }
    if (databaseCreated) await dropDatabase(maintenanceUrl, dbName).catch((err: Error) => console.warn(`could not drop database ${dbName}: ${err.message}`))
    if (redis != null) {
      await deleteKeys(redis, cachePrefix).catch((err: Error) => console.warn(`could not delete the Redis keys ${cachePrefix}*: ${err.message}`))
      redis.disconnect()
    }
    if (dir != null) await rm(dir, { recursive: true, force: true })
  }
  return { ok: checks.every(c => c.ok), checks, logs: logsOf(started) }
}

function logsOf (instances: Instance[]): Record<InstanceName, string> {
  const logs: Record<InstanceName, string> = { A: '', B: '' }
  for (const instance of instances) logs[instance.name] += instance.output.join('')
  return logs
}

export function formatResult (result: CheckResult): string {
  return result.ok ? `ok   ${result.name}${result.detail === '' ? '' : ` (${result.detail})`}` : `FAIL ${result.name}: ${result.detail}`
}

if (process.argv[1] != null && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const report = await runScaleOutCheck({ onResult: result => console.log(formatResult(result)) })
  if (!report.ok) {
    for (const [name, log] of Object.entries(report.logs)) {
      if (log.trim() !== '') console.error(`--- instance ${name} output ---\n${log.trim()}`)
    }
  }
  process.exitCode = report.ok ? 0 : 1
}
