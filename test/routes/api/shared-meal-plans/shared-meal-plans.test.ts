import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { bearer, build, expectValidationError, json, notificationsOf, registerUser, setAccountStatus, type TestUser } from '../../../helper.js'
import { addFamilyMember, createFamily, createMealPlan, manyFamilies, planMeal, postShare, shareMealPlan, shareWithFamily } from '../../../helpers/meal-plans.js'

const listShares = async (app: FastifyInstance, user: TestUser, query = '') =>
  json(await app.inject({ url: `/api/shared-meal-plans${query}`, headers: bearer(user) }))
const revoke = (app: FastifyInstance, user: TestUser, id: string) =>
  app.inject({ method: 'DELETE', url: `/api/shared-meal-plans/${id}`, headers: bearer(user) })
const access = async (app: FastifyInstance, user: TestUser, planId: string) => {
  const res = await app.inject({ url: `/api/mealplans/${planId}`, headers: bearer(user) })
  return res.statusCode === 200 ? json(res).mealPlan.access as string : res.statusCode
}

t.test('sharing with users: owner only, recipients notified, sharing again sets the permission', async t => {
  const app = await build(t)
  const [owner, alice, bob, stranger, gone] = await Promise.all(Array.from({ length: 5 }, async () => await registerUser(app)))
  await setAccountStatus(app, gone, { active: false })
  const plan = await createMealPlan(app, owner, { name: 'Week 10' })

  const first = await postShare(app, owner, { mealPlanId: plan.id, userIds: [alice.id, bob.id] })
  t.equal(first.statusCode, 201)
  const body = json(first)
  t.equal(body.created, 2)
  t.equal(body.shares.length, 2)
  t.match(body.shares[0], {
    mealPlan: { id: plan.id, name: 'Week 10', startDate: plan.startDate, endDate: plan.endDate, owner: { id: owner.id } },
    permission: 'view',
    sharedBy: { id: owner.id, username: owner.username },
    user: { id: alice.id, username: alice.username },
    family: null,
    direction: 'sent'
  }, 'view by default')
  t.equal(body.shares[1].user.id, bob.id, 'in the order asked')
  t.equal(await access(app, alice, plan.id), 'view')

  for (const user of [alice, bob]) {
    const [notification, ...more] = await notificationsOf(app, user, 'meal_plan_shared')
    t.match(notification, { message: `${owner.username} shared the meal plan "Week 10" with you`, actor: { id: owner.id }, data: { mealPlanId: plan.id, permission: 'view' } })
    t.same(more, [], 'once')
  }
  t.same(await notificationsOf(app, owner, 'meal_plan_shared'), [], 'never the sharer')

  const again = await postShare(app, owner, { mealPlanId: plan.id, userIds: [alice.id], permission: 'edit' })
  t.equal(again.statusCode, 201)
  t.equal(json(again).created, 0, 'nothing new')
  t.match(json(again).shares, [{ id: body.shares[0].id, permission: 'edit' }], 'the same share, with the new permission')
  t.equal(await access(app, alice, plan.id), 'edit')
  t.equal((await listShares(app, owner)).pagination.total, 2, 'no second row')
  t.equal((await notificationsOf(app, alice, 'meal_plan_shared')).length, 1, 'no second notification')

  await t.test('validation', async t => {
    const share = (payload: Record<string, unknown>) => postShare(app, owner, { mealPlanId: plan.id, ...payload })
    expectValidationError(t, await share({}), 'userIds')
    expectValidationError(t, await share({ userIds: [] }), 'userIds')
    expectValidationError(t, await share({ userIds: [alice.id, alice.id] }), 'userIds')
    expectValidationError(t, await share({ userIds: Array.from({ length: 51 }, (_, i) => `user${i}`) }), 'userIds')
    expectValidationError(t, await share({ userIds: [alice.id], permission: 'admin' }), 'permission')
    expectValidationError(t, await postShare(app, owner, { userIds: [alice.id] }), 'mealPlanId')
    const self = await share({ userIds: [bob.id, owner.id] })
    t.same(json(self).details, ['userIds[1]: cannot be yourself'])
    const unknown = await share({ userIds: [bob.id, 'no-such-user', gone.id] })
    expectValidationError(t, unknown, 'userIds')
    t.same(json(unknown).details, ['userIds[1]: no active user has this id', 'userIds[2]: no active user has this id'], 'unknown and inactive users are named')
    t.equal((await listShares(app, owner)).pagination.total, 2, 'a refused request shares with no one')
  })

  for (const user of [alice, bob]) {
    const res = await postShare(app, user, { mealPlanId: plan.id, userIds: [stranger.id] })
    t.equal(res.statusCode, 403, 'a recipient (edit or view) cannot share')
    t.equal(json(res).error, 'Only the meal plan\'s owner can change, delete or share it')
  }
  t.equal((await postShare(app, stranger, { mealPlanId: plan.id, userIds: [alice.id] })).statusCode, 404, 'a stranger gets 404')
  t.equal((await postShare(app, owner, { mealPlanId: 'no-such-plan', userIds: [alice.id] })).statusCode, 404)
  t.equal(await access(app, stranger, plan.id), 404, 'nobody was added')
  t.equal((await app.inject({ method: 'POST', url: '/api/shared-meal-plans', payload: { mealPlanId: plan.id, userIds: [alice.id] } })).statusCode, 401)
})

