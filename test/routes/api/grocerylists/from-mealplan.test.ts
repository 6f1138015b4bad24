import t from 'tap'
import { build, createRecipe, json, patchRecipe, registerUser } from '../../../helper.js'
import { addPlannedMeal, getList, groceryRequest as as, makeFamily, makeMealPlan, sharePlan } from '../../../helpers/grocery.js'

type Item = { name: string, quantity: number | null, unit: string | null, category: string, checked: boolean, note: string | null }
/** "name|quantity|unit" per item, for compact comparisons. */
const summary = (items: Item[]) => items.map(i => `${i.name}|${i.quantity ?? ''}|${i.unit ?? ''}`)

t.test('from a meal plan: merged, scaled, grouped by aisle', async t => {
  const app = await build(t)
  const [owner, friend, stranger] = await Promise.all([registerUser(app), registerUser(app), registerUser(app)])

  const pancakes = await createRecipe(app, owner, {
    title: 'Pancakes',
    servings: 4,
    ingredients: ['1 cup flour', '2 eggs', '1 cup milk', '1 tbsp sugar', 'salt to taste', '2 cloves garlic']
  })
  const cake = await createRecipe(app, owner, {
    title: 'Cake',
    servings: 8,
    ingredients: ['1/2 cup flour', '3 eggs', '200 g sugar', '1 tbsp milk', 'Salt to taste', '1 cup berries', 'For the topping:', '1/2 cup berries']
  })
  const salad = await createRecipe(app, owner, { title: 'Salad', ingredients: ['3 tomatoes', '1 tomato', '1 tbsp olive oil'] })
  const theirs = await createRecipe(app, stranger, { title: 'Theirs', ingredients: ['1 kg secret beef'] })
  const mine = await createRecipe(app, owner, { title: 'Private', visibility: 'private', ingredients: ['1 lb private potatoes'] })

  const plan = await makeMealPlan(app, owner, 'Spring week')
  await addPlannedMeal(app, owner, plan, { recipeId: pancakes.id, servings: 8 }) // x2
  await addPlannedMeal(app, owner, plan, { recipeId: cake.id }) // no planned servings: x1
  await addPlannedMeal(app, owner, plan, { recipeId: salad.id, servings: 3 }) // no recipe servings: x1
  await addPlannedMeal(app, owner, plan, { customTitle: 'Dinner out' }) // nothing
  await addPlannedMeal(app, owner, plan, { recipeId: theirs.id })
  await addPlannedMeal(app, owner, plan, { recipeId: mine.id })
  await patchRecipe(app, stranger, theirs.id, { visibility: 'private' }) // no longer visible to anyone but its author

  const res = await as(app, owner, 'POST', '/api/grocerylists/from-mealplan', { mealPlanId: plan.id })
  t.equal(res.statusCode, 201)
  const list = json(res).groceryList
  t.match(list, { name: 'Groceries: Spring week', mealPlanId: plan.id, userId: owner.id, familyId: null, checkedCount: 0 })
  t.same(summary(list.items), [
    'berries|1.5|cup', // 1 cup + 1/2 cup, across groups
    'garlic|4|clove', // 2 cloves x2
    'private potatoes|1|lb', // the owner's own private recipe counts
    'tomatoes|4|', // tomatoes + tomato
    'eggs|7|', // 2 x2 + 3
    'milk|2.06|cup', // 1 cup x2 + 1 tbsp
    'flour|2.5|cup', // 1 cup x2 + 1/2 cup
    'olive oil|1|tbsp',
    'sugar|200|g', // mass stays apart from volume
    'sugar|2|tbsp', // 1 tbsp x2: volume
    'salt||' // "salt to taste" and "Salt to taste": one line, the phrase as its note
  ], 'merged across recipes, scaled by servings, in aisle order')
  t.equal(list.items.at(-1).note, 'to taste')
  t.same(list.items.map((i: Item) => i.category), ['produce', 'produce', 'produce', 'produce', 'dairy', 'dairy', 'pantry', 'pantry', 'pantry', 'pantry', 'spices'])
  t.notOk(list.items.some((i: Item) => /beef/.test(i.name)), 'a recipe the caller can no longer see contributes nothing')
  t.same(await getList(app, owner, list), list, 'stored as answered')

  const metric = json(await as(app, owner, 'POST', '/api/grocerylists/from-mealplan', { mealPlanId: plan.id, units: 'metric' })).groceryList
  t.same(summary(metric.items).filter(line => /^(flour|milk|sugar|private potatoes)\|/.test(line)), [
    'private potatoes|454|g', 'milk|488|ml', 'flour|591|ml', 'sugar|200|g', 'sugar|29.6|ml'
  ], 'the unit system asked for')
  const wrong = await as(app, owner, 'POST', '/api/grocerylists/from-mealplan', { mealPlanId: plan.id, units: 'cubits' })
  t.equal(wrong.statusCode, 400)

  const named = await as(app, owner, 'POST', '/api/grocerylists/from-mealplan', { mealPlanId: plan.id, name: ' My shop ' })
  t.equal(json(named).groceryList.name, 'My shop')

  await t.test('who may gather a plan', async t => {
    t.equal((await as(app, stranger, 'POST', '/api/grocerylists/from-mealplan', { mealPlanId: plan.id })).statusCode, 404, 'strangers: 404')
    const unknown = await as(app, owner, 'POST', '/api/grocerylists/from-mealplan', { mealPlanId: 'no-such-plan' })
    t.equal(unknown.statusCode, 404)
    t.equal(json(unknown).error, 'Meal plan not found')

    await sharePlan(app, owner, plan, { userId: friend.id })
    const shared = await as(app, friend, 'POST', '/api/grocerylists/from-mealplan', { mealPlanId: plan.id })
    t.equal(shared.statusCode, 201, 'a user the plan is shared with may')
    const theirList = json(shared).groceryList
    t.match(theirList, { userId: friend.id, isOwner: true, mealPlanId: plan.id }, 'the list is theirs')
    t.notOk(theirList.items.some((i: Item) => i.name === 'private potatoes'), 'with only the recipes they can see')
    t.equal(theirList.items.length, list.items.length - 1)

    const member = await registerUser(app)
    const family = await makeFamily(app, owner, [member])
    t.equal((await as(app, member, 'POST', '/api/grocerylists/from-mealplan', { mealPlanId: plan.id })).statusCode, 404, 'not shared with their family yet')
    await sharePlan(app, owner, plan, { familyId: family.id })
    t.equal((await as(app, member, 'POST', '/api/grocerylists/from-mealplan', { mealPlanId: plan.id })).statusCode, 201, 'members of a family it is shared with may')

    const forFamily = await as(app, owner, 'POST', '/api/grocerylists/from-mealplan', { mealPlanId: plan.id, familyId: family.id })
    t.equal(json(forFamily).groceryList.familyId, family.id, 'and the new list can be shared with a family at once')
    t.equal((await as(app, member, 'GET', `/api/grocerylists/${json(forFamily).groceryList.id}`)).statusCode, 200)
  })
})

