import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { bearer, build, createRecipe, expectValidationError, json, patchRecipe, registerUser, type TestUser } from '../../../helper.js'
import {
  addFamilyMember, createFamily, createMealPlan, planMeal, removeFamilyMember, shareMealPlan, shareWithFamily
} from '../../../helpers/meal-plans.js'

const create = (app: FastifyInstance, user: TestUser, payload: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/api/mealplans', headers: bearer(user), payload })
const getPlan = (app: FastifyInstance, user: TestUser, id: string) => app.inject({ url: `/api/mealplans/${id}`, headers: bearer(user) })
const listPlans = async (app: FastifyInstance, user: TestUser, query = '') =>
  json(await app.inject({ url: `/api/mealplans${query}`, headers: bearer(user) }))
const change = (app: FastifyInstance, user: TestUser, id: string, payload: Record<string, unknown>, method: 'PUT' | 'PATCH' = 'PUT') =>
  app.inject({ method, url: `/api/mealplans/${id}`, headers: bearer(user), payload })

t.test('meal plans: create, read, list, change and delete your own', async t => {
  const app = await build(t)
  const owner = await registerUser(app)

  const created = await create(app, owner, { name: '  Spring week ', description: 'Light food', startDate: '2026-03-02', endDate: '2026-03-08' })
  t.equal(created.statusCode, 201)
  const plan = json(created).mealPlan
  t.match(plan, {
    name: 'Spring week',
    description: 'Light food',
    startDate: '2026-03-02',
    endDate: '2026-03-08',
    access: 'owner',
    owner: { id: owner.id, username: owner.username },
    plannedMealCount: 0,
    plannedMeals: []
  })
  t.notOk('email' in plan.owner, 'the owner is a public user')

  await t.test('validation: texts, real dates, order and span', async t => {
    const base = { name: 'Plan', startDate: '2026-01-01', endDate: '2026-01-07' }
    expectValidationError(t, await create(app, owner, { ...base, name: '   ' }), 'name')
    expectValidationError(t, await create(app, owner, { ...base, name: 'x'.repeat(101) }), 'name')
    expectValidationError(t, await create(app, owner, { ...base, description: 'x'.repeat(2001) }), 'description')
    expectValidationError(t, await create(app, owner, { name: 'Plan', startDate: '2026-01-01' }), 'endDate')
    expectValidationError(t, await create(app, owner, { ...base, startDate: '2026-02-30' }), 'startDate')
    expectValidationError(t, await create(app, owner, { ...base, startDate: '2027-02-29', endDate: '2027-03-01' }), 'startDate')
    expectValidationError(t, await create(app, owner, { ...base, startDate: '2026-1-1' }), 'startDate')
    expectValidationError(t, await create(app, owner, { ...base, startDate: '2026-01-01T00:00:00Z' }), 'startDate')
    expectValidationError(t, await create(app, owner, { ...base, endDate: '0999-12-31' }), 'endDate')
    const before = await create(app, owner, { ...base, startDate: '2026-01-07', endDate: '2026-01-06' })
    expectValidationError(t, before, 'endDate')
    t.same(json(before).details, ['endDate: must not be before startDate'])
    const tooLong = await create(app, owner, { ...base, startDate: '2026-01-01', endDate: '2027-01-03' })
    t.same(json(tooLong).details, ['endDate: must be at most 366 days after startDate'])
    t.equal((await create(app, owner, { ...base, startDate: '2026-01-01', endDate: '2027-01-02' })).statusCode, 201, '366 days is fine')
    t.equal((await create(app, owner, { ...base, startDate: '2028-02-29', endDate: '2028-02-29' })).statusCode, 201, 'a leap day, one day long')
    t.equal((await create(app, owner, { ...base, name: 'x'.repeat(100), description: 'd'.repeat(2000) })).statusCode, 201, 'at the limits')
    t.equal(json(await create(app, owner, { ...base, name: 'Salt & pepper <3', description: '  ' })).mealPlan.name, 'Salt & pepper <3', 'plain text kept')
  })

  const read = await getPlan(app, owner, plan.id)
  t.equal(read.statusCode, 200)
  t.same(json(read).mealPlan, plan, 'read back as created')

  await t.test('PUT and PATCH change any subset; dates keep the planned meals inside', async t => {
    const meal = await planMeal(app, owner, { mealPlanId: plan.id, date: '2026-03-04', customTitle: 'Soup' })
    for (const method of ['PUT', 'PATCH'] as const) {
      const renamed = await change(app, owner, plan.id, { name: ` Renamed ${method} ` }, method)
      t.equal(renamed.statusCode, 200, method)
      t.match(json(renamed).mealPlan, { name: `Renamed ${method}`, startDate: '2026-03-02', endDate: '2026-03-08', description: 'Light food' })
      t.same(json(renamed).mealPlan.plannedMeals.map((m: { id: string }) => m.id), [meal.id], 'with its planned meals')
    }
    t.equal(json(await change(app, owner, plan.id, { description: null })).mealPlan.description, null, 'description cleared')
    const moved = await change(app, owner, plan.id, { startDate: '2026-03-04', endDate: '2026-03-10' })
    t.match(json(moved).mealPlan, { startDate: '2026-03-04', endDate: '2026-03-10' }, 'moved, the meal still inside')

    const excluding = await change(app, owner, plan.id, { startDate: '2026-03-05' }, 'PATCH')
    t.equal(excluding.statusCode, 409, 'dates leaving a meal outside')
    t.match(json(excluding), { error: 'Planned meals fall outside the new dates', details: [/1 planned meal would fall outside 2026-03-05 to 2026-03-10/] })
    expectValidationError(t, await change(app, owner, plan.id, { endDate: '2026-03-03' }), 'endDate')
    expectValidationError(t, await change(app, owner, plan.id, { endDate: '2027-03-20' }), 'endDate')
    expectValidationError(t, await change(app, owner, plan.id, { name: '' }), 'name')
    t.match(json(await getPlan(app, owner, plan.id)).mealPlan, { startDate: '2026-03-04', endDate: '2026-03-10', plannedMealCount: 1 }, 'nothing changed')
  })

  await t.test('list: yours, paged, latest start first', async t => {
    const other = await registerUser(app)
    for (const [name, startDate] of [['A', '2026-01-05'], ['B', '2026-02-02'], ['C', '2025-12-01']]) {
      await createMealPlan(app, other, { name, startDate, endDate: startDate })
    }
    const page1 = await listPlans(app, other, '?limit=2')
    t.same(page1.mealPlans.map((p: { name: string }) => p.name), ['B', 'A'])
    t.match(page1.pagination, { page: 1, limit: 2, total: 3, totalPages: 2, hasNext: true, hasPrev: false })
    t.same((await listPlans(app, other, '?page=2&limit=2')).mealPlans.map((p: { name: string }) => p.name), ['C'])
    t.notOk('plannedMeals' in page1.mealPlans[0], 'summaries only')
    t.notOk((await listPlans(app, other)).mealPlans.some((p: { id: string }) => p.id === plan.id), 'not someone else\'s plans')
    expectValidationError(t, await app.inject({ url: '/api/mealplans?limit=51', headers: bearer(other) }), 'limit')
    expectValidationError(t, await app.inject({ url: '/api/mealplans?scope=everything', headers: bearer(other) }), 'scope')
  })

  t.equal((await getPlan(app, owner, 'not-a-plan')).statusCode, 404, 'an unknown id is 404')
  t.equal((await getPlan(app, owner, 'x'.repeat(600))).statusCode, 404, 'an over-long id is 404')
  t.equal((await change(app, owner, 'x'.repeat(65), { name: 'X' })).statusCode, 404, 'a malformed id is 404 on change too')
  t.equal((await app.inject('/api/mealplans')).statusCode, 401, 'sign-in required')

  await t.test('delete: the plan goes with its planned meals and shares', async t => {
    const recipient = await registerUser(app)
    const [share] = await shareMealPlan(app, owner, plan, [recipient], 'view')
    const meals = json(await getPlan(app, owner, plan.id)).mealPlan.plannedMeals
    const del = await app.inject({ method: 'DELETE', url: `/api/mealplans/${plan.id}`, headers: bearer(owner) })
    t.equal(del.statusCode, 200)
    t.same(json(del), { message: 'Meal plan deleted' })
    t.equal((await getPlan(app, owner, plan.id)).statusCode, 404)
    t.equal((await getPlan(app, recipient, plan.id)).statusCode, 404, 'gone for recipients too')
    t.equal((await app.inject({ url: `/api/planned-meals/${meals[0].id}`, headers: bearer(owner) })).statusCode, 404, 'its planned meals are gone')
    const shares = json(await app.inject({ url: '/api/shared-meal-plans', headers: bearer(recipient) })).sharedMealPlans
    t.notOk(shares.some((s: { id: string }) => s.id === share.id), 'its shares are gone')
    t.equal((await app.inject({ method: 'DELETE', url: `/api/mealplans/${plan.id}`, headers: bearer(owner) })).statusCode, 404, 'deleting twice is 404')
  })
})

t.test('recipients see shared plans with their access; only the owner changes them; strangers get 404', async t => {
  const app = await build(t)
  const [owner, viewer, editor, relative, cousin, stranger] = await Promise.all(Array.from({ length: 6 }, async () => await registerUser(app)))
  const plan = await createMealPlan(app, owner, { name: 'Family week' })
  await shareMealPlan(app, owner, plan, [viewer], 'view')
  await shareMealPlan(app, owner, plan, [editor], 'edit')
  const editors = await createFamily(app, owner, [relative], 'Editors')
  await shareWithFamily(app, owner, plan, editors, 'edit')
  const viewers = await createFamily(app, owner, [cousin], 'Viewers')
  await shareWithFamily(app, owner, plan, viewers, 'view')
  await planMeal(app, owner, { mealPlanId: plan.id, date: '2026-03-03', customTitle: 'Curry' })

  const expected: Array<[TestUser, string, string]> = [
    [owner, 'owner', 'the owner'], [viewer, 'view', 'a direct view recipient'], [editor, 'edit', 'a direct edit recipient'],
    [relative, 'edit', 'an edit recipient through a family'], [cousin, 'view', 'a view recipient through a family']
  ]
  for (const [user, access, who] of expected) {
    const listed = (await listPlans(app, user)).mealPlans.find((p: { id: string }) => p.id === plan.id)
    t.match(listed, { access, name: 'Family week', owner: { id: owner.id, username: owner.username }, plannedMealCount: 1 }, `${who} lists it with access ${access}`)
    const read = await getPlan(app, user, plan.id)
    t.equal(read.statusCode, 200, `${who} reads it`)
    t.match(json(read).mealPlan, { access, plannedMeals: [{ customTitle: 'Curry' }] })
  }
  t.same((await listPlans(app, stranger)).mealPlans, [], 'a stranger lists nothing')
  t.equal((await getPlan(app, stranger, plan.id)).statusCode, 404, 'a stranger gets 404')

  t.same((await listPlans(app, owner, '?scope=shared')).mealPlans, [], 'the owner\'s plan is not "shared" for them')
  t.equal((await listPlans(app, owner, '?scope=owned')).mealPlans[0].id, plan.id)
  t.equal((await listPlans(app, viewer, '?scope=shared')).mealPlans[0].id, plan.id)
  t.same((await listPlans(app, viewer, '?scope=owned')).mealPlans, [], 'recipients own nothing')

  const attempts = [
    ['PUT', { name: 'Hijacked' }],
    ['PATCH', { endDate: '2026-03-20' }],
    ['DELETE', undefined]
  ] as const
  for (const [method, payload] of attempts) {
    for (const user of [viewer, editor, relative, cousin]) {
      const res = await app.inject({ method, url: `/api/mealplans/${plan.id}`, headers: bearer(user), payload })
      t.equal(res.statusCode, 403, `${method} by a recipient (${user === editor || user === relative ? 'edit' : 'view'}) is 403`)
      t.equal(json(res).error, 'Only the meal plan\'s owner can change, delete or share it')
    }
    t.equal((await app.inject({ method, url: `/api/mealplans/${plan.id}`, headers: bearer(stranger), payload })).statusCode, 404, `${method} by a stranger is 404`)
  }
  t.match(json(await getPlan(app, owner, plan.id)).mealPlan, { name: 'Family week', endDate: '2026-03-08' }, 'nothing changed')

  await t.test('the strongest access wins; leaving the family takes its access at once', async t => {
    await addFamilyMember(app, editors, viewer)
    t.equal(json(await getPlan(app, viewer, plan.id)).mealPlan.access, 'edit', 'view directly, edit through a family')
    await removeFamilyMember(app, editors, viewer)
    t.equal(json(await getPlan(app, viewer, plan.id)).mealPlan.access, 'view')
    await removeFamilyMember(app, viewers, cousin)
    t.equal((await getPlan(app, cousin, plan.id)).statusCode, 404, 'no longer a member: 404')
    t.notOk((await listPlans(app, cousin)).mealPlans.some((p: { id: string }) => p.id === plan.id), 'and not listed')
  })
})

t.test('a plan\'s planned meals: by date and meal type, with a recipe summary only while the caller may see the recipe', async t => {
  const app = await build(t)
  const owner = await registerUser(app)
  const recipient = await registerUser(app)
  const friend = await registerUser(app)
  await app.inject({ method: 'POST', url: `/api/social/users/${friend.id}/follow`, headers: bearer(owner) })
  await app.inject({ method: 'POST', url: `/api/social/users/${owner.id}/follow`, headers: bearer(friend) })
  const pub = await createRecipe(app, friend, { title: 'Public pie', servings: 4, prepTime: 10, cookTime: 30 })
  const friendsOnly = await createRecipe(app, friend, { title: 'Friends stew', visibility: 'friends' })
  const plan = await createMealPlan(app, owner)
  await shareMealPlan(app, owner, plan, [recipient], 'view')

  const planned = [
    { date: '2026-03-03', mealType: 'dessert', recipeId: pub.id },
    { date: '2026-03-02', mealType: 'dinner', recipeId: friendsOnly.id, customTitle: 'Stew night', servings: 2, notes: 'double it' },
    { date: '2026-03-03', mealType: 'breakfast', customTitle: 'Porridge' },
    { date: '2026-03-02', mealType: 'breakfast', customTitle: 'Eggs' },
    { date: '2026-03-03', mealType: 'snack', customTitle: 'Fruit' },
    { date: '2026-03-03', mealType: 'lunch', customTitle: 'Salad' }
  ]
  for (const fields of planned) await planMeal(app, owner, { mealPlanId: plan.id, ...fields })

  const mine = json(await getPlan(app, owner, plan.id)).mealPlan
  t.same(mine.plannedMeals.map((m: { date: string, mealType: string }) => `${m.date} ${m.mealType}`), [
    '2026-03-02 breakfast', '2026-03-02 dinner', '2026-03-03 breakfast', '2026-03-03 lunch', '2026-03-03 snack', '2026-03-03 dessert'
  ], 'by date, then breakfast, lunch, dinner, snack, dessert')
  t.equal(mine.plannedMealCount, 6)
  const stew = mine.plannedMeals[1]
  t.match(stew, { recipeId: friendsOnly.id, customTitle: 'Stew night', servings: 2, notes: 'double it', userId: owner.id, mealPlanId: plan.id })
  t.same(stew.recipe, { id: friendsOnly.id, title: 'Friends stew', imageUrl: null, servings: friendsOnly.servings, prepTime: null, cookTime: null },
    'the owner, a friend of its author, sees the recipe summary')
  t.same(mine.plannedMeals[5].recipe, { id: pub.id, title: 'Public pie', imageUrl: null, servings: 4, prepTime: 10, cookTime: 30 })
  t.equal(mine.plannedMeals[0].recipe, null, 'no recipe: null')

  const theirs = json(await getPlan(app, recipient, plan.id)).mealPlan
  t.equal(theirs.plannedMeals[1].recipe, null, 'a recipient who may not see the recipe gets no summary')
  t.equal(theirs.plannedMeals[1].customTitle, 'Stew night', 'but the rest of the meal')
  t.equal(theirs.plannedMeals[5].recipe.title, 'Public pie')

  await patchRecipe(app, friend, pub.id, { visibility: 'private' })
  t.equal(json(await getPlan(app, owner, plan.id)).mealPlan.plannedMeals[5].recipe, null, 'a recipe made private since: null for the planner too')
})

t.test('a user owns at most 1,000 plans, exactly, under concurrent creation', async t => {
  const app = await build(t)
  const owner = await registerUser(app)
  // 990 plans through the API in parallel batches, then 20 at once race for the last 10 places.
  for (let batch = 0; batch < 99; batch++) {
    await Promise.all(Array.from({ length: 10 }, async (_, i) => await createMealPlan(app, owner, { name: `P${batch * 10 + i}` })))
  }
  const racing = await Promise.all(Array.from({ length: 20 }, async (_, i) => await create(app, owner, { name: `R${i}`, startDate: '2026-01-01', endDate: '2026-01-02' })))
  t.equal(racing.filter(r => r.statusCode === 201).length, 10, 'exactly the free places are taken')
  const refused = racing.filter(r => r.statusCode === 403)
  t.equal(refused.length, 10)
  t.match(json(refused[0]), { error: 'You have as many meal plans as allowed', limit: 1000, used: 1000 })
  t.equal((await listPlans(app, owner, '?scope=owned&limit=1')).pagination.total, 1000)
})