t.test('sharing with a family: only one you belong to; its members are notified and see the plan', async t => {
  const app = await build(t)
  const [owner, member, other, late, outsider] = await Promise.all(Array.from({ length: 5 }, async () => await registerUser(app)))
  const family = await createFamily(app, owner, [member, other], 'Smiths')
  const notMine = await createFamily(app, outsider, [], 'Joneses')
  const plan = await createMealPlan(app, owner, { name: 'Holiday' })

  const refused = await postShare(app, owner, { mealPlanId: plan.id, familyId: notMine.id })
  t.equal(refused.statusCode, 404, 'a family you are not in')
  t.equal(json(refused).error, 'Family not found')
  t.equal((await postShare(app, owner, { mealPlanId: plan.id, familyId: 'no-such-family' })).statusCode, 404)

  const res = await postShare(app, owner, { mealPlanId: plan.id, familyId: family.id, userIds: [outsider.id], permission: 'edit' })
  t.equal(res.statusCode, 201)
  t.equal(json(res).created, 2)
  t.match(json(res).shares, [
    { family: { id: family.id, name: 'Smiths' }, user: null, permission: 'edit' },
    { family: null, user: { id: outsider.id }, permission: 'edit' }
  ], 'a family and a user in one request')
  for (const user of [member, other]) {
    const [notification, ...more] = await notificationsOf(app, user, 'meal_plan_shared')
    t.equal(notification.message, `${owner.username} shared the meal plan "Holiday" with your family "Smiths"`)
    t.same(more, [])
    t.equal(await access(app, user, plan.id), 'edit', 'members have the family\'s permission')
  }
  t.same(await notificationsOf(app, owner, 'meal_plan_shared'), [], 'not the sharer, a member too')
  t.equal((await notificationsOf(app, outsider, 'meal_plan_shared')).length, 1)

  await addFamilyMember(app, family, late)
  t.equal(await access(app, late, plan.id), 'edit', 'who joins the family later sees the plan')
  t.ok(await planMeal(app, late, { mealPlanId: plan.id, date: '2026-03-04', customTitle: 'New member\'s dish' }), 'and edits it')
})

