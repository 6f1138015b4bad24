// `npm run bench`: the service's hot paths side by side with bare Fastify and PostgreSQL ceilings, on the same Node,
// in the same run. Builds dist/, prepares the dataset's database (bench/datasets.ts), starts the service
// (production build), a bare Fastify hello server and a bare Fastify + postgres.js server (and, for the media scenarios,
// a bare file and sharp server), each in its own process, then runs BENCH_ROUNDS interleaved rounds and writes
// bench/results/<date>-<dataset>.{json,md}. For the household scenarios the reader's week (a family, a meal plan, a
// grocery list) is set up through the service first (bench/households.ts). See bench/README.md.
//   BENCH_DATASET=S|M|L (M)  BENCH_SECONDS (5)  BENCH_ROUNDS (3)  BENCH_WARMUP_SECONDS (3)  BENCH_ONLY=<names>  DATABASE_URL  REDIS_URL  BENCH_RESULTS_DIR
// Any failed response (not the expected 200/201, or a body that fails its check), wrong like counter, media row
// without its file (or file without its row), or grocery list that is not whole makes the run invalid: exit 1.
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import postgres from 'postgres'
import { DATASETS, prepareDataset, type Dataset, type DatasetName } from './datasets.js'
import { groceryListsWritten, removeGroceryLists, removeHousehold, setUpHousehold } from './households.js'
import { measure, type Load, type Measurement } from './load.js'
import { distinctJpegs, mediaProblem, removeMedia, uploadBenchFile } from './media.js'
import {
  compareWith, describeMachine, evaluate, markdown, newestReference, sourceState, summarize, writeResults,
  type CeilingRecord, type Results, type Round, type ScenarioRecord
} from './report.js'
import { CEILING_LABELS, ceilingLoads, ISSUE_LOAD, scenarios, type CeilingName, type Runtime } from './scenarios.js'
import { ADMIN_ID, ADMIN_USERNAME, BENCH_PASSWORD, READER_ID, STORM_USERS, fanUsername, stormId, stormUsername } from './seed.js'
import { REPO, bundleCeiling, freePort, startChild, type Child, type ProbeReport } from './servers.js'

const THROUGHPUT_CONNECTIONS = 50
const LATENCY_CONNECTIONS = 10
/** Dataset L runs only these, latency only, and compares their p99 with the newest M result. */
const L_SCENARIOS = ['list', 'search-common', 'search-rare', 'feed', 'deep-page']
const SCENARIO_NAMES = ['list', 'list-signed-in', 'search-common', 'search-rare', 'search-zero', 'feed', 'popular', 'me', 'detail', 'detail-same-statement', 'healthz',
  'deep-page', 'login', 'login-detail', 'like-storm', 'mixed', 'media-file', 'media-upload',
  'mealplan-detail', 'planned-week', 'grocery-detail', 'grocery-from-plan', 'nutrition-recipe', 'unread-count', 'push-preferences', 'analytics-config',
  'admin-analytics', 'import-preview', 'ai-search']
const ADMIN_SCENARIOS = ['admin-analytics']
const MEDIA_SCENARIOS = ['media-file', 'media-upload']
const HOUSEHOLD_SCENARIOS = ['mealplan-detail', 'planned-week', 'grocery-detail', 'grocery-from-plan']
/** What a scenario's consistency check found wrong, for the problems of an invalid run. */
const INCONSISTENT: Record<string, string> = { 'media-upload': 'media rows and stored files differ', 'grocery-from-plan': 'grocery lists not whole' }
const LIFTED = '1000000000'

