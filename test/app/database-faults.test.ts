// The database's faults as requests meet them (plugins/external/db.ts): a table locked elsewhere, a statement past its
// time, every pool connection taken, a client that leaves while its request waits, PostgreSQL stopped. Each answers
// 503 `Service temporarily unavailable` with Retry-After within its bound, never a hang, and leaves nothing half-done.
import { request as httpRequest } from 'node:http'
import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import postgres from 'postgres'
import t, { type Test } from 'tap'
import { startEmbeddedPostgres } from '../../db/embedded.js'
import { runMigrations } from '../../db/migrator.js'
import { JOB_SCOPE, scope } from '../../lib/request-scope.js'
import { bearer, build, eventually, json, registerUser } from '../helper.js'
import { testDatabaseUrl } from '../setup/database.js'

const UNAVAILABLE = { error: 'Service temporarily unavailable' }
/** Short bounds, so each fault shows within a second or two (and a loaded machine still sets up its users in them). */
const FAST = { DB_LOCK_TIMEOUT_MS: '300', DB_STATEMENT_TIMEOUT_MS: '2000', DB_POOL_WAIT_MS: '1500' }

/** A second connection, as another process (a migration, an operator's psql) would hold one. */
async function otherConnection (t: Test): Promise<postgres.ReservedSql> {
  const sql = postgres(await testDatabaseUrl(), { max: 1, onnotice: () => {} })
  t.teardown(async () => { await sql.end({ timeout: 1 }) })
  return await sql.reserve()
}

t.test('a table locked elsewhere: its requests answer 503 with Retry-After, the others are served', async t => {
  const app = await build(t, { env: FAST })
  const user = await registerUser(app)
  const locker = await otherConnection(t)
  await locker`begin`
  await locker`lock table recipes in access exclusive mode`
  // Twice the pool: some wait for a connection behind statements blocked on the lock.
  const answers = await Promise.all([
    ...Array.from({ length: 2 * app.config.dbPoolMax }, async () => await app.inject({ url: '/api/recipes' })),
    app.inject({ url: '/api/auth/me', headers: bearer(user) })
  ])
  const me = answers.pop()!
  await locker`rollback`
  locker.release()
  for (const res of answers) {
    t.equal(res.statusCode, 503, 'a request on the locked table is refused, not held')
    t.same(json(res), UNAVAILABLE)
    t.equal(res.headers['retry-after'], '2')
  }
  t.ok(me.statusCode === 200 || me.statusCode === 503, `a request elsewhere is answered (${me.statusCode})`)
  const after = await app.inject({ url: '/api/auth/me', headers: bearer(user) })
  t.equal(after.statusCode, 200, 'served again once the lock is gone')
  t.equal((await app.inject({ url: '/api/recipes' })).statusCode, 200)
})

t.test('a statement past DB_STATEMENT_TIMEOUT_MS answers 503; a job may run longer', async t => {
  const app = await build(t, {
    env: { ...FAST, DB_STATEMENT_TIMEOUT_MS: '200' },
    extend: f => { f.get('/test/slow', async () => await f.db`select pg_sleep(1)`.then(() => ({ slept: true }))) }
  })
  const res = await app.inject({ url: '/test/slow' })
  t.equal(res.statusCode, 503)
  t.same(json(res), UNAVAILABLE)
  t.equal(res.headers['retry-after'], '2')
  const slept = await scope.run(JOB_SCOPE, async () => await app.transaction(async tx => await tx`select pg_sleep(0.4) as done`))
  t.equal(slept.length, 1, 'a job\'s transaction gets DB_JOB_STATEMENT_TIMEOUT_MS')
  await t.rejects(app.transaction(async tx => await tx`select pg_sleep(0.4)`), { code: '57014' }, 'a request\'s does not')
})