t.test('concurrent identical share requests add one row and one notification per recipient', async t => {
  const app = await build(t)
  const [owner, alice, member] = await Promise.all(Array.from({ length: 3 }, async () => await registerUser(app)))
  const family = await createFamily(app, owner, [member])
  const plan = await createMealPlan(app, owner)

  const responses = await Promise.all(Array.from({ length: 12 }, async (_, i) =>
    await postShare(app, owner, { mealPlanId: plan.id, familyId: family.id, userIds: [alice.id], permission: i % 2 === 0 ? 'view' : 'edit' })))
  t.same(responses.map(r => r.statusCode), Array(12).fill(201), 'every request succeeds')
  t.equal(responses.reduce((sum, r) => sum + (json(r).created as number), 0), 2, 'one new user share and one new family share in all')
  const shares = (await listShares(app, owner, '?direction=sent')).sharedMealPlans
  t.equal(shares.length, 2, 'two rows')
  t.equal(new Set(responses.map(r => json(r).shares[0].id)).size, 1, 'every request answers the same family share')
  const rows = await app.db<Array<{ count: number }>>`select count(*)::int as count from shared_meal_plans where meal_plan_id = ${plan.id}`
  t.equal(rows[0].count, 2, 'and the table holds two')
  t.equal((await notificationsOf(app, alice, 'meal_plan_shared')).length, 1, 'alice is notified once')
  t.equal((await notificationsOf(app, member, 'meal_plan_shared')).length, 1, 'the family member once')
  t.ok(['view', 'edit'].includes(await access(app, alice, plan.id) as string), 'the last request\'s permission holds')
})

t.test('the share list: sent and received, paged; a family member sees only the family\'s share', async t => {
  const app = await build(t)
  const [owner, alice, member, stranger] = await Promise.all(Array.from({ length: 4 }, async () => await registerUser(app)))
  const family = await createFamily(app, owner, [alice, member], 'Household')
  const p1 = await createMealPlan(app, owner, { name: 'P1' })
  const p2 = await createMealPlan(app, owner, { name: 'P2' })
  const hers = await createMealPlan(app, alice, { name: 'Alice plan' })
  const [direct] = await shareMealPlan(app, owner, p1, [alice], 'view')
  const familyShare = await shareWithFamily(app, owner, p2, family, 'edit')
  const [back] = await shareMealPlan(app, alice, hers, [owner], 'edit')

  const mine = await listShares(app, owner)
  t.same(mine.sharedMealPlans.map((s: { id: string }) => s.id), [back.id, familyShare.id, direct.id], 'newest first')
  t.same(mine.sharedMealPlans.map((s: { direction: string }) => s.direction), ['received', 'sent', 'sent'])
  t.same((await listShares(app, owner, '?direction=sent')).sharedMealPlans.map((s: { id: string }) => s.id), [familyShare.id, direct.id])
  t.same((await listShares(app, owner, '?direction=received')).sharedMealPlans.map((s: { id: string }) => s.id), [back.id])

  const theirs = await listShares(app, alice, '?direction=received')
  t.same(theirs.sharedMealPlans.map((s: { id: string }) => s.id), [familyShare.id, direct.id], 'directly and through a family')
  t.match(theirs.sharedMealPlans[0], { mealPlan: { name: 'P2', owner: { id: owner.id } }, family: { name: 'Household' }, direction: 'received' })
  t.same((await listShares(app, member)).sharedMealPlans.map((s: { id: string }) => s.id), [familyShare.id], 'not the share with someone else')
  t.same((await listShares(app, stranger)).sharedMealPlans, [], 'a stranger sees none')

  const page = await listShares(app, owner, '?limit=2&page=2')
  t.same(page.sharedMealPlans.map((s: { id: string }) => s.id), [direct.id])
  t.match(page.pagination, { page: 2, limit: 2, total: 3, totalPages: 2, hasNext: false, hasPrev: true })
  expectValidationError(t, await app.inject({ url: '/api/shared-meal-plans?direction=up', headers: bearer(owner) }), 'direction')
})

