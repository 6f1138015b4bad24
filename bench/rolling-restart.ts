// `npm run bench:rolling-restart`: a rolling restart behind a real load balancer loses no request.
// Starts three server.ts instances (NODE_ENV=production, the same secrets) on a fresh database and one Redis (a key
// prefix of its own), and HAProxy in front of them with deploy/haproxy.cfg (the file compose.yaml mounts; only its
// bind address and server lines are replaced, see haproxyConfig). A few clients keep a steady mix of reads and
// authenticated writes going through HAProxy while each instance in turn is stopped (SIGTERM, wait for its exit),
// started again and waited for until HAProxy has it back in rotation. Every request must get its expected status:
// any other status, or a socket error, is a failed request. At the end the recipes and comments in the database must
// be exactly the ones the clients were told were created (a lost or repeated write fails the run too).
// Prints one line per restart and a summary; exits 1 if any request failed or an instance did not exit 0.
// DATABASE_URL (a server to create the database on), REDIS_URL and HAPROXY (the binary, default /usr/sbin/haproxy,
// else `haproxy` on PATH) may be set; ROLLING_CLIENTS (default 4) and ROLLING_WARMUP_MS (default 3000) too.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createWriteStream, existsSync, type WriteStream } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Redis } from 'ioredis'
import { freePort } from '../db/embedded.js'
import { databaseUrl as onDatabase, dropDatabase, withConnection } from '../db/admin.js'

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres'
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379'
const SERVER = fileURLToPath(new URL('../server.ts', import.meta.url))
export const HAPROXY_CONFIG = fileURLToPath(new URL('../deploy/haproxy.cfg', import.meta.url))
// Absolute: the instances run in a temporary folder, so a developer's .env in the checkout stays out of the run.
const TSX = import.meta.resolve('tsx')
const START_TIMEOUT_MS = 90_000
/** Longer than any drain the server allows (its own close-with-grace bound): a hung exit is reported, not waited out. */
const STOP_TIMEOUT_MS = 45_000
const REQUEST_TIMEOUT_MS = 30_000
const POLL_MS = 100
const PASSWORD = 'R0lling-Restart-Check'
/** The free plan allows 50 recipes per user: each client stays below it. */
const MAX_CREATES_PER_CLIENT = 40

/** Finds the HAProxy binary: HAPROXY, Debian's /usr/sbin/haproxy, or `haproxy` on PATH; null when there is none. */
export function haproxyBinary (): string | null {
  if (process.env.HAPROXY != null && process.env.HAPROXY !== '') return process.env.HAPROXY
  if (existsSync('/usr/sbin/haproxy')) return '/usr/sbin/haproxy'
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir !== '' && existsSync(path.join(dir, 'haproxy'))) return path.join(dir, 'haproxy')
  }
  return null
}

/**
 * deploy/haproxy.cfg for local instances: the frontend binds `bind`, the `server-template` line (compose's service
 * name, resolved by Docker's DNS) becomes one `server` line per instance, and an admin socket is added to `global` so
 * the run can read each server's state. Everything else (checks, retries, timeouts) is the file as shipped.
 */
export function haproxyConfig (template: string, options: { bind: string, servers: Array<{ name: string, address: string }>, statsSocket?: string }): string {
  const lines = template.split('\n')
  const templateLine = lines.findIndex(line => /^\s*server-template\s/.test(line))
  const bindLine = lines.findIndex(line => /^\s*bind\s/.test(line))
  if (templateLine === -1 || bindLine === -1) throw new Error('deploy/haproxy.cfg has no server-template or no bind line')
  const indent = /^\s*/.exec(lines[templateLine])![0]
  lines.splice(templateLine, 1, ...options.servers.map(server => `${indent}server ${server.name} ${server.address}`))
  lines[bindLine] = `${/^\s*/.exec(lines[bindLine])![0]}bind ${options.bind}`
  if (options.statsSocket != null) {
    const global = lines.findIndex(line => /^global\b/.test(line))
    lines.splice(global + 1, 0, `  stats socket ${options.statsSocket} mode 600 level admin`)
  }
  return lines.join('\n')
}

