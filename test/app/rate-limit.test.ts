import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { build, json, PUBLIC_IP, registerUser } from '../helper.js'

const env = { RATE_LIMIT_GLOBAL_MAX: '5', RATE_LIMIT_ROUTER_MAX: '3', RATE_LIMIT_AUTH_MAX: '2' }

async function limitedRoutes (app: FastifyInstance): Promise<void> {
  app.get('/test/router', { onRequest: app.rateLimits.router }, async () => ({ ok: true }))
  app.post('/test/login', { onRequest: [app.rateLimits.global, app.rateLimits.auth] }, async () => ({ ok: true }))
}

async function hit (app: FastifyInstance, url: string, remoteAddress: string, method: 'GET' | 'POST' = 'GET') {
  return await app.inject({ method, url, remoteAddress })
}

t.test('global limiter on /api', async t => {
  const app = await build(t, { env, extend: limitedRoutes })
  for (let i = 1; i <= 5; i++) {
    const res = await hit(app, '/api/unknown', PUBLIC_IP)
    t.equal(res.statusCode, 404, `request ${i} passes`)
    t.equal(res.headers['x-ratelimit-limit'], '5')
    t.equal(res.headers['x-ratelimit-remaining'], String(5 - i))
  }
  const limited = await hit(app, '/api/unknown', PUBLIC_IP)
  t.equal(limited.statusCode, 429)
  const body = json(limited)
  t.equal(body.error, 'Too many requests')
  t.equal(body.limit, 'global', 'the body names the limit reached')
  t.ok(Number.isInteger(body.retryAfter) && body.retryAfter > 0 && body.retryAfter <= 900, `retryAfter ${body.retryAfter}`)
  t.equal(limited.headers['retry-after'], String(body.retryAfter))
  t.equal(limited.headers['x-ratelimit-remaining'], '0')

  t.equal((await hit(app, '/api/unknown', '198.51.100.7')).statusCode, 404, 'another client has its own budget')
  t.equal((await hit(app, '/healthz', PUBLIC_IP)).statusCode, 200, 'non-/api routes are not limited')

  for (const ip of ['127.0.0.1', '::1', '10.1.2.3', '192.168.1.20', '::ffff:10.0.0.9']) {
    for (let i = 0; i < 7; i++) await hit(app, '/api/unknown', ip)
    const res = await hit(app, '/api/unknown', ip)
    t.equal(res.statusCode, 404, `${ip} is exempt from the global limiter`)
    t.notOk(res.headers['x-ratelimit-limit'], `${ip} gets no rate-limit headers`)
  }
  for (let i = 0; i < 6; i++) await hit(app, '/api/unknown', '172.16.5.5')
  t.equal((await hit(app, '/api/unknown', '172.16.5.5')).statusCode, 429, '172.16/12 is not exempt from the global limiter')
})

t.test('per-router limiter', async t => {
  const app = await build(t, { env, extend: limitedRoutes })
  for (let i = 0; i < 3; i++) t.equal((await hit(app, '/test/router', PUBLIC_IP)).statusCode, 200)
  const limited = await hit(app, '/test/router', PUBLIC_IP)
  t.equal(limited.statusCode, 429, 'fourth request limited')
  t.equal(json(limited).limit, 'router')
  for (const ip of ['172.16.0.1', '172.31.255.1', '10.0.0.1', '127.0.0.1']) {
    for (let i = 0; i < 4; i++) await hit(app, '/test/router', ip)
    t.equal((await hit(app, '/test/router', ip)).statusCode, 200, `${ip} exempt from the router limiter`)
  }
  for (let i = 0; i < 3; i++) await hit(app, '/test/router', '172.32.0.1')
  t.equal((await hit(app, '/test/router', '172.32.0.1')).statusCode, 429, '172.32.* is a public address')
})

t.test('auth limiter skips nobody and stacks with the global one', async t => {
  const app = await build(t, { env, extend: limitedRoutes })
  for (const ip of [PUBLIC_IP, '127.0.0.1', '10.0.0.2']) {
    t.equal((await hit(app, '/test/login', ip, 'POST')).statusCode, 200)
    t.equal((await hit(app, '/test/login', ip, 'POST')).statusCode, 200)
    const res = await hit(app, '/test/login', ip, 'POST')
    t.equal(res.statusCode, 429, `third login from ${ip} limited`)
    t.equal(json(res).limit, 'auth')
    t.equal(res.headers['x-ratelimit-limit'], '2', 'headers report the tighter limiter')
  }
})

