import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import t from 'tap'
import { befriend, bearer, build, createRecipe, expectValidationError, json, registerUser, type TestUser } from '../../../helper.js'
import { createFamily, createMealPlan, planMeal, postMeal, shareMealPlan, shareWithFamily } from '../../../helpers/meal-plans.js'

const getMeal = (app: FastifyInstance, user: TestUser, id: string) => app.inject({ url: `/api/planned-meals/${id}`, headers: bearer(user) })
const changeMeal = (app: FastifyInstance, user: TestUser, id: string, payload: Record<string, unknown>, method: 'PUT' | 'PATCH' = 'PATCH') =>
  app.inject({ method, url: `/api/planned-meals/${id}`, headers: bearer(user), payload })
const deleteMeal = (app: FastifyInstance, user: TestUser, id: string) => app.inject({ method: 'DELETE', url: `/api/planned-meals/${id}`, headers: bearer(user) })
const listMeals = (app: FastifyInstance, user: TestUser, query = '') => app.inject({ url: `/api/planned-meals${query}`, headers: bearer(user) })
const ids = (res: LightMyRequestResponse) => json(res).plannedMeals.map((m: { id: string }) => m.id)

t.test('calendar entries (no plan) are yours alone', async t => {
  const app = await build(t)
  const [user, other, author] = await Promise.all([registerUser(app), registerUser(app), registerUser(app)])
  const own = await createRecipe(app, user, { title: 'My pasta', servings: 2 })
  const hidden = await createRecipe(app, author, { title: 'Secret', visibility: 'private' })
  const friendsOnly = await createRecipe(app, author, { title: 'Friends only', visibility: 'friends' })

  const created = await postMeal(app, user, { date: '2026-04-01', mealType: 'lunch', recipeId: own.id, servings: 3, notes: 'Use fresh basil' })
  t.equal(created.statusCode, 201)
  const meal = json(created).plannedMeal
  t.match(meal, {
    mealPlanId: null,
    userId: user.id,
    date: '2026-04-01',
    mealType: 'lunch',
    recipeId: own.id,
    recipe: { id: own.id, title: 'My pasta', servings: 2 },
    customTitle: null,
    servings: 3,
    notes: 'Use fresh basil'
  })
  const titled = await planMeal(app, user, { date: '2026-04-01', mealType: 'dinner', customTitle: '  Takeaway  ' })
  t.match(titled, { customTitle: 'Takeaway', recipeId: null, recipe: null }, 'a custom title alone, trimmed')

  await t.test('validation and bounds', async t => {
    const base = { date: '2026-04-02', mealType: 'dinner', customTitle: 'Soup' }
    expectValidationError(t, await postMeal(app, user, { date: '2026-04-02' }), 'customTitle')
    expectValidationError(t, await postMeal(app, user, { ...base, customTitle: '   ' }), 'customTitle')
    expectValidationError(t, await postMeal(app, user, { ...base, customTitle: 'x'.repeat(201) }), 'customTitle')
    expectValidationError(t, await postMeal(app, user, { ...base, notes: 'x'.repeat(2001) }), 'notes')
    expectValidationError(t, await postMeal(app, user, { ...base, servings: 0 }), 'servings')
    expectValidationError(t, await postMeal(app, user, { ...base, servings: 101 }), 'servings')
    expectValidationError(t, await postMeal(app, user, { ...base, mealType: 'brunch' }), 'mealType')
    expectValidationError(t, await postMeal(app, user, { ...base, date: '2026-02-30' }), 'date')
    expectValidationError(t, await postMeal(app, user, { ...base, date: 'tomorrow' }), 'date')
    expectValidationError(t, await postMeal(app, user, { customTitle: 'Soup', mealType: 'dinner' }), 'date')
    t.equal((await postMeal(app, user, { ...base, customTitle: 'x'.repeat(200), notes: 'n'.repeat(2000), servings: 100, mealType: 'dessert' })).statusCode, 201, 'at the limits')
  })

  await t.test('a recipe you cannot see cannot be planned', async t => {
    for (const [recipeId, what] of [[hidden.id, 'a private recipe'], [friendsOnly.id, 'a friends-only recipe of a non-friend'], ['no-such-recipe', 'an unknown id']]) {
      const res = await postMeal(app, user, { date: '2026-04-03', recipeId })
      t.equal(res.statusCode, 404, what)
      t.equal(json(res).error, 'Recipe not found')
      t.equal((await changeMeal(app, user, meal.id, { recipeId })).statusCode, 404, `nor set on a planned meal: ${what}`)
    }
    await befriend(app, user, author)
    t.equal((await postMeal(app, user, { date: '2026-04-03', recipeId: friendsOnly.id })).statusCode, 201, 'once friends, it can')
  })

  t.equal((await getMeal(app, user, meal.id)).statusCode, 200)
  t.same(json(await getMeal(app, user, meal.id)).plannedMeal, meal, 'read back as created')
  for (const [what, res] of [
    ['read', await getMeal(app, other, meal.id)],
    ['PUT', await changeMeal(app, other, meal.id, { notes: 'mine now' }, 'PUT')],
    ['PATCH', await changeMeal(app, other, meal.id, { notes: 'mine now' })],
    ['delete', await deleteMeal(app, other, meal.id)]
  ] as const) t.equal(res.statusCode, 404, `someone else's calendar entry: ${what} is 404`)
  t.notOk(ids(await listMeals(app, other)).includes(meal.id), 'and not in anyone else\'s list')
  t.ok(ids(await listMeals(app, user)).includes(meal.id), 'in yours')

  await t.test('changes: PUT and PATCH take any subset; a meal always keeps a recipe or a title', async t => {
    const put = await changeMeal(app, user, meal.id, { date: '2026-04-05', mealType: 'breakfast' }, 'PUT')
    t.equal(put.statusCode, 200)
    t.match(json(put).plannedMeal, { date: '2026-04-05', mealType: 'breakfast', recipeId: own.id, servings: 3, notes: 'Use fresh basil' })
    expectValidationError(t, await changeMeal(app, user, meal.id, { recipeId: null }), 'customTitle')
    expectValidationError(t, await changeMeal(app, user, meal.id, { date: '2026-13-01' }), 'date')
    const swapped = await changeMeal(app, user, meal.id, { recipeId: null, customTitle: 'Leftovers', servings: null, notes: null })
    t.match(json(swapped).plannedMeal, { recipeId: null, recipe: null, customTitle: 'Leftovers', servings: null, notes: null })
    expectValidationError(t, await changeMeal(app, user, meal.id, { customTitle: ' ' }), 'customTitle')
    t.equal((await changeMeal(app, user, meal.id, { mealPlanId: 'another-plan' })).statusCode, 200, 'mealPlanId is not a field of a change (ignored)')
    t.equal(json(await getMeal(app, user, meal.id)).plannedMeal.mealPlanId, null)
  })

  t.equal((await getMeal(app, user, 'x'.repeat(65))).statusCode, 404, 'a malformed id is 404')
  t.equal((await app.inject('/api/planned-meals')).statusCode, 401, 'sign-in required')
  const del = await deleteMeal(app, user, meal.id)
  t.equal(del.statusCode, 200)
  t.same(json(del), { message: 'Planned meal deleted' })
  t.equal((await getMeal(app, user, meal.id)).statusCode, 404)
  t.equal((await deleteMeal(app, user, meal.id)).statusCode, 404, 'deleting twice is 404')
})

