import t from 'tap'
import { build, json } from '../helper.js'

t.test('ready when database, cache and storage answer', async t => {
  const app = await build(t)
  const res = await app.inject('/readyz')
  t.equal(res.statusCode, 200)
  t.same(json(res), { status: 'ok', checks: { database: 'ok', cache: 'ok', storage: 'ok' } })
  t.same(json(await app.inject('/healthz')), { status: 'ok' })
})

t.test('503 naming the cache when Redis is unreachable', async t => {
  const app = await build(t, { env: { REDIS_URL: 'redis://127.0.0.1:1' } })
  const res = await app.inject('/readyz')
  t.equal(res.statusCode, 503)
  t.same(json(res), { status: 'error', checks: { database: 'ok', cache: 'error', storage: 'ok' } })
  t.equal((await app.inject('/healthz')).statusCode, 200, 'liveness does not depend on the cache')
})

t.test('503 naming the database when PostgreSQL is unreachable', async t => {
  const app = await build(t, { env: { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' } })
  const res = await app.inject('/readyz')
  t.equal(res.statusCode, 503)
  t.same(json(res), { status: 'error', checks: { database: 'error', cache: 'ok', storage: 'ok' } })
})

t.test('503 naming the storage when the S3 endpoint is unreachable', async t => {
  const app = await build(t, {
    env: { STORAGE_DRIVER: 's3', S3_ENDPOINT: '127.0.0.1', S3_PORT: '1', S3_USE_SSL: 'false', S3_ACCESS_KEY: 'key', S3_SECRET_KEY: 'secret' }
  })
  const res = await app.inject('/readyz')
  t.equal(res.statusCode, 503)
  t.same(json(res), { status: 'error', checks: { database: 'ok', cache: 'ok', storage: 'error' } })
})