t.test('the per-router limiter guards every /api family but auth, one counter per family (#14)', async t => {
  const app = await build(t, { env: { RATE_LIMIT_GLOBAL_MAX: '1000', RATE_LIMIT_ROUTER_MAX: '3', RATE_LIMIT_AUTH_MAX: '1000' } })
  for (let i = 1; i <= 3; i++) {
    const res = await hit(app, '/api/tags', PUBLIC_IP)
    t.equal(res.statusCode, 200, `request ${i} passes`)
    t.equal(res.headers['x-ratelimit-limit'], '3', 'headers report the tighter router limit')
  }
  const limited = await hit(app, '/api/tags', PUBLIC_IP)
  t.equal(limited.statusCode, 429)
  t.match(limited.headers['content-type'], /application\/json/)
  const body = json(limited)
  t.same(Object.keys(body).sort(), ['error', 'limit', 'retryAfter'])
  t.equal(body.error, 'Too many requests')
  t.equal(body.limit, 'router')
  t.equal(limited.headers['retry-after'], String(body.retryAfter))

  t.equal((await hit(app, '/api/tags/some-tag/recipes', PUBLIC_IP)).statusCode, 429, 'the whole family shares the counter')
  t.equal((await hit(app, '/api/recipes', PUBLIC_IP)).statusCode, 200, 'another family has its own counter')
  t.equal((await hit(app, '/api/tags', '198.51.100.7')).statusCode, 200, 'another client has its own counter')
  for (const ip of ['172.16.0.1', '10.0.0.1', '127.0.0.1']) {
    for (let i = 0; i < 4; i++) await hit(app, '/api/tags', ip)
    t.equal((await hit(app, '/api/tags', ip)).statusCode, 200, `${ip} exempt from the router limiter`)
  }

  // Counted before authentication: a flood of anonymous calls to a protected family is limited too.
  for (let i = 0; i < 3; i++) t.equal((await hit(app, '/api/notifications', PUBLIC_IP)).statusCode, 401)
  t.equal((await hit(app, '/api/notifications', PUBLIC_IP)).statusCode, 429)

  for (let i = 0; i < 5; i++) {
    const res = await hit(app, '/api/auth/me', PUBLIC_IP)
    t.equal(res.statusCode, 401, `auth family: no router limit (request ${i + 1})`)
  }
})

t.test('429 bodies serialize on routes that document 429 (auth limiter on a real route)', async t => {
  const app = await build(t, { env: { RATE_LIMIT_GLOBAL_MAX: '1000', RATE_LIMIT_ROUTER_MAX: '1000', RATE_LIMIT_AUTH_MAX: '2' } })
  const forgot = async () => await app.inject({ method: 'POST', url: '/api/auth/forgot-password', remoteAddress: PUBLIC_IP, payload: { email: 'nobody@example.com' } })
  t.equal((await forgot()).statusCode, 200)
  t.equal((await forgot()).statusCode, 200)
  const limited = await forgot()
  t.equal(limited.statusCode, 429)
  t.same(json(limited), { error: 'Too many requests', retryAfter: json(limited).retryAfter, limit: 'auth' })
})

t.test('sign-in counts failed attempts only; registration counts every request', async t => {
  const app = await build(t, { env: { RATE_LIMIT_GLOBAL_MAX: '1000', RATE_LIMIT_ROUTER_MAX: '1000', RATE_LIMIT_AUTH_MAX: '3' } })
  const user = await registerUser(app)
  const login = async (password: string, remoteAddress = PUBLIC_IP) =>
    await app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress, payload: { identifier: user.username, password } })
  for (let i = 1; i <= 6; i++) t.equal((await login(user.password)).statusCode, 200, `successful sign-in ${i} is not limited`)
  // Different accounts' wrong passwords, so the per-account lockout (5) is not what stops them.
  for (let i = 1; i <= 3; i++) {
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: PUBLIC_IP, payload: { identifier: `nobody${i}`, password: 'Wrong1234' } })
    t.equal(res.statusCode, 401, `failed sign-in ${i}`)
  }
  const limited = await login(user.password)
  t.equal(limited.statusCode, 429, 'after 3 failures even the right password is refused before it is compared')
  t.same(json(limited), { error: 'Too many requests', retryAfter: json(limited).retryAfter, limit: 'auth' })
  t.equal(limited.headers['retry-after'], String(json(limited).retryAfter))
  t.equal((await login(user.password, '203.0.113.99')).statusCode, 200, 'another client is not affected')

  const register = async (n: number) => await app.inject({
    method: 'POST', url: '/api/auth/register', remoteAddress: '203.0.113.50', payload: { username: `limit${process.pid}x${n}`, email: `limit${process.pid}x${n}@example.com`, password: 'Sup3rSecret!' }
  })
  for (let i = 1; i <= 3; i++) t.equal((await register(i)).statusCode, 201, `registration ${i}`)
  t.equal((await register(4)).statusCode, 429, 'every registration counts')
})

t.test('429 is documented on router-limited routes', async t => {
  const app = await build(t)
  const doc = app.swagger() as unknown as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }
  t.ok(doc.paths['/api/tags']?.get?.responses['429'], 'GET /api/tags documents 429')
  t.ok(doc.paths['/api/recipes']?.get?.responses['429'], 'GET /api/recipes documents 429')
})

t.test('counters are shared between instances through Redis', { skip: process.env.REDIS_URL == null ? 'REDIS_URL not set' : false }, async t => {
  const shared = { ...env, CACHE_PREFIX: `test:shared:${process.pid}:${Date.now()}:` }
  const a = await build(t, { env: shared })
  const b = await build(t, { env: shared })
  t.equal(a.cache.kind, 'redis')
  for (let i = 0; i < 5; i++) t.equal((await hit(i % 2 === 0 ? a : b, '/api/unknown', PUBLIC_IP)).statusCode, 404)
  t.equal((await hit(a, '/api/unknown', PUBLIC_IP)).statusCode, 429, 'instance A sees the requests B counted')
  t.equal((await hit(b, '/api/unknown', PUBLIC_IP)).statusCode, 429, 'and B sees them too')
})