t.test('from a meal plan: empty plans and bounds', async t => {
  const app = await build(t)
  const owner = await registerUser(app)
  const empty = await makeMealPlan(app, owner, 'Nothing planned')
  await addPlannedMeal(app, owner, empty, { customTitle: 'Leftovers' })
  const res = await as(app, owner, 'POST', '/api/grocerylists/from-mealplan', { mealPlanId: empty.id })
  t.equal(res.statusCode, 201, 'a plan with no recipes gives an empty list')
  t.match(json(res).groceryList, { itemCount: 0, items: [] })

  const longName = await makeMealPlan(app, owner, 'p'.repeat(100))
  const long = json(await as(app, owner, 'POST', '/api/grocerylists/from-mealplan', { mealPlanId: longName.id })).groceryList
  t.equal(long.name.length, 100, 'the default name is cut to the list name bound')

  t.equal((await as(app, owner, 'POST', '/api/grocerylists/from-mealplan', {})).statusCode, 400, 'mealPlanId is required')
  t.equal((await as(app, owner, 'POST', '/api/grocerylists/from-mealplan', { mealPlanId: empty.id, name: 'n'.repeat(101) })).statusCode, 400)

  // More distinct ingredients than a list holds: refused, nothing created.
  const big = await createRecipe(app, owner, { title: 'Huge', ingredients: Array.from({ length: 200 }, (_, i) => `1 cup thing${i}a`) })
  const big2 = await createRecipe(app, owner, { title: 'Huge 2', ingredients: Array.from({ length: 200 }, (_, i) => `1 cup thing${i}b`) })
  const big3 = await createRecipe(app, owner, { title: 'Huge 3', ingredients: Array.from({ length: 200 }, (_, i) => `1 cup thing${i}c`) })
  const huge = await makeMealPlan(app, owner, 'Huge')
  for (const recipe of [big, big2, big3]) await addPlannedMeal(app, owner, huge, { recipeId: recipe.id })
  const before = json(await as(app, owner, 'GET', '/api/grocerylists')).pagination.total
  const refused = await as(app, owner, 'POST', '/api/grocerylists/from-mealplan', { mealPlanId: huge.id })
  t.equal(refused.statusCode, 403)
  t.match(json(refused), { error: 'This grocery list has as many items as allowed', limit: 500, used: 600 })
  t.equal(json(await as(app, owner, 'GET', '/api/grocerylists')).pagination.total, before, 'no list was created')
})