t.test('revoking: the owner, effective with the next request; a direct recipient may leave a share', async t => {
  const app = await build(t)
  const [owner, alice, member, stranger] = await Promise.all(Array.from({ length: 4 }, async () => await registerUser(app)))
  const family = await createFamily(app, owner, [member])
  const plan = await createMealPlan(app, owner)
  const meal = await planMeal(app, owner, { mealPlanId: plan.id, date: '2026-03-03', customTitle: 'Tacos' })
  const [direct] = await shareMealPlan(app, owner, plan, [alice], 'edit')
  const familyShare = await shareWithFamily(app, owner, plan, family, 'view')

  const byMember = await revoke(app, member, familyShare.id)
  t.equal(byMember.statusCode, 403, 'a family member cannot revoke the family\'s share')
  t.equal(json(byMember).error, 'Only the meal plan\'s owner can revoke this share')
  t.equal((await revoke(app, member, direct.id)).statusCode, 404, 'another recipient\'s share is not theirs to see')
  t.equal((await revoke(app, stranger, direct.id)).statusCode, 404, 'a stranger gets 404')
  t.equal((await revoke(app, owner, 'x'.repeat(65))).statusCode, 404, 'a malformed id is 404')
  t.equal(await access(app, alice, plan.id), 'edit', 'still shared')

  const res = await revoke(app, owner, direct.id)
  t.equal(res.statusCode, 200)
  t.same(json(res), { message: 'Meal plan share revoked' })
  t.equal(await access(app, alice, plan.id), 404, 'the plan is gone for the recipient at once')
  t.equal((await app.inject({ url: `/api/planned-meals/${meal.id}`, headers: bearer(alice) })).statusCode, 404, 'with its meals')
  t.same((await listShares(app, alice)).sharedMealPlans, [])
  t.notOk(json(await app.inject({ url: '/api/mealplans', headers: bearer(alice) })).mealPlans.some((p: { id: string }) => p.id === plan.id))
  t.equal((await revoke(app, owner, direct.id)).statusCode, 404, 'revoking twice is 404')

  t.equal((await revoke(app, owner, familyShare.id)).statusCode, 200)
  t.equal(await access(app, member, plan.id), 404, 'family members lose it too')
  t.equal(await access(app, owner, plan.id), 'owner')
})

t.test('a plan has at most 100 shares, exactly under concurrent requests', async t => {
  const app = await build(t)
  const owner = await registerUser(app)
  const plan = await createMealPlan(app, owner)
  const families = await manyFamilies(app, owner, 105)
  for (const family of families.slice(0, 95)) await shareWithFamily(app, owner, plan, family, 'view')
  const racing = await Promise.all(families.slice(95).map(async family => await postShare(app, owner, { mealPlanId: plan.id, familyId: family.id })))
  t.equal(racing.filter(r => r.statusCode === 201).length, 5, 'exactly the free places are taken')
  const refused = racing.filter(r => r.statusCode === 403)
  t.equal(refused.length, 5)
  t.match(json(refused[0]), { error: 'This meal plan is shared with as many users and families as allowed', limit: 100, used: 100 })
  t.equal((await listShares(app, owner)).pagination.total, 100)
  t.equal((await postShare(app, owner, { mealPlanId: plan.id, familyId: families[0].id, permission: 'edit' })).statusCode, 201, 'a full plan still re-shares')
})

t.test('a user a plan was shared with directly may remove that share', async t => {
  const app = await build(t)
  const [owner, alice] = await Promise.all(Array.from({ length: 2 }, async () => await registerUser(app)))
  const plan = await createMealPlan(app, owner)
  const [direct] = await shareMealPlan(app, owner, plan, [alice], 'view')
  t.equal((await app.inject({ url: `/api/mealplans/${plan.id}`, headers: bearer(alice) })).statusCode, 200)
  const res = await revoke(app, alice, direct.id)
  t.equal(res.statusCode, 200)
  t.equal((await app.inject({ url: `/api/mealplans/${plan.id}`, headers: bearer(alice) })).statusCode, 404, 'the plan is gone from her side')
  t.equal((await app.inject({ url: `/api/mealplans/${plan.id}`, headers: bearer(owner) })).statusCode, 200, 'the owner keeps it')
})