t.test('meals of a plan: edit recipients change them, view recipients read them (403 to change), strangers get 404', async t => {
  const app = await build(t)
  const [owner, viewer, editor, relative, cousin, stranger] = await Promise.all(Array.from({ length: 6 }, async () => await registerUser(app)))
  const plan = await createMealPlan(app, owner, { startDate: '2026-03-02', endDate: '2026-03-08' })
  await shareMealPlan(app, owner, plan, [viewer], 'view')
  const [editorShare] = await shareMealPlan(app, owner, plan, [editor], 'edit')
  await shareWithFamily(app, owner, plan, await createFamily(app, owner, [relative]), 'edit')
  await shareWithFamily(app, owner, plan, await createFamily(app, owner, [cousin]), 'view')

  const byOwner = await planMeal(app, owner, { mealPlanId: plan.id, date: '2026-03-02', customTitle: 'Owner dinner' })
  const byEditor = await planMeal(app, editor, { mealPlanId: plan.id, date: '2026-03-03', mealType: 'lunch', customTitle: 'Editor lunch' })
  t.equal(byEditor.userId, editor.id, 'the planner is recorded')
  const byRelative = await planMeal(app, relative, { mealPlanId: plan.id, date: '2026-03-04', customTitle: 'Family dinner' })
  t.equal(byRelative.mealPlanId, plan.id, 'an edit recipient through a family adds too')

  for (const user of [viewer, cousin]) {
    const res = await postMeal(app, user, { mealPlanId: plan.id, date: '2026-03-05', customTitle: 'Sneaky' })
    t.equal(res.statusCode, 403, 'a view recipient cannot add')
    t.equal(json(res).error, 'You have view-only access to this meal plan')
  }
  const strangerAdd = await postMeal(app, stranger, { mealPlanId: plan.id, date: '2026-03-05', customTitle: 'Sneaky' })
  t.equal(strangerAdd.statusCode, 404, 'a stranger cannot add')
  t.equal(json(strangerAdd).error, 'Meal plan not found')
  t.equal((await postMeal(app, owner, { mealPlanId: 'no-such-plan', date: '2026-03-05', customTitle: 'X' })).statusCode, 404)

  for (const date of ['2026-03-01', '2026-03-09']) {
    const outside = await postMeal(app, owner, { mealPlanId: plan.id, date, customTitle: 'Too early or late' })
    expectValidationError(t, outside, 'date')
    t.same(json(outside).details, ['date: must lie within the meal plan\'s dates (2026-03-02 to 2026-03-08)'])
  }
  t.equal((await postMeal(app, owner, { mealPlanId: plan.id, date: '2026-03-08', customTitle: 'Last day' })).statusCode, 201, 'the last day is inside')

  for (const user of [owner, viewer, editor, relative, cousin]) {
    t.equal((await getMeal(app, user, byEditor.id)).statusCode, 200, 'everyone who sees the plan reads its meals')
    t.ok(ids(await listMeals(app, user, `?mealPlanId=${plan.id}`)).includes(byEditor.id))
    t.ok(ids(await listMeals(app, user)).includes(byEditor.id), 'and finds them in their unfiltered list')
  }
  t.equal((await getMeal(app, stranger, byEditor.id)).statusCode, 404, 'a stranger reads nothing')
  t.equal((await listMeals(app, stranger, `?mealPlanId=${plan.id}`)).statusCode, 404, 'nor lists the plan\'s meals')
  t.same(ids(await listMeals(app, stranger)), [])

  await t.test('changing and removing', async t => {
    for (const method of ['PUT', 'PATCH'] as const) {
      for (const user of [owner, editor, relative]) {
        const res = await changeMeal(app, user, byOwner.id, { notes: `${method} by ${user.username}` }, method)
        t.equal(res.statusCode, 200, `${method} by the owner or an edit recipient`)
        t.equal(json(res).plannedMeal.notes, `${method} by ${user.username}`)
      }
      for (const user of [viewer, cousin]) {
        const res = await changeMeal(app, user, byOwner.id, { notes: 'view only' }, method)
        t.equal(res.statusCode, 403, `${method} by a view recipient`)
        t.equal(json(res).error, 'You have view-only access to this meal plan')
      }
      t.equal((await changeMeal(app, stranger, byOwner.id, { notes: 'x' }, method)).statusCode, 404, `${method} by a stranger`)
    }
    expectValidationError(t, await changeMeal(app, editor, byOwner.id, { date: '2026-03-09' }), 'date')
    t.equal(json(await changeMeal(app, editor, byOwner.id, { date: '2026-03-07' })).plannedMeal.date, '2026-03-07', 'moved within the plan')

    const editorsOwn = await createRecipe(app, editor, { title: 'Editor secret', visibility: 'private' })
    const ownersOwn = await createRecipe(app, owner, { title: 'Owner secret', visibility: 'private' })
    t.equal((await changeMeal(app, editor, byOwner.id, { recipeId: ownersOwn.id })).statusCode, 404, 'an editor plans only recipes they can see')
    const withSecret = await changeMeal(app, editor, byOwner.id, { recipeId: editorsOwn.id })
    t.equal(json(withSecret).plannedMeal.recipe.title, 'Editor secret')
    t.equal(json(await getMeal(app, owner, byOwner.id)).plannedMeal.recipe, null, 'the owner, who cannot see it, gets no summary')
    t.equal((await changeMeal(app, owner, byOwner.id, { servings: 4 })).statusCode, 200, 'and may still change the meal\'s other fields')

    for (const user of [viewer, cousin]) t.equal((await deleteMeal(app, user, byEditor.id)).statusCode, 403, 'a view recipient cannot remove')
    t.equal((await deleteMeal(app, stranger, byEditor.id)).statusCode, 404)
    t.equal((await deleteMeal(app, relative, byEditor.id)).statusCode, 200, 'an edit recipient removes another\'s meal')
    t.equal((await getMeal(app, owner, byEditor.id)).statusCode, 404)
  })

  await t.test('revoking a share takes effect with the next request', async t => {
    const res = await app.inject({ method: 'DELETE', url: `/api/shared-meal-plans/${editorShare.id}`, headers: bearer(owner) })
    t.equal(res.statusCode, 200)
    t.equal((await postMeal(app, editor, { mealPlanId: plan.id, date: '2026-03-05', customTitle: 'Late' })).statusCode, 404)
    t.equal((await changeMeal(app, editor, byOwner.id, { notes: 'still here?' })).statusCode, 404)
    t.equal((await deleteMeal(app, editor, byOwner.id)).statusCode, 404)
    t.equal((await getMeal(app, editor, byOwner.id)).statusCode, 404)
    t.notOk(ids(await listMeals(app, editor)).includes(byOwner.id))
  })
})