function settings () {
  const dataset = (process.env.BENCH_DATASET ?? 'M').toUpperCase()
  if (!(dataset in DATASETS)) throw new Error(`BENCH_DATASET must be S, M or L, not ${dataset}`)
  const seconds = Number(process.env.BENCH_SECONDS ?? 5)
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
  if (!(seconds > 0)) throw new Error('BENCH_SECONDS must be a positive number')
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('BENCH_ROUNDS must be a positive integer')
  const warmup = Number(process.env.BENCH_WARMUP_SECONDS ?? 3)
  if (!(warmup > 0)) throw new Error('BENCH_WARMUP_SECONDS must be a positive number')
  const only = process.env.BENCH_ONLY == null || process.env.BENCH_ONLY.trim() === ''
    ? null
    : process.env.BENCH_ONLY.split(',').map(s => s.trim()).filter(Boolean)
  const unknown = only?.filter(name => !SCENARIO_NAMES.includes(name)) ?? []
  if (unknown.length > 0) throw new Error(`BENCH_ONLY: unknown scenario ${unknown.join(', ')}; known: ${SCENARIO_NAMES.join(', ')}`)
  return { dataset: dataset as DatasetName, seconds, rounds, warmup, only }
}

function build (): void {
  console.log('npm run build')
  const npm = process.env.npm_execpath
  const result = npm != null && npm.endsWith('.js')
    ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: REPO, stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build'], { cwd: REPO, stdio: 'inherit' })
  if (result.status !== 0) throw new Error('npm run build failed: the service cannot be measured')
}

/** DATABASE_URL without credentials, for the results. */
function location (url: string): string {
  const parsed = new URL(url)
  return `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`
}

async function startServers (dataset: Dataset, work: string, withMedia: boolean) {
  const [port, bffPort, helloPort, dbPort, mediaPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()])
  const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? work }
  const redisUrl = process.env.REDIS_URL
  const serviceEnv: Record<string, string> = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    BFF_PORT: String(bffPort),
    DATA_DIR: dataDir(work),
    STORAGE_PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: dataset.url,
    CACHE_PREFIX: `bench-${dataset.name.toLowerCase()}:`,
    // Throughput, not the limiters, is measured.
    RATE_LIMIT_GLOBAL_MAX: LIFTED,
    RATE_LIMIT_ROUTER_MAX: LIFTED,
    RATE_LIMIT_AUTH_MAX: LIFTED,
    RATE_LIMIT_IMPORTS_PER_HOUR: LIFTED,
    RATE_LIMIT_AI_PER_HOUR: LIFTED,
    // The login flood keeps 50 sign-ins in flight: all of them wait for a hashing thread, none is refused (503).
    PASSWORD_QUEUE_MAX: '10000',
    ...(redisUrl != null && redisUrl !== '' && { REDIS_URL: redisUrl })
  }
  const secrets = { JWT_SECRET: randomBytes(32).toString('base64url'), ADMIN_JWT_SECRET: randomBytes(32).toString('base64url') }
  // The ceilings run as an outside reader runs a bare server: plain JavaScript on `node` with its default flags (no
  // loader), bundled from bench/ceiling.ts. (Measured on the 2-core VM: under tsx the bare hello read the same.)
  const ceilingScript = await bundleCeiling()
  // The service runs as `npm start` runs it (its node flags and script), from any working directory.
  const start = (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start
  const words = start.split(/\s+/)
  // Leading NAME=value words are the environment the script sets (MALLOC_ARENA_MAX); then node and its arguments.
  const startEnv = Object.fromEntries(words.filter((_, i) => i < words.indexOf('node')).map(word => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]))
  const serviceArgs = words.slice(words.indexOf('node') + 1).map(arg => arg.endsWith('.js') ? path.join(REPO, arg) : arg)
  // BENCH_NODE_ARGS: extra node flags for the service alone (a profile of a scenario: --cpu-prof --cpu-prof-dir=...).
  serviceArgs.unshift(...(process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean))
  const [service, hello, db, media] = await Promise.all([
    startChild({
      name: 'service',
      args: serviceArgs,
      env: { ...base, ...startEnv, ...serviceEnv, ...secrets },
      cwd: work, // no .env of the working tree is read
      port,
      logFile: path.join(work, 'service.log'),
      readyPath: '/readyz'
    }),
    startChild({
      name: 'hello',
      args: [ceilingScript, 'hello'],
      env: { ...base, CEILING_PORT: String(helloPort) },
      cwd: REPO,
      port: helloPort,
      logFile: path.join(work, 'hello.log'),
      readyPath: '/'
    }),
    startChild({
      name: 'ceiling',
      args: [ceilingScript, 'db'],
      env: { ...base, CEILING_PORT: String(dbPort), CEILING_DATABASE_URL: dataset.url, BENCH_PASSWORD },
      cwd: REPO,
      port: dbPort,
      logFile: path.join(work, 'ceiling.log'),
      readyPath: '/pk/reader'
    }),
    // Only for the media scenarios: it reads the service's upload directory (the same files).
    withMedia
      ? startChild({
        name: 'media-ceiling',
        args: [ceilingScript, 'media'],
        env: { ...base, CEILING_PORT: String(mediaPort), CEILING_FILES_DIR: uploadsDir(work) },
        cwd: REPO,
        port: mediaPort,
        logFile: path.join(work, 'media-ceiling.log'),
        readyPath: '/'
      })
      : undefined
  ])
  const recordedEnv = { ...serviceEnv, DATABASE_URL: location(dataset.url), ...(redisUrl != null && redisUrl !== '' && { REDIS_URL: location(redisUrl) }) }
  return { service, hello, db, media, recordedEnv, cache: redisUrl != null && redisUrl !== '' ? `Redis (${location(redisUrl)})` : 'in-process' }
}

