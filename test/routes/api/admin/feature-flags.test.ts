// /api/admin/feature-flags: list, upsert, delete; changes reach planService.isEnabled at once.
import t from 'tap'
import { rolloutBucket } from '../../../../plugins/app/services/plans.js'
import { adminBearer, bearer, build, createAdmin, eventually, expectValidationError, json, registerUser } from '../../../helper.js'

const URL = '/api/admin/feature-flags'

t.test('every route needs an admin token: none, garbled and a user\'s are 401', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  const routes = [
    { method: 'GET' as const, url: URL },
    { method: 'PUT' as const, url: URL, payload: { key: 'x', enabled: true } },
    { method: 'DELETE' as const, url: `${URL}/recipe-import` }
  ]
  for (const route of routes) {
    for (const headers of [{}, { authorization: 'Bearer nonsense' }, bearer(user)]) {
      const res = await app.inject({ ...route, headers })
      t.equal(res.statusCode, 401, `${route.method} ${route.url} with ${JSON.stringify(headers).slice(0, 30)}`)
    }
  }
  const flags = json(await app.inject({ url: URL, headers: adminBearer(await createAdmin(app)) })).featureFlags
  t.ok(flags.some((f: { key: string }) => f.key === 'recipe-import'), 'nothing was deleted by the refused calls')
})

t.test('list, create, change, delete; isEnabled follows every change at once', async t => {
  const app = await build(t)
  const adminAccount = await createAdmin(app)
  const admin = adminBearer(adminAccount)
  const put = async (payload: Record<string, unknown>) => await app.inject({ method: 'PUT', url: URL, headers: admin, payload })
  const user = await registerUser(app)
  const vip = await registerUser(app)

  const list = json(await app.inject({ url: URL, headers: admin }))
  t.same(list.featureFlags.map((f: { key: string }) => f.key), ['ai-recipes', 'recipe-import'], 'the seeded flags, by key')
  t.match(list.featureFlags[0], { key: 'ai-recipes', enabled: true, plans: null, rolloutPercentage: 100, userIds: [] })
  t.match(list.featureFlags[0].updatedAt, /^\d{4}-\d{2}-\d{2}T/)

  // A new flag: 201, defaults for what is left out.
  t.notOk(await app.planService.isEnabled('meal-suggestions', user.id), 'unknown: off')
  const created = await put({ key: 'meal-suggestions', enabled: true, description: 'Suggest meals' })
  t.equal(created.statusCode, 201)
  t.match(json(created).featureFlag, { key: 'meal-suggestions', description: 'Suggest meals', enabled: true, plans: null, rolloutPercentage: 100, userIds: [] })
  t.ok(await app.planService.isEnabled('meal-suggestions', user.id), 'on for everyone')

  // Restricted to a plan the user is not on: off; the allow-list wins; fields left out keep their value.
  const restricted = await put({ key: 'meal-suggestions', enabled: true, plans: ['premium', 'premium'], userIds: [vip.id] })
  t.equal(restricted.statusCode, 200, 'an existing flag: 200')
  t.match(json(restricted).featureFlag, { description: 'Suggest meals', plans: ['premium'], userIds: [vip.id], rolloutPercentage: 100 }, 'duplicates dropped, description kept')
  t.notOk(await app.planService.isEnabled('meal-suggestions', user.id), 'free plan: off')
  t.ok(await app.planService.isEnabled('meal-suggestions', vip.id), 'allow-listed: on')
  await app.db`update users set plan_id = 'premium' where id = ${user.id}`
  t.ok(await app.planService.isEnabled('meal-suggestions', user.id), 'on the plan: on')

  // Rollout: a stable bucket per user and flag.
  const inside = rolloutBucket('meal-suggestions', user.id)
  await put({ key: 'meal-suggestions', enabled: true, rolloutPercentage: inside })
  t.notOk(await app.planService.isEnabled('meal-suggestions', user.id), 'bucket just outside the rollout')
  await put({ key: 'meal-suggestions', enabled: true, rolloutPercentage: inside + 1 })
  t.ok(await app.planService.isEnabled('meal-suggestions', user.id), 'bucket inside the rollout')

  // plans: null is every plan again; disabled is off even for the allow-list.
  const everyPlan = json(await put({ key: 'meal-suggestions', enabled: false, plans: null, description: null }))
  t.match(everyPlan.featureFlag, { enabled: false, plans: null, description: null, userIds: [vip.id] })
  t.notOk(await app.planService.isEnabled('meal-suggestions', vip.id), 'disabled: off for the allow-listed user too')
  t.notOk(await app.planService.isEnabled('meal-suggestions', user.id))

  // A seeded flag the code checks.
  await put({ key: 'ai-recipes', enabled: false })
  t.notOk(await app.planService.isEnabled('ai-recipes', user.id), 'ai-recipes switched off')
  t.match(json(await app.inject({ url: URL, headers: admin })).featureFlags.find((f: { key: string }) => f.key === 'ai-recipes'), { enabled: false })

  const removed = await app.inject({ method: 'DELETE', url: `${URL}/meal-suggestions`, headers: admin })
  t.equal(removed.statusCode, 200)
  t.same(json(removed), { message: 'Feature flag deleted' })
  t.notOk(await app.planService.isEnabled('meal-suggestions', vip.id), 'deleted: off')
  const again = await app.inject({ method: 'DELETE', url: `${URL}/meal-suggestions`, headers: admin })
  t.equal(again.statusCode, 404)
  t.same(json(again), { error: 'Feature flag not found' })
  t.equal((await app.inject({ method: 'DELETE', url: `${URL}/${'x'.repeat(64)}`, headers: admin })).statusCode, 404, 'unknown key: 404')
  t.equal((await app.inject({ method: 'DELETE', url: `${URL}/Not%20A%20Key`, headers: admin })).statusCode, 404, 'malformed key: 404')

  // Every call is in the audit log, under its operationId.
  const audit = await eventually(async () => {
    const logs = json(await app.inject({ url: `/api/admin/audit-logs?action=admin.featureFlags.save&adminId=${adminAccount.id}`, headers: admin }))
    return logs.auditLogs.length >= 6 && logs
  })
  t.equal(audit.auditLogs.length, 6, 'every save audited')
  t.match(audit.auditLogs[0], { method: 'PUT', path: URL, status: 200 })
})