t.test('listing: date ranges, the plan filter, order and pages', async t => {
  const app = await build(t)
  const [user, friend] = await Promise.all([registerUser(app), registerUser(app)])
  const calendar = []
  for (const [date, mealType] of [['2026-05-01', 'dinner'], ['2026-05-01', 'breakfast'], ['2026-05-03', 'lunch'], ['2026-06-15', 'snack']]) {
    calendar.push(await planMeal(app, user, { date, mealType, customTitle: `${date} ${mealType}` }))
  }
  const own = await createMealPlan(app, user, { startDate: '2026-05-01', endDate: '2026-05-07' })
  const inPlan = await planMeal(app, user, { mealPlanId: own.id, date: '2026-05-02', customTitle: 'Plan meal' })
  const theirs = await createMealPlan(app, friend, { startDate: '2026-05-01', endDate: '2026-05-07' })
  const shared = await planMeal(app, friend, { mealPlanId: theirs.id, date: '2026-05-01', mealType: 'lunch', customTitle: 'Shared meal' })
  const unshared = await planMeal(app, friend, { date: '2026-05-01', customTitle: 'Friend calendar' })
  await shareMealPlan(app, friend, theirs, [user], 'view')

  const all = json(await listMeals(app, user, '?from=2026-05-01&to=2026-05-31'))
  t.same(all.plannedMeals.map((m: { customTitle: string }) => m.customTitle), [
    '2026-05-01 breakfast', 'Shared meal', '2026-05-01 dinner', 'Plan meal', '2026-05-03 lunch'
  ], 'calendar, own plans and shared plans, by date then meal type')
  t.match(all.pagination, { total: 5, page: 1, limit: 12 })
  t.notOk(ids(await listMeals(app, user)).includes(unshared.id), 'never someone else\'s calendar')

  t.same(ids(await listMeals(app, user, '?from=2026-05-02&to=2026-05-03')), [inPlan.id, calendar[2].id], 'both ends inclusive')
  t.same(ids(await listMeals(app, user, `?mealPlanId=${theirs.id}`)), [shared.id], 'one plan')
  t.same(ids(await listMeals(app, user, `?mealPlanId=${own.id}&from=2026-05-03`)), [], 'one plan, in a range')
  t.same(ids(await listMeals(app, user, '?from=2026-06-01')), [calendar[3].id], 'from alone covers the next 366 days')
  t.same(ids(await listMeals(app, user, '?to=2026-05-01')), [calendar[1].id, shared.id, calendar[0].id], 'to alone covers the 366 days before')
  t.equal(json(await listMeals(app, user)).pagination.total, 6, 'no range: every date')

  const page2 = json(await listMeals(app, user, '?from=2026-05-01&to=2026-05-31&limit=2&page=2'))
  t.same(page2.plannedMeals.map((m: { id: string }) => m.id), [calendar[0].id, inPlan.id])
  t.match(page2.pagination, { total: 5, totalPages: 3, hasNext: true, hasPrev: true })

  expectValidationError(t, await listMeals(app, user, '?from=2026-05-10&to=2026-05-01'), 'to')
  expectValidationError(t, await listMeals(app, user, '?from=2026-01-01&to=2027-01-03'), 'to')
  t.equal((await listMeals(app, user, '?from=2026-01-01&to=2027-01-02')).statusCode, 200, '366 days is fine')
  expectValidationError(t, await listMeals(app, user, '?from=2026-02-30'), 'from')
  expectValidationError(t, await listMeals(app, user, '?to=May'), 'to')
  t.equal((await listMeals(app, user, '?mealPlanId=no-such-plan')).statusCode, 404, 'a plan you cannot see is 404')
})