async function login (base: string, identifier: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier, password: BENCH_PASSWORD })
  })
  const body = await response.json().catch(() => null) as { token?: unknown } | null
  if (!response.ok || typeof body?.token !== 'string') throw new Error(`login as ${identifier}: ${response.status} ${JSON.stringify(body)}`)
  return body.token
}

/** The bench admin's token, from the service's admin sign-in (no MFA). */
async function adminLogin (base: string): Promise<string> {
  const response = await fetch(`${base}/api/admin/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: ADMIN_USERNAME, password: BENCH_PASSWORD })
  })
  const body = await response.json().catch(() => null) as { token?: unknown } | null
  if (!response.ok || typeof body?.token !== 'string') throw new Error(`admin login as ${ADMIN_USERNAME}: ${response.status} ${JSON.stringify(body)}`)
  return body.token
}

/** Every admin request writes an audit entry and keeps a session: the bench admin's are removed before and after a run. */
async function removeAdminTrail (sql: postgres.Sql): Promise<void> {
  await sql`delete from admin_audit_logs where admin_id = ${ADMIN_ID}`
  await sql`delete from admin_sessions where admin_id = ${ADMIN_ID}`
}

async function tokensFor (base: string, usernames: string[]): Promise<string[]> {
  const tokens: string[] = []
  for (let i = 0; i < usernames.length; i += 4) tokens.push(...await Promise.all(usernames.slice(i, i + 4).map(async u => await login(base, u))))
  return tokens
}

const stormIds = Array.from({ length: STORM_USERS }, (_, i) => stormId(i))
const dataDir = (work: string) => path.join(work, 'data')
/** The service's local storage (DATA_DIR/uploads). */
const uploadsDir = (work: string) => path.join(dataDir(work), 'uploads')

/** null when every recipe's like_count equals its likes, else what differs. */
async function likeCounterProblem (sql: postgres.Sql): Promise<string | null> {
  const [{ n, example }] = await sql<Array<{ n: number, example: string | null }>>`
    select count(*)::int as n, min(r.id) as example from recipes r
    left join (select recipe_id, count(*)::int as c from likes group by recipe_id) l on l.recipe_id = r.id
    where r.like_count <> coalesce(l.c, 0)`
  return n === 0 ? null : `${n} recipes with like_count <> count(likes), e.g. ${example}`
}

/** Puts the dataset back as seeded: the storm users like nothing and notified no one. */
async function removeStormLikes (sql: postgres.Sql): Promise<void> {
  await sql.begin(async tx => {
    await tx`with gone as (delete from likes where user_id = any(${stormIds}) returning recipe_id)
      update recipes r set like_count = r.like_count - g.n
      from (select recipe_id, count(*)::int as n from gone group by recipe_id) g where r.id = g.recipe_id`
    // With their delivery jobs still waiting: the service would work through them during later runs.
    await tx`with gone as (delete from notifications where actor_id = any(${stormIds}) returning id)
      delete from pgboss.job where name = 'notification.deliver' and state = 'created' and data->>'id' in (select id from gone)`
  })
  // What the writes churned, vacuumed as autovacuum would between storms in production: the bench's PostgreSQL runs
  // with autovacuum off, and without this every storm left its dead rows (recipe_popularity's updates are not HOT)
  // to the next one, so the storm measured fewer requests each run (1,600 -> 770 req/s over five runs).
  await sql`vacuum analyze likes, recipe_popularity, recipes, notifications`
}

/** Waits until the service (and, when named, the ceiling) has no query running or transaction open (requests still finishing after a run). */
async function databaseIdle (sql: postgres.Sql, database: string, applications = ['recipe-platform']): Promise<void> {
  const end = Date.now() + 15_000
  while (Date.now() < end) {
    const [{ busy }] = await sql<Array<{ busy: number }>>`select count(*)::int as busy from pg_stat_activity
      where datname = ${database} and application_name = any(${applications}) and state <> 'idle'`
    if (busy === 0) return
    await new Promise(resolve => setTimeout(resolve, 100))
  }
}

const ms = (n: number) => n.toFixed(2)
const rps = (m?: Measurement) => m == null ? '' : `${Math.round(m.rps).toLocaleString('en')} req/s`
const lat = (m?: Measurement) => m == null ? '' : `p50 ${ms(m.p50)} p99 ${ms(m.p99)} ms`
const bad = (...ms: Array<Measurement | undefined>) => {
  const failures = ms.reduce((n, m) => n + (m?.failures ?? 0), 0)
  return failures > 0 ? ` FAILURES ${failures}: ${ms.flatMap(m => m?.samples ?? [])[0]}` : ''
}

async function main (): Promise<number> {
  const options = settings()
  const started = Date.now()
  const loadAtStart = loadavg().map(n => Math.round(n * 100) / 100)
  const phase = (what: string) => console.log(`${what} (${Math.round((Date.now() - started) / 1000)} s)`)
  build()
  const source = sourceState()
  phase('built dist/')
  const dataset = await prepareDataset(options.dataset)
  phase(`dataset ${options.dataset} ready`)
  const sql = postgres(dataset.url, { max: 2, onnotice: () => {} })
  const work = mkdtempSync(path.join(tmpdir(), 'recipe-bench-'))
  let servers: Awaited<ReturnType<typeof startServers>> | undefined
  let valid = false
  try {
    const [{ version }] = await sql<Array<{ version: string }>>`select current_setting('server_version') as version`
    const isL = options.dataset === 'L'
    const names = SCENARIO_NAMES
      .filter(name => !isL || L_SCENARIOS.includes(name))
      .filter(name => options.only == null || options.only.includes(name))
    if (names.length === 0) throw new Error('BENCH_ONLY selected no scenario for this dataset')
    const withMedia = names.some(name => MEDIA_SCENARIOS.includes(name))
    const withHousehold = names.some(name => HOUSEHOLD_SCENARIOS.includes(name))
    const withAdmin = names.some(name => ADMIN_SCENARIOS.includes(name))
    console.log(`starting the service (dist/server.js, production), a bare hello server, a bare PostgreSQL server${withMedia ? ' and a bare file/sharp server' : ''}; logs in ${work}`)
    servers = await startServers(dataset, work, withMedia)
    phase('servers ready')
    const { service, hello, db, media } = servers
    const children = [service, hello, db, ...(media != null ? [media] : [])]
    const quiet = async () => { await Promise.all(children.map(async child => { await child.quiet() })) }
    await removeStormLikes(sql)
    // An earlier run's media rows point at files that went with its temporary folder.
    await removeMedia(sql, uploadsDir(work), [READER_ID, ...stormIds])
    // And an earlier run's household rows (one that stopped before its clean-up).
    await removeHousehold(sql, stormIds)
    if (withAdmin) await removeAdminTrail(sql)

    const writes = names.includes('like-storm') || names.includes('mixed') || names.includes('media-upload') || names.includes('grocery-from-plan')
    const runtime: Runtime = {
      shape: dataset.shape,
      readerToken: (await tokensFor(service.base, ['reader']))[0],
      stormTokens: writes ? await tokensFor(service.base, Array.from({ length: STORM_USERS }, (_, i) => stormUsername(i))) : [],
      loginUsers: Array.from({ length: Math.min(dataset.shape.fans, 2000) }, (_, i) => fanUsername(i)),
      password: BENCH_PASSWORD,
      adminToken: withAdmin ? await adminLogin(service.base) : undefined
    }
    phase(`signed in through the service as the reader${writes ? ` and ${STORM_USERS} storm users` : ''}${withAdmin ? ' and the bench admin' : ''}`)
    // The later families' data is set up through the service when their part begins, not before the issue's load: one
    // upload loads sharp (libvips and its thread: about 30 MB the process keeps), which the issue's load never uses.
    const setUpFor = async (part: string[]) => {
      if (part.some(name => MEDIA_SCENARIOS.includes(name)) && runtime.media == null) {
        const [file, jpegs] = await Promise.all([uploadBenchFile(service.base, runtime.readerToken), distinctJpegs()])
        runtime.media = { file, jpeg: jpegs.nth }
        phase(`uploaded the file media-file reads (${file.size} bytes) through the service`)
      }
      if (part.some(name => HOUSEHOLD_SCENARIOS.includes(name)) && runtime.household == null) {
        const shareWith = names.includes('grocery-from-plan') ? stormIds : []
        runtime.household = await setUpHousehold(service.base, runtime.readerToken, dataset.shape, shareWith)
        phase('set up the reader\'s week through the service: a family, a meal plan of 21 planned meals, a grocery list of ' +
          `${runtime.household.items} items (${runtime.household.fromPlanItems} gathered from the plan)${shareWith.length > 0 ? `, the plan shared with ${shareWith.length} storm users` : ''}`)
      }
      const all = scenarios(runtime)
      return { all, selected: all.filter(s => part.includes(s.name)).map(s => isL ? { ...s, throughput: false, ceiling: undefined } : s) }
    }
    const ceilingOf: Record<CeilingName, Child | undefined> = {
      list: db, search: db, pk: db, detail: db, bcrypt: db, hello, file: media, sharp: media, mealplan: db, planned: db, grocery: db, 'from-plan': db, extract: db
    }
    // Filled part by part (a part's scenarios exist once its data is set up), reported in the scenarios' own order.
    const records: ScenarioRecord[] = []
    const ceilings: CeilingRecord[] = []

    // The service's peak RSS per scenario: every service run resets the high-water mark and reads it afterwards.
    let scenarioPeak = 0
    let runPeak = 0
    const servicePeak = (report: ProbeReport): ProbeReport => {
      // The browser's processes count while they run (read when the run ends: it idles a while after its last page).
      const peak = report.peakRss + report.descendantsRss
      scenarioPeak = Math.max(scenarioPeak, peak)
      runPeak = Math.max(runPeak, peak)
      return report
    }
    const runService = async (load: Load, connections = LATENCY_CONNECTIONS, seconds = options.seconds, checked = true): Promise<{ m: Measurement, loop: ProbeReport }> => {
      await quiet()
      await service.reset()
      const m = await measure(service.base, load, connections, seconds, checked)
      return { m, loop: servicePeak(await service.report()) }
    }
    const run = async (child: Child | undefined, load: Load, connections: number, seconds = options.seconds, checked = true) => {
      if (child == null) throw new Error('a ceiling server that was not started')
      if (child === service) return (await runService(load, connections, seconds, checked)).m
      await quiet()
      return await measure(child.base, load, connections, seconds, checked)
    }
    /** After uploads: null when the storm users' rows and files agree, else what differs; then both are removed. */
    const checkAndRemoveUploads = async (responses: number) => {
      await quiet()
      await databaseIdle(sql, new URL(dataset.url).pathname.slice(1))
      const problem = await mediaProblem(sql, uploadsDir(work), stormIds, responses)
      await removeMedia(sql, uploadsDir(work), stormIds)
      return problem
    }
    /** After a run that gathered grocery lists (service or ceiling): null when every list is whole, else what differs; then they are removed. */
    const checkAndRemoveGroceryLists = async (responses: number) => {
      await quiet()
      await databaseIdle(sql, new URL(dataset.url).pathname.slice(1), ['recipe-platform', 'bench-ceiling'])
      const problem = await groceryListsWritten(sql, stormIds, runtime.household!, responses)
      await removeGroceryLists(sql, stormIds)
      return problem
    }

    // Two parts, each warmed up and measured in its own rounds: first the load of issue 11's table (its RSS target is
    // "under this load"), then the families built later (uploads, imports, households...), whose memory a process
    // keeps once it has served them. The second part's peak is the whole run's.
    const issueNames = names.filter(name => ISSUE_LOAD.has(name))
    const partNames = [issueNames, names.filter(name => !ISSUE_LOAD.has(name))].filter(part => part.length > 0)
    let issueLoadPeak: number | null = null
    let order: string[] = []
    for (const chosen of partNames) {
      const { all, selected: part } = await setUpFor(chosen)
      order = all.map(s => s.name)
      const ceilingLoad = ceilingLoads(runtime)
      const flood = all.find(s => s.name === 'login')!.load
      records.push(...part.map((s): ScenarioRecord => ({ name: s.name, label: s.label, ceiling: s.ceiling, rounds: [] })))
      const partCeilings = [...new Set(part.flatMap(s => s.ceiling == null ? [] : [s.ceiling]))]
      ceilings.push(...partCeilings.filter(name => !ceilings.some(c => c.name === name)).map((name): CeilingRecord => ({ name, label: CEILING_LABELS[name], rounds: [] })))
      // Warm-up, excluded from the results: BENCH_WARMUP_SECONDS of every load, so the first round does not pay for JIT
      // and cold caches alone (a fresh service's /healthz needed about 10 s at 50 connections to reach its rate).
      console.log('warm-up')
      const connectionsOf = (ceiling: CeilingName) => part.find(s => s.ceiling === ceiling)?.connections
      for (const s of part) await run(service, s.load, s.connections?.latency ?? LATENCY_CONNECTIONS, options.warmup)
      for (const name of partCeilings) await run(ceilingOf[name], ceilingLoad[name], connectionsOf(name)?.latency ?? LATENCY_CONNECTIONS, options.warmup)
      await quiet()
      await databaseIdle(sql, new URL(dataset.url).pathname.slice(1))
      await removeStormLikes(sql)
      if (names.includes('media-upload')) await removeMedia(sql, uploadsDir(work), stormIds)
      if (names.includes('grocery-from-plan')) {
        await databaseIdle(sql, new URL(dataset.url).pathname.slice(1), ['recipe-platform', 'bench-ceiling'])
        await removeGroceryLists(sql, stormIds)
      }
      scenarioPeak = 0
      phase(`warmed up: ${chosen === issueNames ? 'the issue\'s load' : 'the later families'}`)

      for (let round = 1; round <= options.rounds; round++) {
        const measured = new Set<CeilingName>()
        // Alternate which side goes first, so a drifting machine favours neither.
        const ceilingFirst = round % 2 === 0
        for (const scenario of part) {
          const r: Round = {}
          const ceiling = scenario.ceiling != null && !measured.has(scenario.ceiling) ? scenario.ceiling : undefined
          const c: CeilingRecord['rounds'][number] = {}
          if (scenario.name === 'login-detail') {
            r.baselineP99 = (await runService(scenario.load)).m.p99
            await quiet()
            const floodRun = measure(service.base, flood, THROUGHPUT_CONNECTIONS, options.seconds + 1)
            await new Promise(resolve => setTimeout(resolve, 500))
            await service.reset()
            r.latency = await measure(service.base, scenario.load, LATENCY_CONNECTIONS, options.seconds)
            r.loop = servicePeak(await service.report())
            r.flood = await floodRun
          } else {
            // The ceiling runs at the scenario's connections (fewer for uploads: see UPLOAD_CONNECTIONS).
            const throughputConnections = scenario.connections?.throughput ?? THROUGHPUT_CONNECTIONS
            const latencyConnections = scenario.connections?.latency ?? LATENCY_CONNECTIONS
            // Grocery lists are checked and removed after every run, the ceiling's too: a storm user owns at most 200.
            const written: string[] = []
            const checked = async (m: Measurement, who: string): Promise<Measurement> => {
              if (scenario.writesGroceryLists !== true) return m
              const problem = await checkAndRemoveGroceryLists(m.responses)
              if (problem != null) written.push(`${who}: ${problem}`)
              return m
            }
            if (scenario.throughput) {
              // Plain (statuses only, as an outside reader measures) when the latency run checks the bodies.
              const plain = scenario.latency
              const throughput = async (child: Child | undefined, load: Load) => await run(child, load, throughputConnections, options.seconds, !plain)
              if (ceiling != null && ceilingFirst) c.throughput = await checked(await throughput(ceilingOf[ceiling], ceilingLoad[ceiling]), 'ceiling')
              r.throughput = await checked(await throughput(service, scenario.load), 'service')
              if (ceiling != null && !ceilingFirst) c.throughput = await checked(await throughput(ceilingOf[ceiling], ceilingLoad[ceiling]), 'ceiling')
            }
            if (scenario.latency) {
              if (ceiling != null && ceilingFirst) c.latency = await checked(await run(ceilingOf[ceiling], ceilingLoad[ceiling], latencyConnections), 'ceiling')
              const { m, loop } = await runService(scenario.load, latencyConnections)
              r.latency = await checked(m, 'service')
              r.loop = loop
              if (ceiling != null && !ceilingFirst) c.latency = await checked(await run(ceilingOf[ceiling], ceilingLoad[ceiling], latencyConnections), 'ceiling')
            }
            if (scenario.writesGroceryLists === true) r.counters = written.length === 0 ? null : written.join('; ')
          }
          if (scenario.writesLikes === true) {
            await quiet()
            await databaseIdle(sql, new URL(dataset.url).pathname.slice(1))
            r.counters = await likeCounterProblem(sql)
            await removeStormLikes(sql)
          }
          if (scenario.writesMedia === true) r.counters = await checkAndRemoveUploads((r.throughput?.responses ?? 0) + (r.latency?.responses ?? 0))
          r.peakRssMb = scenarioPeak
          scenarioPeak = 0
          if (ceiling != null) {
            ceilings.find(x => x.name === ceiling)!.rounds.push(c)
            measured.add(ceiling)
          }
          records.find(x => x.name === scenario.name)!.rounds.push(r)
          console.log(`[${round}/${options.rounds}] ${scenario.name}: ${[rps(r.throughput), lat(r.latency), r.loop == null ? '' : `loop p99 ${ms(r.loop.loopP99)} ms`,
            r.baselineP99 == null ? '' : `alone p99 ${ms(r.baselineP99)} ms, flood ${rps(r.flood)}`,
            ceiling == null ? '' : `| ${ceiling} ceiling ${[rps(c.throughput), lat(c.latency)].filter(Boolean).join(' ')}`,
            r.counters === undefined
              ? ''
              : r.counters == null
                ? (scenario.writesMedia === true ? 'rows and files agree' : scenario.writesGroceryLists === true ? 'grocery lists whole' : 'counters exact')
                : `${scenario.writesGroceryLists === true ? 'GROCERY LISTS WRONG' : 'COUNTERS WRONG'}: ${r.counters}`].filter(Boolean).join(', ')}` +
            bad(r.throughput, r.latency, r.flood, c.throughput, c.latency))
        }
      }
      if (chosen === issueNames) issueLoadPeak = runPeak
    }

    // Warm-up and every measured run; the waits between runs carry no load.
    const last = await service.report()
    const peakRss = Math.max(runPeak, last.peakRss + last.descendantsRss)
    // The dataset as seeded: the reader's file and any upload are gone with this run's temporary folder.
    if (withMedia) await removeMedia(sql, uploadsDir(work), [READER_ID, ...stormIds])
    if (withHousehold) await removeHousehold(sql, stormIds)
    if (withAdmin) {
      await databaseIdle(sql, new URL(dataset.url).pathname.slice(1))
      await removeAdminTrail(sql)
    }
    records.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name))
    const summary = summarize(records, ceilings)
    const problems: string[] = []
    for (const s of summary) {
      if (s.failures > 0) problems.push(`${s.name}: ${s.failures} failed responses`)
      if (s.countersExact === false) problems.push(`${s.name}: ${INCONSISTENT[s.name] ?? 'like counters wrong'}`)
    }
    for (const c of ceilings) {
      const failures = c.rounds.reduce((n, r) => n + (r.throughput?.failures ?? 0) + (r.latency?.failures ?? 0), 0)
      if (failures > 0) problems.push(`ceiling ${c.name}: ${failures} failed responses`)
    }
    const machine = describeMachine(version, servers.cache, source)
    machine.loadAverage.start = loadAtStart
    machine.loadAverage.end = loadavg().map(n => Math.round(n * 100) / 100)
    const results: Results = {
      dataset: options.dataset,
      date: new Date().toISOString().slice(0, 10),
      valid: problems.length === 0,
      problems,
      settings: { seconds: options.seconds, rounds: options.rounds, warmupSeconds: options.warmup, connections: { throughput: THROUGHPUT_CONNECTIONS, latency: LATENCY_CONNECTIONS }, only: options.only },
      machine,
      seed: { version: dataset.seedVersion, seeded: dataset.seeded, seconds: dataset.seedSeconds, seededAt: dataset.seededAt, shape: dataset.shape },
      service: { peakRssMb: peakRss, issueLoadPeakRssMb: issueLoadPeak, logFile: problems.length > 0 ? service.logFile : null, env: servers.recordedEnv },
      summary,
      checks: isL ? [] : evaluate(summary, issueLoadPeak, peakRss),
      scenarios: records,
      ceilings
    }
    if (isL) {
      const reference = newestReference('M')
      results.comparison = { reference: reference?.file ?? null, rows: reference == null ? [] : compareWith(summary, reference.results) }
    }
    const files = writeResults(results)
    console.log(`\n${markdown(results)}`)
    console.log(`written: ${path.relative(REPO, files.md)}, ${path.relative(REPO, files.json)} (${Math.round((Date.now() - started) / 1000)} s in all)`)
    if (!results.valid) console.error(`INVALID RUN: ${problems.join('; ')}; server logs kept in ${work}`)
    valid = results.valid
    return valid ? 0 : 1
  } finally {
    if (servers != null) await Promise.all([servers.service.stop(), servers.hello.stop(), servers.db.stop(), servers.media?.stop()])
    await sql.end({ timeout: 5 })
    // The logs (one line per request) are kept only when something went wrong.
    if (valid) rmSync(work, { recursive: true, force: true })
  }
}

try {
  process.exitCode = await main()
} catch (err) {
  console.error(err instanceof Error ? err.message : err)
  process.exitCode = 1
}