// ---- processes -----------------------------------------------------------------------------------------------------

interface Instance {
  name: string
  port: number
  bffPort: number
  child: ChildProcess | null
  exited: Promise<number | null>
  /** Both output streams of every start, appended to one file. */
  log: WriteStream
  logFile: string
}

const sleep = async (ms: number) => await new Promise(resolve => setTimeout(resolve, ms))

async function tailOf (file: string, lines = 8): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '')
  return text.trim().split('\n').slice(-lines).join('\n')
}

function spawnInstance (instance: Instance, env: Record<string, string>, cwd: string): void {
  const child = spawn(process.execPath, ['--import', TSX, SERVER], {
    cwd,
    env: { ...env, PORT: String(instance.port), BFF_PORT: String(instance.bffPort) },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  child.stdout!.pipe(instance.log, { end: false })
  child.stderr!.pipe(instance.log, { end: false })
  instance.child = child
  instance.exited = new Promise(resolve => child.once('exit', code => resolve(code)))
}

/** Polls the instance's own /readyz until it answers 200. */
async function waitReady (instance: Instance): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS
  let exitCode: number | null | undefined
  instance.exited.then(code => { exitCode = code }, () => {})
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`instance ${instance.name} exited with ${exitCode}: ${await tailOf(instance.logFile)}`)
    const ok = await fetch(`http://127.0.0.1:${instance.port}/readyz`, { signal: AbortSignal.timeout(2000) }).then(res => res.ok, () => false)
    if (ok) return
    await sleep(POLL_MS)
  }
  throw new Error(`instance ${instance.name} not ready within ${START_TIMEOUT_MS / 1000} s: ${await tailOf(instance.logFile)}`)
}

/** SIGTERM and the exit code, or null (then it was killed) when it did not exit within STOP_TIMEOUT_MS. */
async function stopInstance (instance: Instance): Promise<number | null> {
  const child = instance.child
  if (child == null || child.exitCode != null || child.signalCode != null) return child?.exitCode ?? null
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
  try {
    return await instance.exited
  } finally {
    clearTimeout(timer)
  }
}

/** One command on HAProxy's admin socket; its whole answer. */
async function haproxyCommand (socketPath: string, command: string): Promise<string> {
  return await new Promise((resolve, reject) => {
    const socket = connect(socketPath)
    let answer = ''
    socket.setEncoding('utf8')
    socket.on('data', chunk => { answer += chunk })
    socket.on('error', reject)
    socket.on('end', () => resolve(answer))
    socket.write(`${command}\n`)
  })
}

interface ServerStat { status: string, sessions: number }

/** The backend's servers: status (UP, DOWN, MAINT...) and sessions sent to each so far (`show stat`). */
async function backendServers (socketPath: string): Promise<Map<string, ServerStat>> {
  const csv = (await haproxyCommand(socketPath, 'show stat')).trim().split('\n')
  const header = csv[0].replace(/^# /, '').split(',')
  const column = (name: string) => header.indexOf(name)
  const servers = new Map<string, ServerStat>()
  for (const line of csv.slice(1)) {
    const cells = line.split(',')
    if (cells[column('pxname')] !== 'api' || ['FRONTEND', 'BACKEND'].includes(cells[column('svname')])) continue
    servers.set(cells[column('svname')], { status: cells[column('status')], sessions: Number(cells[column('stot')]) })
  }
  return servers
}

async function waitServerStatus (socketPath: string, name: string, wanted: (status: string) => boolean, what: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS
  let last = '?'
  while (Date.now() < deadline) {
    last = (await backendServers(socketPath)).get(name)?.status ?? 'absent'
    if (wanted(last)) return
    await sleep(50)
  }
  throw new Error(`HAProxy did not see ${name} ${what} within ${START_TIMEOUT_MS / 1000} s (status ${last})`)
}

// ---- load ----------------------------------------------------------------------------------------------------------

interface Failure { at: number, what: string, outcome: string }

interface Tally {
  /** Start time of every request, for the per-restart counts. */
  started: number[]
  failures: Failure[]
  byRoute: Map<string, { requests: number, failed: number }>
  createdRecipes: Set<string>
  createdComments: Set<string>
}

interface Client {
  token: string
  userId: string
  ownRecipes: string[]
  liked: Set<string>
}

async function call (base: string, method: string, url: string, token?: string, body?: unknown): Promise<{ status: number, body: any }> {
  const headers: Record<string, string> = {}
  if (token != null) headers.authorization = `Bearer ${token}`
  if (body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(base + url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS)
  })
  const text = await res.text()
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {}
  return { status: res.status, body: parsed }
}

