import t from 'tap'
import { bearer, build, expectValidationError, json, registerUser, type TestUser } from '../../../helper.js'

const URL = '/api/gdpr/consent'

t.test('consent: defaults, partial updates, isolation', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const bob = await registerUser(app)
  const get = async (user: TestUser) => await app.inject({ url: URL, headers: bearer(user) })
  const put = async (user: TestUser, payload: Record<string, unknown>) => await app.inject({ method: 'PUT', url: URL, headers: bearer(user), payload })

  const initial = await get(ann)
  t.equal(initial.statusCode, 200)
  t.same(json(initial), { consent: { analytics: false, marketing: false, personalization: false, policyVersion: null, updatedAt: null } }, 'nothing consented until chosen')

  const first = await put(ann, { analytics: true, policyVersion: '2026-01', role: 'admin' })
  t.equal(first.statusCode, 200)
  const saved = json(first).consent
  t.match(saved, { analytics: true, marketing: false, personalization: false, policyVersion: '2026-01' })
  t.ok(Date.parse(saved.updatedAt) > 0, 'updatedAt set')
  t.same(Object.keys(saved).sort(), ['analytics', 'marketing', 'personalization', 'policyVersion', 'updatedAt'], 'unknown fields are dropped')

  const second = json(await put(ann, { marketing: true }))
  t.match(second.consent, { analytics: true, marketing: true, personalization: false, policyVersion: '2026-01' }, 'absent fields keep their value')
  const third = json(await put(ann, { analytics: false, policyVersion: '2026-02' }))
  t.match(third.consent, { analytics: false, marketing: true, personalization: false, policyVersion: '2026-02' })
  t.same(json(await get(ann)), third, 'GET answers what was saved')

  const empty = await put(ann, {})
  t.equal(empty.statusCode, 200)
  t.same(json(empty), third, 'an empty body changes nothing')

  t.same(json(await get(bob)).consent, { analytics: false, marketing: false, personalization: false, policyVersion: null, updatedAt: null }, 'another user\'s choices are their own')
})

t.test('consent: concurrent saves leave one row holding every choice', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const put = async (payload: Record<string, unknown>) => await app.inject({ method: 'PUT', url: URL, headers: bearer(ann), payload })

  // The first write of the row races: identical requests and requests for different choices at once.
  const identical = await Promise.all(Array.from({ length: 10 }, async () => await put({ personalization: true })))
  t.same(identical.map(res => res.statusCode), Array(10).fill(200), 'identical saves all succeed')
  const different = await Promise.all([put({ analytics: true }), put({ marketing: true }), put({ policyVersion: 'v9' }), put({ analytics: true })])
  t.same(different.map(res => res.statusCode), [200, 200, 200, 200])
  t.match(json(await app.inject({ url: URL, headers: bearer(ann) })).consent,
    { analytics: true, marketing: true, personalization: true, policyVersion: 'v9' }, 'no save lost another\'s choice')
  const [{ n }] = await app.db<Array<{ n: number }>>`select count(*)::int as n from consents where user_id = ${ann.id}`
  t.equal(n, 1, 'one row')
})

t.test('consent: sign-in and input bounds', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  t.equal((await app.inject({ url: URL })).statusCode, 401)
  t.equal((await app.inject({ method: 'PUT', url: URL, payload: { analytics: true } })).statusCode, 401)
  t.equal((await app.inject({ url: URL, headers: { authorization: 'Bearer garbage' } })).statusCode, 401)

  const put = async (payload: Record<string, unknown>) => await app.inject({ method: 'PUT', url: URL, headers: bearer(ann), payload })
  expectValidationError(t, await put({ policyVersion: 'v'.repeat(51) }), 'policyVersion')
  expectValidationError(t, await put({ policyVersion: '' }), 'policyVersion')
  expectValidationError(t, await put({ analytics: 'yes' }), 'analytics')
  t.equal((await put({ policyVersion: 'v'.repeat(50) })).statusCode, 200, '50 characters fit')
  t.match(json(await app.inject({ url: URL, headers: bearer(ann) })).consent, { analytics: false, policyVersion: 'v'.repeat(50) }, 'refused bodies stored nothing')
})