t.test('validation: key pattern, bounds, existing plans only', async t => {
  const app = await build(t)
  const admin = adminBearer(await createAdmin(app))
  const put = async (payload: Record<string, unknown>) => await app.inject({ method: 'PUT', url: URL, headers: admin, payload })

  expectValidationError(t, await put({ enabled: true }), 'key')
  expectValidationError(t, await put({ key: 'x' }), 'enabled')
  for (const key of ['', 'Upper', '-leading', 'has space', 'under_score', 'x'.repeat(65)]) expectValidationError(t, await put({ key, enabled: true }), 'key')
  expectValidationError(t, await put({ key: 'x', enabled: true, rolloutPercentage: 101 }), 'rolloutPercentage')
  expectValidationError(t, await put({ key: 'x', enabled: true, rolloutPercentage: -1 }), 'rolloutPercentage')
  expectValidationError(t, await put({ key: 'x', enabled: true, rolloutPercentage: 12.5 }), 'rolloutPercentage')
  expectValidationError(t, await put({ key: 'x', enabled: true, userIds: Array.from({ length: 1001 }, (_, i) => `user${i}`) }), 'userIds')
  expectValidationError(t, await put({ key: 'x', enabled: true, plans: Array.from({ length: 51 }, (_, i) => `plan${i}`) }), 'plans')
  expectValidationError(t, await put({ key: 'x', enabled: true, description: 'd'.repeat(501) }), 'description')

  const unknown = await put({ key: 'x', enabled: true, plans: ['free', 'platinum', 'gold'] })
  expectValidationError(t, unknown, 'plans')
  t.same(json(unknown).details, ['plans: platinum is not a plan', 'plans: gold is not a plan'])
  t.equal((await put({ key: 'x', enabled: true, userIds: Array.from({ length: 1000 }, (_, i) => `user${i}`) })).statusCode, 201, '1,000 user ids are fine')
  t.same(json(await app.inject({ url: URL, headers: admin })).featureFlags.map((f: { key: string }) => f.key), ['ai-recipes', 'recipe-import', 'x'], 'refused writes stored nothing')

  // A plan created by an admin is a plan.
  t.equal((await app.inject({ method: 'POST', url: '/api/admin/plans', headers: admin, payload: { id: 'gold', name: 'Gold', priceMonthly: 1999, limits: { recipes: null, aiGenerations: null, imports: null } } })).statusCode, 201)
  t.match(json(await put({ key: 'x', enabled: true, plans: ['gold'] })).featureFlag, { plans: ['gold'] })
})

t.test('concurrent saves of one new key: one creates, the others update, no error', async t => {
  const app = await build(t)
  const admin = adminBearer(await createAdmin(app))
  const results = await Promise.all(Array.from({ length: 5 }, async (_, i) =>
    await app.inject({ method: 'PUT', url: URL, headers: admin, payload: { key: 'race', enabled: true, rolloutPercentage: 10 + i } })))
  t.same(results.map(r => r.statusCode).sort(), [200, 200, 200, 200, 201])
  const stored = json(await app.inject({ url: URL, headers: admin })).featureFlags.filter((f: { key: string }) => f.key === 'race')
  t.equal(stored.length, 1)
})
