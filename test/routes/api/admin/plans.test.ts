// /api/admin/plans: list (inactive too), create, change, delete. The built-in plans survive the first write, however
// many race; a deactivated plan stays with its users; a plan in use or the free plan cannot go.
import t from 'tap'
import { FALLBACK_PLANS } from '../../../../plugins/app/services/plans.js'
import { adminBearer, bearer, build, createAdmin, createRecipe, eventually, expectValidationError, json, registerUser } from '../../../helper.js'

const URL = '/api/admin/plans'
const LIMITS = { recipes: 100, aiGenerations: 20, imports: 30 }
const ids = (plans: Array<{ id: string }>) => plans.map(p => p.id)

t.test('every route needs an admin token: none, garbled and a user\'s are 401', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  const routes = [
    { method: 'GET' as const, url: URL },
    { method: 'POST' as const, url: URL, payload: { id: 'pro', name: 'Pro', priceMonthly: 1, limits: LIMITS } },
    { method: 'PATCH' as const, url: `${URL}/premium`, payload: { name: 'Hacked' } },
    { method: 'DELETE' as const, url: `${URL}/premium` }
  ]
  for (const route of routes) {
    for (const headers of [{}, { authorization: 'Bearer nonsense' }, bearer(user)]) {
      t.equal((await app.inject({ ...route, headers })).statusCode, 401, `${route.method} ${route.url} with ${JSON.stringify(headers).slice(0, 30)}`)
    }
  }
  const [{ n }] = await app.db<Array<{ n: number }>>`select count(*)::int as n from plans`
  t.equal(n, 0, 'nothing stored')
})

t.test('the built-in plans survive the first write', async t => {
  const app = await build(t)
  await app.db`delete from plans`
  const admin = adminBearer(await createAdmin(app))

  const before = json(await app.inject({ url: URL, headers: admin }))
  t.equal(before.builtIn, true, 'nothing stored yet')
  t.same(ids(before.plans), ['free', 'premium', 'family'])
  t.match(before.plans[1], { ...FALLBACK_PLANS[1], sortOrder: 1, active: true, createdAt: null, updatedAt: null })

  const created = await app.inject({ method: 'POST', url: URL, headers: admin, payload: { id: 'pro', name: 'Pro', priceMonthly: 1299, limits: LIMITS, features: ['recipes', 'nutrition'], sortOrder: 5 } })
  t.equal(created.statusCode, 201)
  t.match(json(created).plan, { id: 'pro', name: 'Pro', description: null, priceMonthly: 1299, currency: 'USD', limits: LIMITS, features: ['recipes', 'nutrition'], sortOrder: 5, active: true })
  t.match(json(created).plan.createdAt, /^\d{4}-/)

  const after = json(await app.inject({ url: URL, headers: admin }))
  t.equal(after.builtIn, false)
  t.same(ids(after.plans), ['free', 'premium', 'family', 'pro'], 'built-in plans stored with the new one, in order')
  for (const [i, plan] of FALLBACK_PLANS.entries()) t.match(after.plans[i], { ...plan, sortOrder: i, active: true })
  t.same(ids(json(await app.inject('/api/subscription-plans')).plans), ['free', 'premium', 'family', 'pro'], 'the public list too')

  const duplicate = await app.inject({ method: 'POST', url: URL, headers: admin, payload: { id: 'premium', name: 'Again', priceMonthly: 0, limits: LIMITS } })
  t.equal(duplicate.statusCode, 409)
  t.same(json(duplicate), { error: 'A plan with this id already exists' })
})

t.test('concurrent first writes: each built-in plan stored once, every write applied', async t => {
  const app = await build(t)
  await app.db`delete from plans`
  const admin = adminBearer(await createAdmin(app))
  const writes = [
    ...['a', 'b', 'c', 'd'].map(id => ({ method: 'POST' as const, url: URL, payload: { id: `plan-${id}`, name: `Plan ${id}`, priceMonthly: 100, limits: LIMITS } })),
    { method: 'PATCH' as const, url: `${URL}/premium`, payload: { name: 'Premium+' } },
    { method: 'PATCH' as const, url: `${URL}/family`, payload: { priceMonthly: 999 } }
  ]
  const results = await Promise.all(writes.map(async w => await app.inject({ ...w, headers: admin })))
  t.same(results.map(r => r.statusCode), [201, 201, 201, 201, 200, 200], results.map(r => r.body.slice(0, 80)).join(' | '))
  const rows = await app.db<Array<{ id: string, name: string, priceMonthly: number }>>`select id, name, price_monthly from plans order by id`
  t.same(rows.map(r => r.id), ['family', 'free', 'plan-a', 'plan-b', 'plan-c', 'plan-d', 'premium'], 'no duplicates, nothing lost')
  t.equal(rows.find(r => r.id === 'premium')?.name, 'Premium+')
  t.equal(rows.find(r => r.id === 'family')?.priceMonthly, 999)
})

