// Rate limits under parallel requests (#41): a request takes its place in the count when it arrives, so requests in
// flight count and N parallel requests from one client never get more than the limit evaluated, with counters in
// Redis (REDIS_URL) or in the process. Where only failures count (sign-in, invite codes), an answer that is not a
// failure gives its place back before it is sent.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import t from 'tap'
import { bearer, build, json, PUBLIC_IP, registerUser } from '../helper.js'
import { createFamily } from '../helpers/families.js'

const stores = [
  ...(process.env.REDIS_URL != null ? [['Redis', process.env.REDIS_URL]] as const : []),
  ['in-process', undefined]
] as const

const statuses = (responses: LightMyRequestResponse[]): Record<number, number> => {
  const counts: Record<number, number> = {}
  for (const res of responses) counts[res.statusCode] = (counts[res.statusCode] ?? 0) + 1
  return counts
}

const parallel = async (n: number, request: (i: number) => Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse[]> =>
  await Promise.all(Array.from({ length: n }, async (_, i) => await request(i)))

const signIn = async (app: FastifyInstance, identifier: string, password: string, remoteAddress = PUBLIC_IP) =>
  await app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress, payload: { identifier, password } })

/** Password comparisons the hashing threads have finished: each is one evaluated sign-in. */
const comparisons = (app: FastifyInstance): number => app.passwords.pool.completed

for (const [store, redisUrl] of stores) {
  const env = (authMax: number) => ({ REDIS_URL: redisUrl, RATE_LIMIT_AUTH_MAX: String(authMax) })

  t.test(`25 parallel wrong sign-ins from one client: 15 compared, 10 refused (${store} counters)`, async t => {
    const app = await build(t, { env: env(15) })
    t.equal(app.cache.kind, redisUrl == null ? 'memory' : 'redis')
    const before = comparisons(app)
    // Accounts that do not exist (a comparison against the dummy hash each), so the per-account lockout plays no part.
    const answers = await parallel(25, async i => await signIn(app, `nobody${process.pid}x${i}`, 'Wrong1234'))
    t.same(statuses(answers), { 401: 15, 429: 10 })
    t.equal(comparisons(app) - before, 15, 'passwords compared: the limit, not the number sent')
    for (const res of answers.filter(res => res.statusCode === 429)) t.match(json(res), { error: 'Too many requests', limit: 'auth' })
    t.equal((await signIn(app, 'anyone', 'Wrong1234')).statusCode, 429, 'the failures keep their places')
  })

  t.test(`right sign-ins give their places back, in sequence and in parallel (${store} counters)`, async t => {
    const app = await build(t, { env: env(5) })
    const users = await Promise.all(Array.from({ length: 4 }, async () => await registerUser(app)))
    for (let i = 1; i <= 12; i++) t.equal((await signIn(app, users[0].username, users[0].password)).statusCode, 200, `sign-in ${i} in a row`)
    // Four at once (one per account: five at once on one account would trip its own lockout), three rounds: 12 > 5.
    for (let round = 1; round <= 3; round++) {
      const answers = await parallel(4, async i => await signIn(app, users[i].username, users[i].password))
      t.same(statuses(answers), { 200: 4 }, `round ${round}`)
    }
    // Nothing of those is left in the count: the whole limit is there for failures.
    const before = comparisons(app)
    const answers = await parallel(8, async i => await signIn(app, `nobody${process.pid}y${i}`, 'Wrong1234'))
    t.same(statuses(answers), { 401: 5, 429: 3 })
    t.equal(comparisons(app) - before, 5)
  })

  t.test(`50 parallel invite-code guesses: 15 looked up, 35 refused; right codes give back (${store} counters)`, async t => {
    const app = await build(t, { env: env(15) })
    const owner = await registerUser(app)
    const family = await createFamily(app, owner)
    const guess = async (code: string, remoteAddress = PUBLIC_IP) => await app.inject({ url: `/api/families/invite/${code}`, remoteAddress })

    const right = await parallel(15, async () => await guess(family.inviteCode, '203.0.113.77'))
    t.same(statuses(right), { 200: 15 }, 'right codes, up to the limit at once')
    const wrong = await parallel(50, async i => await guess((0x10000000 + i).toString(16)))
    t.same(statuses(wrong), { 404: 15, 429: 35 }, 'each 404 is a code looked up')
    t.equal((await guess(family.inviteCode)).statusCode, 429, 'after them even a right code waits')

    const joining = await registerUser(app)
    const joins = await parallel(20, async i => await app.inject({
      method: 'POST', url: '/api/families/join', remoteAddress: '203.0.113.78', headers: bearer(joining), payload: { inviteCode: (0x20000000 + i).toString(16) }
    }))
    t.same(statuses(joins), { 404: 15, 429: 5 }, 'join shares the rule')
    const again = await parallel(10, async () => await guess(family.inviteCode, '203.0.113.77'))
    t.same(statuses(again), { 200: 10 }, 'the right codes before left nothing in the count')
  })

  t.test(`limits that count every request hold under parallel requests too (${store} counters)`, async t => {
    const app = await build(t, { env: { REDIS_URL: redisUrl, RATE_LIMIT_AUTH_MAX: '5', RATE_LIMIT_GLOBAL_MAX: '7' } })
    const prefix = `par${process.pid}${store === 'Redis' ? 'r' : 'm'}`
    const registrations = await parallel(12, async i => await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: PUBLIC_IP,
      payload: { username: `${prefix}x${i}`, email: `${prefix}x${i}@example.com`, password: 'Sup3rSecret!' }
    }))
    t.same(statuses(registrations), { 201: 5, 429: 7 })
    const [{ created }] = await app.db<Array<{ created: number }>>`select count(*)::int as created from users where username like ${`${prefix}x%`}`
    t.equal(created, 5, 'accounts created: the limit, not the number sent')
    t.same(statuses(await parallel(20, async () => await app.inject({ url: '/api/unknown', remoteAddress: '198.51.100.20' }))), { 404: 7, 429: 13 }, 'global limiter')
  })

  t.test(`a counter's give-back never creates it nor takes it below zero (${store} cache)`, async t => {
    const app = await build(t, { env: { REDIS_URL: redisUrl } })
    await app.cache.decrement('never-counted')
    t.same(await app.cache.counter('never-counted'), { count: 0, ttlSeconds: 0 }, 'an absent counter stays absent')
    if (app.redis != null) t.equal(await app.redis.exists('never-counted'), 0)
    await app.cache.increment('counted', 60)
    await app.cache.decrement('counted')
    await app.cache.decrement('counted')
    const { count, ttlSeconds } = await app.cache.counter('counted')
    t.equal(count, 0, 'not below zero')
    t.ok(ttlSeconds > 0 && ttlSeconds <= 60, `keeps the window's end (${ttlSeconds} s left)`)
  })
}