/** One request of the mix, counted under its route: the body when the status is the expected one, else undefined. */
async function counted (tally: Tally, base: string, route: string, expected: number, method: string, url: string, token?: string, body?: unknown): Promise<any> {
  const at = Date.now()
  tally.started.push(at)
  const stats = tally.byRoute.get(route) ?? { requests: 0, failed: 0 }
  tally.byRoute.set(route, stats)
  stats.requests++
  try {
    const res = await call(base, method, url, token, body)
    if (res.status === expected) return res.body
    stats.failed++
    tally.failures.push({ at, what: `${method} ${url}`, outcome: `${res.status} ${JSON.stringify(res.body).slice(0, 200)}` })
  } catch (err) {
    stats.failed++
    const cause = (err as { cause?: { code?: string, message?: string } }).cause
    tally.failures.push({ at, what: `${method} ${url}`, outcome: `${(err as Error).message}${cause != null ? ` (${cause.code ?? cause.message})` : ''}` })
  }
  return undefined
}

function pick<T> (list: T[]): T {
  return list[Math.floor(Math.random() * list.length)]
}

/** A client's loop: reads of the listing and of recipes, and writes (create, edit, like/unlike, comment) of its own. */
async function runClient (client: Client, base: string, recipes: string[], tally: Tally, running: () => boolean): Promise<void> {
  let creates = 0
  while (running()) {
    const roll = Math.random()
    if (roll < 0.35) {
      await counted(tally, base, 'GET /api/recipes', 200, 'GET', '/api/recipes?limit=12')
    } else if (roll < 0.55) {
      await counted(tally, base, 'GET /api/recipes/:id', 200, 'GET', `/api/recipes/${pick(recipes)}`, pick([client.token, undefined]))
    } else if (roll < 0.65 && creates < MAX_CREATES_PER_CLIENT) {
      creates++
      const made = await counted(tally, base, 'POST /api/recipes', 201, 'POST', '/api/recipes', client.token, {
        title: `Rolling restart ${randomBytes(3).toString('hex')}`, ingredients: ['1 cup flour', '2 eggs'], visibility: 'public', published: true
      })
      if (made?.recipe?.id != null) {
        tally.createdRecipes.add(String(made.recipe.id))
        client.ownRecipes.push(String(made.recipe.id))
        recipes.push(String(made.recipe.id))
      }
    } else if (roll < 0.72 && client.ownRecipes.length > 0) {
      await counted(tally, base, 'PATCH /api/recipes/:id', 200, 'PATCH', `/api/recipes/${pick(client.ownRecipes)}`, client.token, {
        description: `Edited at ${new Date().toISOString()}`
      })
    } else if (roll < 0.88) {
      const recipe = pick(recipes)
      if (client.liked.has(recipe)) {
        const ok = await counted(tally, base, 'DELETE like', 200, 'DELETE', `/api/social/recipes/${recipe}/like`, client.token)
        if (ok !== undefined) client.liked.delete(recipe)
      } else {
        const ok = await counted(tally, base, 'POST like', 200, 'POST', `/api/social/recipes/${recipe}/like`, client.token)
        if (ok !== undefined) client.liked.add(recipe)
      }
    } else {
      const made = await counted(tally, base, 'POST comment', 201, 'POST', `/api/social/recipes/${pick(recipes)}/comments`, client.token, {
        content: `Rolling restart comment ${randomBytes(3).toString('hex')}`
      })
      if (made?.comment?.id != null) tally.createdComments.add(String(made.comment.id))
    }
  }
}

