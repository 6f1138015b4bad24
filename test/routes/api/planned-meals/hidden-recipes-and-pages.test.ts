// A planned meal never names a recipe its reader can no longer see, and the list without a date range pages through
// the calendar and every visible plan in one order: meals of one date neither skipped nor repeated at any page size.
import type { LightMyRequestResponse } from 'fastify'
import t from 'tap'
import { adminBearer, bearer, build, createAdmin, createRecipe, json, patchRecipe, registerUser, type TestUser } from '../../../helper.js'
import { createMealPlan, planMeal, shareMealPlan } from '../../../helpers/meal-plans.js'

const listMeals = async (app: Awaited<ReturnType<typeof build>>, user: TestUser, query = '') =>
  await app.inject({ url: `/api/planned-meals${query}`, headers: bearer(user) })
const ids = (res: LightMyRequestResponse): string[] => json(res).plannedMeals.map((m: { id: string }) => m.id)

t.test('a recipe the reader can no longer see is not named by id either', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  const [planner, author] = await Promise.all([registerUser(app), registerUser(app)])
  const soup = await createRecipe(app, author, { title: 'Soup' })
  const stew = await createRecipe(app, author, { title: 'Stew' })
  const plan = await createMealPlan(app, planner)
  const onCalendar = await planMeal(app, planner, { date: '2026-03-03', recipeId: soup.id, customTitle: 'Lunch' })
  const inPlan = await planMeal(app, planner, { mealPlanId: plan.id, date: '2026-03-03', recipeId: stew.id })
  t.equal(onCalendar.recipeId, soup.id, 'named while visible')

  const read = async () => {
    const one = json(await app.inject({ url: `/api/planned-meals/${onCalendar.id}`, headers: bearer(planner) })).plannedMeal
    const list = await listMeals(app, planner)
    const detail = await app.inject({ url: `/api/mealplans/${plan.id}`, headers: bearer(planner) })
    return { one, listed: json(list).plannedMeals, inDetail: json(detail).mealPlan.plannedMeals, bodies: list.body + detail.body }
  }

  await patchRecipe(app, author, soup.id, { visibility: 'private' })
  let seen = await read()
  t.match(seen.one, { recipeId: null, recipe: null, customTitle: 'Lunch' }, 'a recipe made private: neither summary nor id')
  t.match(seen.listed.find((m: { id: string }) => m.id === onCalendar.id), { recipeId: null, recipe: null })
  t.notOk(seen.bodies.includes(String(soup.id)), 'the id appears nowhere in the list or the plan')

  const ban = await app.inject({ method: 'POST', url: `/api/admin/users/${author.id}/ban`, headers: adminBearer(admin), payload: { reason: 'Spam' } })
  t.equal(ban.statusCode, 200)
  seen = await read()
  t.match(seen.inDetail.find((m: { id: string }) => m.id === inPlan.id), { recipeId: null, recipe: null }, 'a banned author\'s recipe in a plan')
  t.match(seen.listed.find((m: { id: string }) => m.id === inPlan.id), { recipeId: null, recipe: null })
  t.notOk(seen.bodies.includes(String(stew.id)))

  const unban = await app.inject({ method: 'POST', url: `/api/admin/users/${author.id}/unban`, headers: adminBearer(admin) })
  t.equal(unban.statusCode, 200)
  seen = await read()
  t.match(seen.inDetail.find((m: { id: string }) => m.id === inPlan.id), { recipeId: stew.id, recipe: { id: stew.id, title: 'Stew' } }, 'back with the author')
})

t.test('without a range: pages over the calendar and every visible plan neither skip nor repeat', async t => {
  const app = await build(t)
  const [user, friend] = await Promise.all([registerUser(app), registerUser(app)])
  const own = await createMealPlan(app, user, { startDate: '2026-05-01', endDate: '2026-05-07' })
  const second = await createMealPlan(app, user, { startDate: '2026-05-01', endDate: '2026-05-07' })
  const theirs = await createMealPlan(app, friend, { startDate: '2026-05-01', endDate: '2026-05-07' })
  await shareMealPlan(app, friend, theirs, [user], 'view')
  const unshared = await createMealPlan(app, friend, { startDate: '2026-05-01', endDate: '2026-05-07' })
  // Many meals of one date and meal type, planned at once in every source (their order is when they were planned).
  const sources: Array<[TestUser, string | undefined]> = [[user, undefined], [user, own.id], [user, second.id], [friend, theirs.id]]
  const planned = await Promise.all(sources.flatMap(([who, mealPlanId]) => Array.from({ length: 6 }, async (_, i) =>
    await planMeal(app, who, { mealPlanId, date: '2026-05-02', mealType: 'dinner', customTitle: `${mealPlanId ?? 'calendar'} ${i}` }))))
  const earlier = await planMeal(app, user, { mealPlanId: second.id, date: '2026-05-01', mealType: 'snack', customTitle: 'Earlier' })
  const breakfast = await planMeal(app, friend, { mealPlanId: theirs.id, date: '2026-05-02', mealType: 'breakfast', customTitle: 'First' })
  const later = await planMeal(app, user, { date: '2026-05-03', mealType: 'breakfast', customTitle: 'Later' })
  await planMeal(app, friend, { mealPlanId: unshared.id, date: '2026-05-02', customTitle: 'Not shared' })
  await planMeal(app, friend, { date: '2026-05-02', customTitle: 'Friend calendar' })

  const whole = json(await listMeals(app, user, '?limit=50'))
  const order: string[] = whole.plannedMeals.map((m: { id: string }) => m.id)
  t.equal(order.length, planned.length + 3)
  t.match(whole.pagination, { total: planned.length + 3, hasNext: false, totalExact: true })
  t.same(new Set(order), new Set([...planned, earlier, breakfast, later].map(m => m.id)), 'the calendar and visible plans only')
  t.same([order[0], order[1], order.at(-1)], [earlier.id, breakfast.id, later.id], 'by date, then meal type')
  const dinners = whole.plannedMeals.slice(2, -1) as Array<{ createdAt: string, id: string }>
  t.ok(dinners.every((m, i) => i === 0 || m.createdAt >= dinners[i - 1].createdAt), 'one date and type: in the order planned')

  for (const limit of [1, 2, 5, 7, 12]) {
    const seen: string[] = []
    for (let page = 1; ; page++) {
      const res = json(await listMeals(app, user, `?limit=${limit}&page=${page}`))
      seen.push(...res.plannedMeals.map((m: { id: string }) => m.id))
      t.equal(res.pagination.total, order.length, `limit ${limit} page ${page}: total`)
      if (!res.pagination.hasNext) break
    }
    t.same(seen, order, `limit ${limit}: every meal once, in order`)
  }
  t.same(ids(await listMeals(app, user, `?limit=5&page=${Math.ceil(order.length / 5) + 1}`)), [], 'past the end: empty')
})