t.test('change a plan: only what is given, limits merged; unknown 404; free stays active', async t => {
  const app = await build(t)
  await app.db`delete from plans`
  const admin = adminBearer(await createAdmin(app))
  const patch = async (planId: string, payload: Record<string, unknown>) => await app.inject({ method: 'PATCH', url: `${URL}/${planId}`, headers: admin, payload })

  const res = await patch('premium', { description: null, limits: { imports: 250 }, features: ['recipes', 'recipes', 'nutrition'] })
  t.equal(res.statusCode, 200)
  t.match(json(res).plan, {
    id: 'premium',
    name: 'Premium',
    description: null,
    priceMonthly: FALLBACK_PLANS[1].priceMonthly,
    limits: { ...FALLBACK_PLANS[1].limits, imports: 250 },
    features: ['recipes', 'nutrition'],
    active: true
  })
  t.same(ids(json(await app.inject({ url: URL, headers: admin })).plans), ['free', 'premium', 'family'], 'the built-in plans were stored first')
  t.match(json(await patch('free', { name: 'Starter', limits: { recipes: null } })).plan, { name: 'Starter', limits: { recipes: null, aiGenerations: 5 } })

  const unknown = await patch('platinum', { name: 'X' })
  t.equal(unknown.statusCode, 404)
  t.same(json(unknown), { error: 'Plan not found' })
  t.equal((await patch('NOT%20AN%20ID', { name: 'X' })).statusCode, 404, 'a malformed id is not found either')
  const free = await patch('free', { active: false })
  t.equal(free.statusCode, 409)
  t.same(json(free), { error: 'The free plan cannot be deleted or deactivated' })
  t.equal((await patch('free', { active: true, name: 'Free' })).statusCode, 200, 'active: true is fine')
})

t.test('validation of plans', async t => {
  const app = await build(t)
  await app.db`delete from plans`
  const admin = adminBearer(await createAdmin(app))
  const post = async (payload: Record<string, unknown>) => await app.inject({ method: 'POST', url: URL, headers: admin, payload })
  const valid = { id: 'pro', name: 'Pro', priceMonthly: 999, limits: LIMITS }

  expectValidationError(t, await post({ ...valid, id: 'Pro Plan' }), 'id')
  expectValidationError(t, await post({ ...valid, id: '' }), 'id')
  expectValidationError(t, await post({ ...valid, name: '' }), 'name')
  expectValidationError(t, await post({ ...valid, priceMonthly: -1 }), 'priceMonthly')
  expectValidationError(t, await post({ ...valid, priceMonthly: 9.99 }), 'priceMonthly')
  expectValidationError(t, await post({ ...valid, priceMonthly: 100_000_001 }), 'priceMonthly')
  expectValidationError(t, await post({ ...valid, currency: 'usd' }), 'currency')
  expectValidationError(t, await post({ ...valid, limits: undefined }), 'limits')
  expectValidationError(t, await post({ ...valid, limits: { recipes: 1, aiGenerations: 1 } }), 'limits')
  expectValidationError(t, await post({ ...valid, limits: { ...LIMITS, recipes: -1 } }), 'limits')
  expectValidationError(t, await post({ ...valid, limits: { ...LIMITS, imports: 1.5 } }), 'limits')
  expectValidationError(t, await post({ ...valid, limits: { ...LIMITS, aiGenerations: '5' } }), 'limits')
  expectValidationError(t, await post({ ...valid, limits: { ...LIMITS, familyMembers: 51 } }), 'limits')
  expectValidationError(t, await post({ ...valid, features: ['Bad Feature'] }), 'features')
  expectValidationError(t, await post({ ...valid, features: Array.from({ length: 51 }, (_, i) => `f${i}`) }), 'features')
  const patch = async (payload: Record<string, unknown>) => await app.inject({ method: 'PATCH', url: `${URL}/premium`, headers: admin, payload })
  expectValidationError(t, await patch({ limits: { recipes: -5 } }), 'limits')
  expectValidationError(t, await patch({ priceMonthly: -5 }), 'priceMonthly')
  expectValidationError(t, await patch({ active: 'no' }), 'active')

  const [{ n }] = await app.db<Array<{ n: number }>>`select count(*)::int as n from plans`
  t.equal(n, 0, 'refused writes stored nothing')
  const ok = await post({ ...valid, limits: { recipes: null, aiGenerations: 0, imports: 0, familyMembers: null }, description: 'For pros', currency: 'EUR', active: false })
  t.equal(ok.statusCode, 201)
  t.match(json(ok).plan, { limits: { recipes: null, aiGenerations: 0, imports: 0, familyMembers: null }, description: 'For pros', currency: 'EUR', active: false })
})

