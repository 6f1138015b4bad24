// `npm run bench:job-queue`: how fast one instance drains `notification.deliver` jobs (plugins/external/queue.ts), the
// job a comment storm makes most of. On a fresh database (created on DATABASE_URL's server, dropped at the end):
//   1. backlog: JOBS jobs are queued while no worker runs (the instance is down), then the instance starts; the time
//      until the last one is done gives the drain rate (target: at least 500 deliveries a second);
//   2. steady load: jobs arrive at RATE a second for LOAD_SECONDS while the instance works; when the load stops, the
//      backlog left must empty within 10 s.
// Each job is real: a notification row (comment on a recipe, the recipient wanting email), read with its recipe and
// comment, and its email recorded in the outbox (no SMTP: recorded, as `npm start` does).
// Prints one line per part and `ok`/`FAIL` against the targets; exits 1 on a miss.
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createId } from '@paralleldrive/cuid2'
import Fastify from 'fastify'
import fp from 'fastify-plugin'
import PgBoss from 'pg-boss'
import postgres from 'postgres'
import app from '../app.js'
import { loadConfig } from '../config.js'
import { databaseUrl as onDatabase, dropDatabase, withConnection } from '../db/admin.js'
import { runMigrations } from '../db/migrator.js'
import { serverOptions } from '../server-options.js'

const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const JOBS = Number(process.env.JOBS ?? 20_000)
const RATE = Number(process.env.RATE ?? 600)
const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 20)
const TARGET_RATE = 500
const TARGET_EMPTY_SECONDS = 10
const QUEUE = 'notification.deliver'

async function seed (sql: postgres.Sql, count: number): Promise<string[]> {
  const [author, reader] = [createId(), createId()]
  await sql`insert into users (id, email, username, username_key, password) values
    (${author}, ${`a-${author}@example.com`}, ${`a${author}`}, ${`a${author}`}, 'x'),
    (${reader}, ${`r-${reader}@example.com`}, ${`r${reader}`}, ${`r${reader}`}, 'x')`
  const recipe = createId()
  await sql`insert into recipes (id, author_id, title, slug)
    values (${recipe}, ${author}, 'Bench soup', ${`bench-soup-${recipe}`})`
  const ids = Array.from({ length: count }, () => createId())
  for (let i = 0; i < ids.length; i += 5000) {
    const rows = ids.slice(i, i + 5000).map(id => ({ id, userId: author, actorId: reader, type: 'comment', recipeId: recipe, message: 'commented on your recipe' }))
    await sql`insert into notifications ${sql(rows, 'id', 'userId', 'actorId', 'type', 'recipeId', 'message')}`
  }
  return ids
}

async function pending (sql: postgres.Sql): Promise<number> {
  const [{ n }] = await sql<Array<{ n: number }>>`select count(*)::int as n from pgboss.job
    where name = ${QUEUE} and state in ('created', 'retry', 'active')`
  return n
}

async function until (condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await condition()) return true
    await new Promise(resolve => setTimeout(resolve, 50))
  }
  return false
}

async function main (): Promise<number> {
  const name = `bench_jobs_${randomBytes(4).toString('hex')}`
  await withConnection(SERVER_URL, async sql => { await sql`create database ${sql(name)}` })
  const url = onDatabase(SERVER_URL, name)
  const dataDir = await mkdtemp(path.join(tmpdir(), 'recipes-bench-jobs-'))
  const sql = postgres(url, { max: 4, onnotice: () => {}, transform: { column: { from: postgres.toCamel, to: postgres.fromCamel } } })
  const producer = new PgBoss({ connectionString: url, migrate: false, supervise: false, schedule: false })
  let instance: Awaited<ReturnType<typeof start>> | undefined
  let failed = false
  try {
    await runMigrations(url)
    await producer.start()
    await producer.createQueue(QUEUE)
    const send = async (ids: string[]): Promise<void> => {
      for (let i = 0; i < ids.length; i += 1000) await producer.insert(ids.slice(i, i + 1000).map(id => ({ name: QUEUE, data: { id } })))
    }

    // 1. A backlog, then the instance starts.
    const backlog = await seed(sql, JOBS)
    await send(backlog)
    const started = performance.now()
    instance = await start(url, dataDir)
    await until(async () => await pending(sql) === 0, 10 * 60_000)
    const seconds = (performance.now() - started) / 1000
    const rate = JOBS / seconds
    const [{ emails }] = await sql<Array<{ emails: number }>>`select count(*)::int as emails from email_outbox`
    const rateOk = rate >= TARGET_RATE && emails === JOBS
    failed ||= !rateOk
    console.log(`${rateOk ? 'ok  ' : 'FAIL'} backlog: ${JOBS} deliveries in ${seconds.toFixed(1)} s (start-up included) = ${Math.round(rate)}/s ` +
      `(target ${TARGET_RATE}/s); ${emails} emails recorded`)

    // 2. Steady load, then nothing: how long the rest takes.
    const load = await seed(sql, RATE * LOAD_SECONDS)
    const t0 = performance.now()
    for (let second = 0; second < LOAD_SECONDS; second++) {
      await send(load.slice(second * RATE, (second + 1) * RATE))
      const next = t0 + (second + 1) * 1000
      await new Promise(resolve => setTimeout(resolve, Math.max(0, next - performance.now())))
    }
    const left = await pending(sql)
    const stopped = performance.now()
    const emptied = await until(async () => await pending(sql) === 0, 120_000)
    const emptySeconds = (performance.now() - stopped) / 1000
    const loadOk = emptied && emptySeconds <= TARGET_EMPTY_SECONDS
    failed ||= !loadOk
    console.log(`${loadOk ? 'ok  ' : 'FAIL'} steady load: ${RATE}/s for ${LOAD_SECONDS} s; ${left} waiting when it stopped, ` +
      `empty ${emptySeconds.toFixed(1)} s later (target ${TARGET_EMPTY_SECONDS} s)`)
  } finally {
    await instance?.close()
    await producer.stop({ graceful: false, wait: true })
    await sql.end()
    await dropDatabase(SERVER_URL, name)
    await rm(dataDir, { recursive: true, force: true })
  }
  return failed ? 1 : 0
}

async function start (url: string, dataDir: string): Promise<ReturnType<typeof Fastify>> {
  const config = await loadConfig({
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    ADMIN_JWT_SECRET: randomBytes(32).toString('hex'),
    SCHEDULED_JOBS: 'false',
    LOG_LEVEL: 'warn',
    ...(process.env.REDIS_URL != null && { REDIS_URL: process.env.REDIS_URL })
  })
  const instance = Fastify(serverOptions(config, {}))
  await instance.register(fp(app), { config })
  await instance.ready()
  return instance
}

process.exitCode = await main()
