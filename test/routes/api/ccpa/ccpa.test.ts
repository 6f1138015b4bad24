// CCPA requests: anonymous and signed-in, the do-not-sell flag (set only for the signed-in sender), optional auth that
// never refuses, limits, duplicates (sequential and concurrent) and the per-address rate limit.
import t from 'tap'
import { bearer, build, expectValidationError, json, PUBLIC_IP, registerUser } from '../../../helper.js'

const DO_NOT_SELL = '/api/ccpa/do-not-sell/request'
const CONSUMER = '/api/ccpa/consumer-request'

t.test('anonymous requests are stored with the address only, and never flag the account it belongs to', async t => {
  const app = await build(t)
  const owner = await registerUser(app)

  const res = await app.inject({ method: 'POST', url: DO_NOT_SELL, payload: { email: owner.email.toUpperCase(), name: 'Someone', requestType: 'delete' } })
  t.equal(res.statusCode, 201)
  const body = json(res)
  t.equal(body.success, true)
  t.type(body.requestId, 'string')

  const [row] = await app.db`select user_id, email, name, request_type, status from ccpa_requests where id = ${body.requestId}`
  t.same(row, { userId: null, email: owner.email, name: 'Someone', requestType: 'do-not-sell', status: 'received' }, 'stored lower-cased, always do-not-sell, no user')
  const [user] = await app.db`select do_not_sell_at from users where id = ${owner.id}`
  t.equal(user.doNotSellAt, null, 'the account with that address is not opted out by a stranger')
  t.equal(json(await app.inject({ url: '/api/analytics/config', headers: bearer(owner) })).doNotSell, false)

  const consumer = await app.inject({ method: 'POST', url: CONSUMER, payload: { email: 'someone@example.com' } })
  t.equal(consumer.statusCode, 201)
  const [stored] = await app.db`select request_type, details from ccpa_requests where id = ${json(consumer).requestId}`
  t.same(stored, { requestType: 'know', details: null }, 'consumer requests default to know')
})

t.test('a signed-in do-not-sell request is kept with the user and opts the account out', async t => {
  const app = await build(t)
  const [ann, bob] = await Promise.all([registerUser(app), registerUser(app)])

  const res = await app.inject({ method: 'POST', url: DO_NOT_SELL, headers: bearer(ann), payload: { email: 'ann.contact@example.com', details: 'Please' } })
  t.equal(res.statusCode, 201)
  const [row] = await app.db`select user_id, email, details from ccpa_requests where id = ${json(res).requestId}`
  t.same(row, { userId: ann.id, email: 'ann.contact@example.com', details: 'Please' })
  const [flag] = await app.db`select do_not_sell_at from users where id = ${ann.id}`
  t.ok(flag.doNotSellAt instanceof Date, 'do_not_sell_at is set')
  t.equal(json(await app.inject({ url: '/api/analytics/config', headers: bearer(ann) })).doNotSell, true, 'and shown to the web app')

  // Asking again keeps the first opt-out's time.
  await app.inject({ method: 'POST', url: DO_NOT_SELL, headers: bearer(ann), payload: { email: ann.email } })
  const [again] = await app.db`select do_not_sell_at from users where id = ${ann.id}`
  t.equal(again.doNotSellAt.getTime(), flag.doNotSellAt.getTime(), 'the first opt-out time is kept')

  // An opt-out through the consumer route flags too; another type does not.
  const know = await app.inject({ method: 'POST', url: CONSUMER, headers: bearer(bob), payload: { email: bob.email, requestType: 'access' } })
  t.equal(know.statusCode, 201)
  t.equal((await app.db`select do_not_sell_at from users where id = ${bob.id}`)[0].doNotSellAt, null, 'an access request does not opt out')
  const optOut = await app.inject({ method: 'POST', url: CONSUMER, headers: bearer(bob), payload: { email: bob.email, requestType: 'opt-out' } })
  t.equal(optOut.statusCode, 201)
  t.ok((await app.db`select do_not_sell_at from users where id = ${bob.id}`)[0].doNotSellAt instanceof Date, 'an opt-out request does')
})

t.test('a bad, garbled or stale token continues anonymously (201, never 401)', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const tokens = ['not-a-jwt', `${ann.token}x`, 'eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl']
  for (const [i, token] of tokens.entries()) {
    const res = await app.inject({ method: 'POST', url: CONSUMER, headers: { authorization: `Bearer ${token}` }, payload: { email: ann.email, details: `try ${i}` } })
    t.equal(res.statusCode, 201, `token ${i}`)
    const [row] = await app.db`select user_id from ccpa_requests where id = ${json(res).requestId}`
    t.equal(row.userId, null, 'stored as anonymous')
  }
  const garbled = await app.inject({ method: 'POST', url: DO_NOT_SELL, headers: { authorization: 'Basic Zm9vOmJhcg==' }, payload: { email: ann.email } })
  t.equal(garbled.statusCode, 201, 'a non-Bearer header too')
  t.equal((await app.db`select do_not_sell_at from users where id = ${ann.id}`)[0].doNotSellAt, null, 'and no account is flagged')
})