t.test('a plan holds at most 1,000 planned meals, exactly under concurrent adds by its owner and editors', async t => {
  const app = await build(t)
  const [owner, editor] = await Promise.all([registerUser(app), registerUser(app)])
  const plan = await createMealPlan(app, owner, { startDate: '2026-01-01', endDate: '2026-12-31' })
  await shareMealPlan(app, owner, plan, [editor], 'edit')
  // 990 meals through the API, ten at a time, then 20 at once (half of them the editor's) race for the last 10 places.
  for (let batch = 0; batch < 99; batch++) {
    await Promise.all(Array.from({ length: 10 }, async (_, i) => await planMeal(app, owner, { mealPlanId: plan.id, date: '2026-02-01', customTitle: `M${batch}-${i}` })))
  }
  const racing = await Promise.all(Array.from({ length: 20 }, async (_, i) =>
    await postMeal(app, i % 2 === 0 ? owner : editor, { mealPlanId: plan.id, date: '2026-03-01', customTitle: `R${i}` })))
  t.equal(racing.filter(r => r.statusCode === 201).length, 10, 'exactly the free places are taken')
  const refused = racing.filter(r => r.statusCode === 403)
  t.equal(refused.length, 10)
  t.match(json(refused[0]), { error: 'This meal plan has as many planned meals as allowed', limit: 1000, used: 1000 })
  const detail = json(await app.inject({ url: `/api/mealplans/${plan.id}`, headers: bearer(editor) })).mealPlan
  t.equal(detail.plannedMealCount, 1000)
  t.equal(detail.plannedMeals.length, 1000, 'the plan answers all of them')
  t.equal((await postMeal(app, owner, { date: '2026-03-01', customTitle: 'My calendar is separate' })).statusCode, 201, 'the calendar has its own bound')
})

t.test('a calendar holds at most 10,000 entries', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  await planMeal(app, user, { date: '2026-01-01', customTitle: 'Through the API' })
  // Bulk fill: 9,998 more entries straight into the table (as many API calls would take minutes); the bound itself is
  // checked through the API below.
  await app.db`insert into planned_meals (id, user_id, date, meal_type, custom_title)
    select 'bulk' || g || ${user.id}, ${user.id}, date '2026-01-01' + (g % 365), 'dinner', 'Bulk ' || g from generate_series(1, 9998) g`
  t.equal((await postMeal(app, user, { date: '2026-01-02', customTitle: 'The last place' })).statusCode, 201)
  const full = await postMeal(app, user, { date: '2026-01-02', customTitle: 'One too many' })
  t.equal(full.statusCode, 403)
  t.match(json(full), { error: 'Your calendar has as many planned meals as allowed', limit: 10000, used: 10000 })
  const plan = await createMealPlan(app, user)
  t.equal((await postMeal(app, user, { mealPlanId: plan.id, date: '2026-03-03', customTitle: 'Plans are separate' })).statusCode, 201)
})