t.test('every pool connection taken: statements and transactions give up after DB_POOL_WAIT_MS, and never run later', async t => {
  const app = await build(t, { env: FAST })
  const user = await registerUser(app)
  t.equal((await app.inject({ url: '/api/auth/me', headers: bearer(user) })).statusCode, 200)
  const held = await Promise.all(Array.from({ length: app.config.dbPoolMax }, async () => await app.db.reserve()))
  const [list, deletion] = await Promise.all([
    app.inject({ url: '/api/recipes' }),
    app.inject({ method: 'POST', url: '/api/data-deletion', headers: bearer(user), payload: { deleteType: 'data' } })
  ])
  for (const connection of held) connection.release()
  t.equal(list.statusCode, 503)
  t.same(json(list), UNAVAILABLE)
  t.equal(deletion.statusCode, 503)
  t.equal(deletion.headers['retry-after'], '2')
  const retry = await app.inject({ method: 'POST', url: '/api/data-deletion', headers: bearer(user), payload: { deleteType: 'data' } })
  t.equal(retry.statusCode, 201, 'the retry creates the request: the refused one left nothing')
  const [{ count }] = await app.db<Array<{ count: number }>>`select count(*)::int as count from data_deletion_requests where user_id = ${user.id}`
  t.equal(count, 1, 'one request')
})

t.test('a request whose client has gone starts no database work', async t => {
  const app = await build(t, { env: { ...FAST, DB_POOL_WAIT_MS: '60000' } })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  const user = await registerUser(app)
  t.equal((await app.inject({ url: '/api/auth/me', headers: bearer(user) })).statusCode, 200, 'its session is known')
  const held = await Promise.all(Array.from({ length: app.config.dbPoolMax }, async () => await app.db.reserve()))
  const body = JSON.stringify({ deleteType: 'data' })
  const gone = httpRequest({ port, method: 'POST', path: '/api/data-deletion', headers: { ...bearer(user), 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } })
  gone.on('error', () => {})
  const arrived = new Promise(resolve => app.server.once('request', resolve))
  gone.end(body)
  await arrived
  gone.destroy()
  // The server sees the socket close; the request's waiting transaction is dropped before it gets a connection.
  const connections = async (): Promise<number> => await new Promise(resolve => { app.server.getConnections((_err, n) => { resolve(n) }) })
  await eventually(async () => await connections() === 0)
  for (const connection of held) connection.release()
  const retry = await app.inject({ method: 'POST', url: '/api/data-deletion', headers: bearer(user), payload: { deleteType: 'data' } })
  t.equal(retry.statusCode, 201, 'the retry makes the one request; the abandoned one never ran')
  const [{ count }] = await app.db<Array<{ count: number }>>`select count(*)::int as count from data_deletion_requests where user_id = ${user.id}`
  t.equal(count, 1)
})

t.test('PostgreSQL stopped: requests answer 503 within the bound instead of waiting for reconnection', async t => {
  const dir = await mkdtemp(path.join(tmpdir(), 'recipes-faults-pg-'))
  t.teardown(async () => { await rm(dir, { recursive: true, force: true }) })
  const cluster = await startEmbeddedPostgres(dir, { info: () => {}, warn: () => {} })
  let stopped = false
  t.teardown(async () => { if (!stopped) await cluster.stop() })
  await runMigrations(cluster.url)
  // The production pool wait: a cluster just started answers its first connections slowly on a loaded machine.
  const app = await build(t, { env: { ...FAST, DB_POOL_WAIT_MS: '3000', DATABASE_URL: cluster.url } })
  const user = await registerUser(app)
  t.equal((await app.inject({ url: '/api/recipes' })).statusCode, 200)
  await cluster.stop()
  stopped = true
  const answers = await Promise.all([
    ...Array.from({ length: 12 }, async () => await app.inject({ url: '/api/recipes' })),
    app.inject({ method: 'POST', url: '/api/data-deletion', headers: bearer(user), payload: { deleteType: 'data' } })
  ])
  for (const res of answers) {
    t.equal(res.statusCode, 503)
    t.same(json(res), UNAVAILABLE)
    t.equal(res.headers['retry-after'], '2')
  }
  const ready = await app.inject({ url: '/readyz' })
  t.equal(ready.statusCode, 503)
  t.equal(json(ready).checks.database, 'error')
})
