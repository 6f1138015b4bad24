import t from 'tap'
import { FALLBACK_PLANS, rolloutBucket } from '../../../../plugins/app/services/plans.js'
import { bearer, build, createRecipe, json, registerUser } from '../../../helper.js'

t.test('subscription plans: built-in until the table has some', async t => {
  const app = await build(t)
  const fallback = json(await app.inject('/api/subscription-plans')).plans
  t.same(fallback.map((p: { id: string }) => p.id), ['free', 'premium', 'family'])
  t.same(fallback[0].limits, FALLBACK_PLANS[0].limits)

  await app.db`insert into plans (id, name, price_monthly, limits, sort_order) values
    ('free', 'Starter', 0, ${app.db.json({ recipes: 2, aiGenerations: 1, imports: 1 })}, 0),
    ('pro', 'Pro', 999, ${app.db.json({ recipes: null, aiGenerations: 50, imports: 50 })}, 1)`
  const stored = json(await app.inject('/api/subscription-plans')).plans
  t.same(stored.map((p: { id: string, name: string }) => [p.id, p.name]), [['free', 'Starter'], ['pro', 'Pro']])

  t.test('recipe limit of the plan, exact under concurrency', async t => {
    const user = await registerUser(app)
    await createRecipe(app, user)
    // One slot left: two creates at once, exactly one wins.
    const results = await Promise.all([0, 1].map(() => app.inject({ method: 'POST', url: '/api/recipes', headers: bearer(user), payload: { title: 'Race', ingredients: ['x'] } })))
    t.same(results.map(r => r.statusCode).sort(), [201, 403])
    const refused = results.find(r => r.statusCode === 403)!
    t.same(json(refused), { error: 'Recipe limit reached for your plan', limit: 2, used: 2 })

    const me = json(await app.inject({ url: '/api/subscriptions/me', headers: bearer(user) }))
    t.equal(me.plan.id, 'free')
    t.same(me.usage.recipes, { used: 2, limit: 2 })
    t.same(me.usage.aiGenerations, { used: 0, limit: 1 })
    t.match(me.usage.period, /^\d{4}-\d{2}$/)

    await app.db`update users set plan_id = 'pro' where id = ${user.id}`
    t.equal((await app.inject({ method: 'POST', url: '/api/recipes', headers: bearer(user), payload: { title: 'Unlimited', ingredients: ['x'] } })).statusCode, 201, 'null limit: unlimited')
    t.equal((await app.inject('/api/subscriptions/me')).statusCode, 401)
  })
})

t.test('feature flags', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  const vip = await registerUser(app)
  t.ok(await app.planService.isEnabled('recipe-import', user.id), 'seeded on for everyone')
  t.ok(await app.planService.isEnabled('ai-recipes', user.id))
  t.notOk(await app.planService.isEnabled('no-such-flag', user.id), 'unknown flags are off')

  // The plans table holds `free` and `pro` (first test of this file, same database).
  await app.db`update feature_flags set plans = '["pro"]'::jsonb, user_ids = ${app.db.json([vip.id])} where key = 'ai-recipes'`
  t.notOk(await app.planService.isEnabled('ai-recipes', user.id), 'not on the free plan')
  // No admin API yet: the plan is changed in the table.
  await app.db`update users set plan_id = 'pro' where id = ${user.id}`
  t.ok(await app.planService.isEnabled('ai-recipes', user.id), 'on the plan')
  t.ok(await app.planService.isEnabled('ai-recipes', vip.id), 'allow-listed user')

  await app.db`update feature_flags set plans = null, rollout_percentage = 30 where key = 'recipe-import'`
  const inside = rolloutBucket('recipe-import', user.id) < 30
  t.equal(await app.planService.isEnabled('recipe-import', user.id), inside, 'percentage rollout by a stable bucket')
  t.equal(await app.planService.isEnabled('recipe-import', user.id), inside, 'the same answer every time')
  const share = Array.from({ length: 2000 }, (_, i) => rolloutBucket('recipe-import', `user-${i}`) < 30).filter(Boolean).length / 2000
  t.ok(share > 0.25 && share < 0.35, `about 30% of users (${(share * 100).toFixed(1)}%)`)

  await app.db`update feature_flags set enabled = false where key = 'recipe-import'`
  t.notOk(await app.planService.isEnabled('recipe-import', vip.id), 'disabled is off for everyone')
})