// ---- the run -------------------------------------------------------------------------------------------------------

export interface RestartResult {
  instance: string
  exitCode: number | null
  /** SIGTERM to exit, exit to ready (its own /readyz), ready to back in HAProxy's rotation. */
  stopMs: number
  readyMs: number
  upMs: number
  /** Requests started from the SIGTERM until HAProxy had the instance back, and how many of them failed. */
  requests: number
  failed: number
}

export interface RollingRestartReport {
  ok: boolean
  requests: number
  failed: number
  restarts: RestartResult[]
  byRoute: Record<string, { requests: number, failed: number }>
  /** Sessions HAProxy sent to each instance over the run. */
  servedBy: Record<string, number>
  /** The first failures (time since the load started, request, status and body or error). */
  failures: string[]
  /** Problems other than failed requests: an instance that did not exit 0, written rows that differ. */
  problems: string[]
  /** Where the instances' and HAProxy's output was written (removed after a run that passed). */
  logDir: string
}

export interface RollingRestartOptions {
  databaseUrl?: string
  redisUrl?: string
  clients?: number
  /** Load before the first restart and after the last one. */
  warmupMs?: number
  onLine?: (line: string) => void
}

export async function runRollingRestart (options: RollingRestartOptions = {}): Promise<RollingRestartReport> {
  const haproxy = haproxyBinary()
  if (haproxy == null) throw new Error('HAProxy not found: install Debian\'s haproxy package or set HAPROXY')
  const maintenanceUrl = options.databaseUrl ?? process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL
  const redisUrl = options.redisUrl ?? process.env.REDIS_URL ?? DEFAULT_REDIS_URL
  const clientCount = options.clients ?? Number(process.env.ROLLING_CLIENTS ?? 4)
  const warmupMs = options.warmupMs ?? Number(process.env.ROLLING_WARMUP_MS ?? 3000)
  const say = options.onLine ?? (() => {})
  const runId = randomBytes(4).toString('hex')
  const dbName = `rolling_${runId}`
  const cachePrefix = `rolling:${runId}:`
  const url = onDatabase(maintenanceUrl, dbName)
  const dir = await mkdtemp(path.join(tmpdir(), 'recipes-rolling-restart-'))
  const instances: Instance[] = []
  let balancer: ChildProcess | undefined
  let databaseCreated = false
  const problems: string[] = []
  const tally: Tally = { started: [], failures: [], byRoute: new Map(), createdRecipes: new Set(), createdComments: new Set() }
  const restarts: RestartResult[] = []
  let servedBy: Record<string, number> = {}
  let loadStart = Date.now()

  try {
    const probe = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null })
    await probe.connect().then(async () => await probe.ping()).finally(() => probe.disconnect())
      .catch((err: Error) => { throw new Error(`Redis at ${redisUrl} is unreachable (${err.message}): the instances share it`) })
    await withConnection(maintenanceUrl, async sql => { await sql`create database ${sql(dbName)}` })
    databaseCreated = true

    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dir, 'data'),
      STORAGE_PUBLIC_URL: 'http://127.0.0.1',
      DATABASE_URL: url,
      DB_POOL_MAX: '5',
      REDIS_URL: redisUrl,
      CACHE_PREFIX: cachePrefix,
      BCRYPT_COST: '10',
      JWT_SECRET: randomBytes(32).toString('hex'),
      ADMIN_JWT_SECRET: randomBytes(32).toString('hex'),
      TRUST_PROXY: 'loopback',
      RATE_LIMIT_GLOBAL_MAX: '1000000',
      RATE_LIMIT_ROUTER_MAX: '1000000',
      RATE_LIMIT_AUTH_MAX: '1000000',
      LOG_LEVEL: 'info'
    }
    for (const name of ['a', 'b', 'c']) {
      const logFile = path.join(dir, `instance-${name}.log`)
      instances.push({ name, port: await freePort(), bffPort: await freePort(), child: null, exited: Promise.resolve(null), log: createWriteStream(logFile, { flags: 'a' }), logFile })
    }
    // The first one migrates the fresh database; the others start together once it has.
    spawnInstance(instances[0], env, dir)
    await waitReady(instances[0])
    for (const instance of instances.slice(1)) spawnInstance(instance, env, dir)
    await Promise.all(instances.slice(1).map(waitReady))

    const frontPort = await freePort()
    const statsSocket = path.join(dir, 'haproxy.sock')
    const configFile = path.join(dir, 'haproxy.cfg')
    await writeFile(configFile, haproxyConfig(await readFile(HAPROXY_CONFIG, 'utf8'), {
      bind: `127.0.0.1:${frontPort}`,
      servers: instances.map(i => ({ name: i.name, address: `127.0.0.1:${i.port}` })),
      statsSocket
    }))
    const haproxyLog = createWriteStream(path.join(dir, 'haproxy.log'))
    balancer = spawn(haproxy, ['-db', '-f', configFile], { stdio: ['ignore', 'pipe', 'pipe'] })
    balancer.stdout!.pipe(haproxyLog)
    balancer.stderr!.pipe(haproxyLog)
    const balancerExit = new Promise<string>(resolve => balancer!.once('exit', code => resolve(`HAProxy exited with ${code}`)))
    await Promise.race([
      (async () => {
        while (!existsSync(statsSocket)) await sleep(50)
        for (const instance of instances) await waitServerStatus(statsSocket, instance.name, status => status === 'UP', 'UP')
      })(),
      balancerExit.then(message => { throw new Error(`${message} before its servers were up: see ${dir}/haproxy.log`) })
    ])
    const base = `http://127.0.0.1:${frontPort}`
    say(`3 instances (${instances.map(i => `${i.name} :${i.port}`).join(', ')}) behind HAProxy on ${base}; database ${dbName}`)

    // Users and a few recipes to read, made through HAProxy like everything else.
    const clients: Client[] = []
    const recipes: string[] = []
    for (let i = 0; i < clientCount; i++) {
      const username = `rr_${runId}_${i}`
      const registered = await call(base, 'POST', '/api/auth/register', undefined, { username, email: `${username}@example.com`, password: PASSWORD })
      if (registered.status !== 201) throw new Error(`registering ${username}: ${registered.status} ${JSON.stringify(registered.body)}`)
      const client: Client = { token: registered.body.token, userId: registered.body.user.id, ownRecipes: [], liked: new Set() }
      const made = await call(base, 'POST', '/api/recipes', client.token, { title: `Rolling restart seed ${i}`, ingredients: ['salt'], visibility: 'public', published: true })
      if (made.status !== 201) throw new Error(`creating a recipe: ${made.status} ${JSON.stringify(made.body)}`)
      tally.createdRecipes.add(String(made.body.recipe.id))
      client.ownRecipes.push(String(made.body.recipe.id))
      recipes.push(String(made.body.recipe.id))
      clients.push(client)
    }

    let running = true
    loadStart = Date.now()
    const load = Promise.all(clients.map(async client => { await runClient(client, base, recipes, tally, () => running) }))
    try {
      await sleep(warmupMs)
      for (const instance of instances) {
        const from = Date.now()
        const exitCode = await stopInstance(instance)
        const exitedAt = Date.now()
        if (exitCode !== 0) problems.push(`instance ${instance.name} exited with ${exitCode ?? 'SIGKILL after the stop timeout'}`)
        spawnInstance(instance, env, dir)
        await waitReady(instance)
        const readyAt = Date.now()
        await waitServerStatus(statsSocket, instance.name, status => status === 'UP', 'back UP')
        const upAt = Date.now()
        const started = tally.started.filter(at => at >= from && at < upAt).length
        const failed = tally.failures.filter(f => f.at >= from && f.at < upAt).length
        const result: RestartResult = { instance: instance.name, exitCode, stopMs: exitedAt - from, readyMs: readyAt - exitedAt, upMs: upAt - readyAt, requests: started, failed }
        restarts.push(result)
        say(`restart ${instance.name}: exit ${exitCode ?? 'killed'} after ${result.stopMs} ms, ready ${result.readyMs} ms later, ` +
          `back in rotation ${result.upMs} ms after that; ${started} requests meanwhile, ${failed} failed`)
      }
      await sleep(warmupMs)
    } finally {
      running = false
      await load
    }
    servedBy = Object.fromEntries([...(await backendServers(statsSocket)).entries()].map(([name, stat]) => [name, stat.sessions]))

    // Every write a client was told about is there, once; none it was not told about.
    const userIds = clients.map(c => c.userId)
    await withConnection(url, async sql => {
      const rows = await sql<Array<{ id: string }>>`select id from recipes where author_id = any(${userIds})`
      const stored = new Set(rows.map(r => String(r.id)))
      const missing = [...tally.createdRecipes].filter(id => !stored.has(id))
      if (missing.length > 0 || stored.size !== tally.createdRecipes.size) {
        problems.push(`recipes: ${tally.createdRecipes.size} acknowledged, ${stored.size} stored, ${missing.length} acknowledged but missing`)
      }
      const comments = await sql<Array<{ n: number }>>`select count(*)::int as n from comments where user_id = any(${userIds})`
      if (comments[0].n !== tally.createdComments.size) {
        problems.push(`comments: ${tally.createdComments.size} acknowledged, ${comments[0].n} stored`)
      }
    })
  } finally {
    await Promise.all(instances.map(async instance => {
      const code = await stopInstance(instance)
      if (code !== 0 && instance.child != null) problems.push(`instance ${instance.name} exited with ${code ?? 'SIGKILL'} at the end`)
    }))
    if (balancer != null && balancer.exitCode == null) {
      const gone = new Promise(resolve => balancer!.once('exit', resolve))
      balancer.kill('SIGTERM')
      await gone
    }
    for (const instance of instances) instance.log.end()
    if (databaseCreated) await dropDatabase(maintenanceUrl, dbName).catch((err: Error) => problems.push(`could not drop database ${dbName}: ${err.message}`))
    const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null })
    await redis.connect().then(async () => {
      let cursor = '0'
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${cachePrefix}*`, 'COUNT', 500)
        if (keys.length > 0) await redis.del(...keys)
        cursor = next
      } while (cursor !== '0')
    }).catch(() => {}).finally(() => redis.disconnect())
  }

  const failed = tally.failures.length
  const ok = failed === 0 && problems.length === 0 && restarts.length === instances.length
  if (ok) await rm(dir, { recursive: true, force: true })
  return {
    ok,
    requests: tally.started.length,
    failed,
    restarts,
    byRoute: Object.fromEntries(tally.byRoute),
    servedBy,
    failures: tally.failures.slice(0, 20).map(f => `+${f.at - loadStart} ms ${f.what}: ${f.outcome}`),
    problems,
    logDir: dir
  }
}

if (process.argv[1] != null && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const report = await runRollingRestart({ onLine: line => console.log(line) })
  console.log(`requests: ${report.requests}, failed: ${report.failed}`)
  for (const [route, stats] of Object.entries(report.byRoute)) console.log(`  ${route}: ${stats.requests} (${stats.failed} failed)`)
  console.log(`sessions per instance (HAProxy): ${Object.entries(report.servedBy).map(([name, n]) => `${name} ${n}`).join(', ')}`)
  for (const failure of report.failures) console.log(`FAILED ${failure}`)
  for (const problem of report.problems) console.log(`PROBLEM ${problem}`)
  if (!report.ok) console.log(`logs: ${report.logDir}`)
  console.log(report.ok ? 'ok: no request failed during the rolling restart' : 'FAIL')
  process.exitCode = report.ok ? 0 : 1
}
