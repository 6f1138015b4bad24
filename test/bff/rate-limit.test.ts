// The web proxy's own limits on /bff/auth/*, per client address, counted in Redis (REDIS_URL) or in the process.
import { Redis } from 'ioredis'
import t from 'tap'
import { DEFAULT_AUTH_LIMITS } from '../../bff/plugins/rate-limit.js'
import { eventually, json, PUBLIC_IP, registerUser } from '../helper.js'
import { refusingApiUrl, startBff, startProxy } from './helpers.js'

const stores = [
  ...(process.env.REDIS_URL != null ? [['Redis', process.env.REDIS_URL]] as const : []),
  ['in-process', undefined]
] as const

t.test('the production limits: 20 sign-ins a minute per address', async t => {
  t.same(DEFAULT_AUTH_LIMITS, { signIn: { max: 20, windowMs: 60_000 }, session: { max: 120, windowMs: 60_000 } })
})

for (const [store, redisUrl] of stores) {
  t.test(`sign-in and session limits per client address (${store} counters)`, async t => {
    const { api, proxy } = await startBff(t, {
      env: { REDIS_URL: redisUrl },
      rateLimit: { signIn: { max: 3, windowMs: 60_000 }, session: { max: 4, windowMs: 60_000 } }
    })
    const user = await registerUser(api)
    const login = async (password: string, remoteAddress = PUBLIC_IP) => await proxy.inject({
      method: 'POST', url: '/bff/auth/login', remoteAddress, payload: { identifier: user.username, password }
    })

    // Every attempt counts, a good one too: the proxy limits how often a client may try at all.
    t.equal((await login(user.password)).statusCode, 200)
    const wrong = await login('wrong')
    t.equal(wrong.statusCode, 401)
    t.equal(wrong.headers['x-ratelimit-limit'], '3')
    t.equal(wrong.headers['x-ratelimit-remaining'], '1')
    t.equal((await login('wrong')).statusCode, 401)
    const limited = await login(user.password)
    t.equal(limited.statusCode, 429, 'the fourth attempt in the window is refused, the right password included')
    t.match(json(limited), { error: 'Too many requests', limit: 'auth' })
    t.ok(json(limited).retryAfter >= 1 && json(limited).retryAfter <= 60, `retryAfter ${json(limited).retryAfter}`)
    t.equal(limited.headers['retry-after'], String(json(limited).retryAfter))
    t.equal(limited.headers['set-cookie'], undefined, 'no session for a refused request')
    const exchange = await proxy.inject({ method: 'POST', url: '/bff/auth/oauth/exchange', remoteAddress: PUBLIC_IP, payload: { code: 'x' } })
    t.equal(exchange.statusCode, 429, 'the code exchange shares the sign-in limit')

    t.equal((await login(user.password, '203.0.113.99')).statusCode, 200, 'another address has its own count')
    t.equal((await login(user.password, '127.0.0.1')).statusCode, 200, 'loopback is counted, not exempt (its count is its own)')

    // The session routes have their own, looser count: a client refused at sign-in can still sign out.
    const cookies = { auth_token: 'x' }
    for (let i = 0; i < 4; i++) {
      t.equal((await proxy.inject({ url: '/bff/auth/session', remoteAddress: PUBLIC_IP, cookies })).statusCode, 401, `session ${i + 1}`)
    }
    const sessionLimited = await proxy.inject({ method: 'POST', url: '/bff/auth/logout', remoteAddress: PUBLIC_IP })
    t.equal(sessionLimited.statusCode, 429, 'session, refresh and logout share the session limit')
    t.match(json(sessionLimited), { limit: 'auth' })
    t.equal((await proxy.inject({ method: 'POST', url: '/bff/auth/refresh', remoteAddress: PUBLIC_IP })).statusCode, 429)

    // The proxied API and the page are not limited by the proxy (the API limits /bff/api/* calls itself).
    t.equal((await proxy.inject({ url: '/bff/api/recipes', remoteAddress: PUBLIC_IP })).statusCode, 200)
    t.equal((await proxy.inject({ url: '/', remoteAddress: PUBLIC_IP })).statusCode, 200)
  })
}

t.test('X-Forwarded-For from a trusted peer names the client that is counted', async t => {
  const { proxy } = await startProxy(t, await refusingApiUrl(), { rateLimit: { signIn: { max: 1, windowMs: 60_000 } } })
  const attempt = async (remoteAddress: string, forwardedFor?: string) => (await proxy.inject({
    method: 'POST', url: '/bff/auth/login', remoteAddress, headers: forwardedFor == null ? {} : { 'x-forwarded-for': forwardedFor }, payload: {}
  })).statusCode
  t.equal(await attempt('127.0.0.1', '198.51.100.1'), 502, 'counted for 198.51.100.1 (the API is down: 502)')
  t.equal(await attempt('127.0.0.1', '198.51.100.1'), 429)
  t.equal(await attempt('127.0.0.1', '198.51.100.2'), 502, 'another client behind the same trusted proxy')
  t.equal(await attempt(PUBLIC_IP, '198.51.100.3'), 502, 'an untrusted peer is counted by its own address')
  t.equal(await attempt(PUBLIC_IP, '198.51.100.4'), 429, 'so it cannot dodge the limit by changing the header')
})

t.test('Redis unreachable: requests pass, as on the API', async t => {
  const { proxy } = await startProxy(t, await refusingApiUrl(), {
    env: { REDIS_URL: 'redis://127.0.0.1:1' },
    rateLimit: { signIn: { max: 1, windowMs: 60_000 } }
  })
  for (let i = 0; i < 3; i++) {
    t.equal((await proxy.inject({ method: 'POST', url: '/bff/auth/login', payload: {} })).statusCode, 502, `attempt ${i + 1} reaches the (down) API`)
  }
})

t.test('closing the proxy closes its Redis connection (graceful shutdown beside the API)', { skip: process.env.REDIS_URL == null && 'REDIS_URL not set' }, async t => {
  const { proxy, config } = await startProxy(t, await refusingApiUrl())
  const redis = new Redis(process.env.REDIS_URL!)
  t.teardown(() => redis.disconnect())
  const connections = async () => String(await redis.client('LIST')).split('\n')
    .filter(line => line.includes(` name=${config.cachePrefix}bff-rate-limit `)).length
  t.equal(await connections(), 1, 'one named connection while the proxy runs')
  await proxy.close()
  t.equal(await eventually(async () => await connections() === 0 && 'closed'), 'closed', 'none after close')
})