t.test('each gathered line names the recipes it came from, as the reader may see them now', async t => {
  const app = await build(t)
  const [owner, member] = await Promise.all([registerUser(app), registerUser(app)])
  const pancakes = await createRecipe(app, owner, { title: 'Pancakes', ingredients: ['1 cup flour', '2 eggs'] })
  const cake = await createRecipe(app, owner, { title: 'Cake', ingredients: ['2 cups flour', 'pinch of salt'] })
  const secret = await createRecipe(app, owner, { title: 'Secret stew', visibility: 'private', ingredients: ['1 lb potatoes', 'salt to taste'] })
  const plan = await makeMealPlan(app, owner, 'Week')
  await addPlannedMeal(app, owner, plan, { recipeId: pancakes.id })
  await addPlannedMeal(app, owner, plan, { recipeId: cake.id })
  await addPlannedMeal(app, owner, plan, { recipeId: pancakes.id }) // planned twice: named once
  await addPlannedMeal(app, owner, plan, { recipeId: secret.id })
  const family = await makeFamily(app, owner, [member])
  const list = json(await as(app, owner, 'POST', '/api/grocerylists/from-mealplan', { mealPlanId: plan.id, familyId: family.id })).groceryList

  type Line = Item & { id: string, recipes: Array<{ id: string, title: string, slug: string }> }
  const sources = (items: Line[]) => Object.fromEntries(items.map(i => [i.name, i.recipes.map(r => r.title)]))
  t.same(sources(list.items), {
    potatoes: ['Secret stew'], eggs: ['Pancakes'], flour: ['Pancakes', 'Cake'], salt: ['Cake', 'Secret stew']
  }, 'the owner sees every recipe behind each line, in plan order')
  t.same(list.items.find((i: Line) => i.name === 'flour').recipes[0], { id: pancakes.id, title: 'Pancakes', slug: pancakes.slug })

  const asMember = json(await as(app, member, 'GET', `/api/grocerylists/${list.id}`)).groceryList
  t.same(sources(asMember.items), { potatoes: [], eggs: ['Pancakes'], flour: ['Pancakes', 'Cake'], salt: ['Cake'] },
    'a family member never learns the title of a recipe they may not see')

  const added = await as(app, owner, 'POST', `/api/grocerylists/${list.id}/items`, { name: 'Coffee' })
  t.same(json(added).item.recipes, [], 'a line added by hand comes from no recipe')
  const flour = list.items.find((i: Line) => i.name === 'flour')
  const checked = await as(app, member, 'PATCH', `/api/grocerylists/${list.id}/items/${flour.id}`, { checked: true })
  t.same(json(checked).item.recipes.map((r: { title: string }) => r.title), ['Pancakes', 'Cake'], 'a changed item answers with its recipes')

  t.equal((await as(app, owner, 'DELETE', `/api/recipes/${cake.id}`)).statusCode, 200)
  const after = json(await as(app, owner, 'GET', `/api/grocerylists/${list.id}`)).groceryList
  t.same(sources(after.items).flour, ['Pancakes'], 'a deleted recipe drops out of the lines it fed')
  t.same(sources(after.items).salt, ['Secret stew'])
  for (const viewer of [owner, member]) {
    t.same(json(await as(app, viewer, 'GET', `/api/grocerylists/${list.id}`)).groceryList, await app.groceryListService.get(list.id, viewer.id),
      'the page (JSON PostgreSQL writes) answers what the service maps from rows, recipes included')
  }
})