t.test('validation: address format, size bounds and the request type', async t => {
  const app = await build(t)
  expectValidationError(t, await app.inject({ method: 'POST', url: CONSUMER, payload: { email: 'not an address' } }), 'email')
  expectValidationError(t, await app.inject({ method: 'POST', url: CONSUMER, payload: {} }), 'email')
  expectValidationError(t, await app.inject({ method: 'POST', url: CONSUMER, payload: { email: `${'a'.repeat(250)}@example.com` } }), 'email')
  expectValidationError(t, await app.inject({ method: 'POST', url: CONSUMER, payload: { email: 'bounds@example.com', name: 'n'.repeat(201) } }), 'name')
  expectValidationError(t, await app.inject({ method: 'POST', url: DO_NOT_SELL, payload: { email: 'bounds@example.com', details: 'd'.repeat(5001) } }), 'details')
  expectValidationError(t, await app.inject({ method: 'POST', url: CONSUMER, payload: { email: 'bounds@example.com', requestType: 'sell-everything' } }), 'requestType')
  t.equal((await app.inject({ method: 'POST', url: CONSUMER, payload: { email: 'bounds@example.com', details: 'd'.repeat(5000) } })).statusCode, 201, 'at the bound')
  // One database per test file: count this test's address only.
  const [{ n }] = await app.db`select count(*)::int as n from ccpa_requests where email = 'bounds@example.com'`
  t.equal(n, 1, 'nothing invalid was stored')
})

t.test('the same request again, or many at once, is stored once', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const payload = { email: 'dup@example.com', requestType: 'delete', details: 'All of it' }

  const first = await app.inject({ method: 'POST', url: CONSUMER, payload })
  t.equal(first.statusCode, 201)
  const again = await app.inject({ method: 'POST', url: CONSUMER, payload: { ...payload, email: 'DUP@example.com' } })
  t.equal(again.statusCode, 200, 'a repeat answers 200')
  t.same(json(again), { success: true, requestId: json(first).requestId }, 'with the first request\'s id')
  t.equal((await app.inject({ method: 'POST', url: CONSUMER, payload: { ...payload, details: 'Only comments' } })).statusCode, 201, 'other details are another request')

  const concurrent = await Promise.all(Array.from({ length: 8 }, async () =>
    await app.inject({ method: 'POST', url: DO_NOT_SELL, headers: bearer(ann), payload: { email: ann.email } })))
  t.same(concurrent.map(r => r.statusCode).sort(), [200, 200, 200, 200, 200, 200, 200, 201], 'one 201, the rest 200')
  t.equal(new Set(concurrent.map(r => json(r).requestId)).size, 1, 'all with one id')
  const [{ n }] = await app.db`select count(*)::int as n from ccpa_requests where user_id = ${ann.id}`
  t.equal(n, 1, 'one row for the concurrent requests')

  const anonymous = await Promise.all(Array.from({ length: 6 }, async () =>
    await app.inject({ method: 'POST', url: DO_NOT_SELL, payload: { email: 'race@example.com' } })))
  t.equal(anonymous.filter(r => r.statusCode === 201).length, 1, 'anonymous: one 201')
  t.equal((await app.db`select count(*)::int as n from ccpa_requests where email = 'race@example.com'`)[0].n, 1, 'anonymous: one row')
})

t.test('at most 5 CCPA requests an hour per client address, both routes together', async t => {
  const app = await build(t)
  const send = async (url: string, i: number, remoteAddress = PUBLIC_IP) =>
    await app.inject({ method: 'POST', url, remoteAddress, payload: { email: `rate${i}@example.com` } })
  for (let i = 0; i < 5; i++) t.equal((await send(i % 2 === 0 ? CONSUMER : DO_NOT_SELL, i)).statusCode, 201, `request ${i + 1}`)
  const limited = await send(CONSUMER, 5)
  t.equal(limited.statusCode, 429)
  t.match(json(limited), { error: 'Too many requests', limit: 'router' })
  t.match(limited.headers, { 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '0' }, 'decisions.md headers')
  const retryAfter = Number(limited.headers['retry-after'])
  t.ok(retryAfter > 3500 && retryAfter <= 3600, `Retry-After about an hour: ${retryAfter}`)
  t.equal((await send(DO_NOT_SELL, 6)).statusCode, 429, 'the other route shares the count')
  t.equal((await send(CONSUMER, 7, '203.0.113.77')).statusCode, 201, 'another address is not limited')
  t.equal((await app.db`select count(*)::int as n from ccpa_requests where email like 'rate%@example.com'`)[0].n, 6, 'refused requests are not stored')
})