t.test('a deactivated plan is no longer offered, and its users keep it; a plan in use cannot be deleted', async t => {
  const app = await build(t)
  await app.db`delete from plans`
  const adminAccount = await createAdmin(app)
  const admin = adminBearer(adminAccount)
  const user = await registerUser(app)
  t.equal((await app.inject({ method: 'POST', url: URL, headers: admin, payload: { id: 'legacy', name: 'Legacy', priceMonthly: 199, limits: { recipes: 1, aiGenerations: 2, imports: 3 } } })).statusCode, 201)
  await app.db`update users set plan_id = 'legacy' where id = ${user.id}`
  await app.inject({ method: 'PUT', url: '/api/admin/feature-flags', headers: admin, payload: { key: 'legacy-perk', enabled: true, plans: ['legacy', 'premium'] } })

  const deactivated = await app.inject({ method: 'PATCH', url: `${URL}/legacy`, headers: admin, payload: { active: false } })
  t.equal(deactivated.statusCode, 200)
  t.equal(json(deactivated).plan.active, false)
  t.same(ids(json(await app.inject('/api/subscription-plans')).plans), ['free', 'premium', 'family'], 'not offered any more')
  t.same(ids(json(await app.inject({ url: URL, headers: admin })).plans), ['free', 'premium', 'family', 'legacy'], 'admins still see it')

  const me = json(await app.inject({ url: '/api/subscriptions/me', headers: bearer(user) }))
  t.equal(me.plan.id, 'legacy', 'the user keeps the plan')
  t.same(me.usage.recipes, { used: 0, limit: 1 })
  t.equal((await app.planService.forUser(user.id)).id, 'legacy')
  t.ok(await app.planService.isEnabled('legacy-perk', user.id), 'and the features of the plan')
  await createRecipe(app, user)
  t.equal((await app.inject({ method: 'POST', url: '/api/recipes', headers: bearer(user), payload: { title: 'Second', ingredients: ['x'] } })).statusCode, 403, 'and its limits')

  const inUse = await app.inject({ method: 'DELETE', url: `${URL}/legacy`, headers: admin })
  t.equal(inUse.statusCode, 409)
  t.same(json(inUse), { error: 'Users are on this plan: move them to another plan first, or deactivate it instead' })

  await app.db`update users set plan_id = 'free' where id = ${user.id}`
  const removed = await app.inject({ method: 'DELETE', url: `${URL}/legacy`, headers: admin })
  t.equal(removed.statusCode, 200)
  t.same(json(removed), { message: 'Plan deleted' })
  t.same(ids(json(await app.inject({ url: URL, headers: admin })).plans), ['free', 'premium', 'family'])
  const flag = json(await app.inject({ url: '/api/admin/feature-flags', headers: admin })).featureFlags.find((f: { key: string }) => f.key === 'legacy-perk')
  t.same(flag.plans, ['premium'], 'flags no longer name the deleted plan')

  t.equal((await app.inject({ method: 'DELETE', url: `${URL}/legacy`, headers: admin })).statusCode, 404, 'gone')
  const free = await app.inject({ method: 'DELETE', url: `${URL}/free`, headers: admin })
  t.equal(free.statusCode, 409)
  t.same(json(free), { error: 'The free plan cannot be deleted or deactivated' })
  t.equal((await app.inject({ method: 'DELETE', url: `${URL}/family`, headers: admin })).statusCode, 200, 'an unused built-in plan can go')
  t.same(ids(json(await app.inject('/api/subscription-plans')).plans), ['free', 'premium'])

  const audit = await eventually(async () => {
    const logs = json(await app.inject({ url: `/api/admin/audit-logs?action=admin.plans.delete&adminId=${adminAccount.id}`, headers: admin }))
    return logs.auditLogs.length >= 5 && logs
  })
  t.same(audit.auditLogs.map((e: { status: number }) => e.status), [200, 409, 404, 200, 409], 'deletes audited, newest first')
})

t.test('deleting a plan and putting a user on it at once: never a user on a deleted plan', async t => {
  const app = await build(t)
  await app.db`delete from plans`
  const admin = adminBearer(await createAdmin(app))
  const user = await registerUser(app)
  await app.inject({ method: 'POST', url: URL, headers: admin, payload: { id: 'brief', name: 'Brief', priceMonthly: 1, limits: LIMITS } })
  // An assignment in its own transaction, as the code that moves users holds the plan (planService.holdOffered); it
  // goes on only once the delete is seen waiting for its lock.
  let holding!: () => void
  let release!: () => void
  const held = new Promise<void>(resolve => { holding = resolve })
  const gate = new Promise<void>(resolve => { release = resolve })
  const assign = app.transaction(async tx => {
    if (!await app.planService.holdOffered(tx, 'brief')) return false
    holding()
    await gate
    await tx`update users set plan_id = 'brief' where id = ${user.id}`
    return true
  })
  await held
  const removing = app.inject({ method: 'DELETE', url: `${URL}/brief`, headers: admin })
  await eventually(async () => (await app.db`
    select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`).length > 0)
  release()
  const [assigned, removed] = await Promise.all([assign, removing])
  t.equal(assigned, true)
  t.equal(removed.statusCode, 409, 'the delete waited for the assignment, then found the plan in use')
  t.equal((await app.planService.forUser(user.id)).id, 'brief')
})
