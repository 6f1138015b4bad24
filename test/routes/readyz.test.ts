import t from 'tap'
import { build, json } from '../helper.js'

t.test('ready when database and cache answer', async t => {
  const app = await build(t)
  const res = await app.inject('/readyz')
  t.equal(res.statusCode, 200)
  t.same(json(res), { status: 'ok', checks: { database: 'ok', cache: 'ok' } })
  t.same(json(await app.inject('/healthz')), { status: 'ok' })
})

t.test('503 naming the cache when Redis is unreachable', async t => {
  const app = await build(t, { env: { REDIS_URL: 'redis://127.0.0.1:1' } })
  const res = await app.inject('/readyz')
  t.equal(res.statusCode, 503)
  t.same(json(res), { status: 'error', checks: { database: 'ok', cache: 'error' } })
  t.equal((await app.inject('/healthz')).statusCode, 200, 'liveness does not depend on the cache')
})

t.test('503 naming the database when PostgreSQL is unreachable', async t => {
  const app = await build(t, { env: { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' } })
  const res = await app.inject('/readyz')
  t.equal(res.statusCode, 503)
  t.same(json(res), { status: 'error', checks: { database: 'error', cache: 'ok' } })
})
