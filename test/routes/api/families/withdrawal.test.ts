import t from 'tap'
import { bearer, build, createRecipe, json, registerUser } from '../../../helper.js'
import { createFamily, joinFamily } from '../../../helpers/families.js'
import { addPlannedMeal, createList, makeMealPlan, sharePlan } from '../../../helpers/grocery.js'

t.test('a member who leaves or is removed takes back what they shared with the family', async t => {
  const app = await build(t)
  const [owner, ann, bob] = await Promise.all(Array.from({ length: 3 }, async () => await registerUser(app)))
  const family = await createFamily(app, owner)
  await joinFamily(app, ann, family)
  await joinFamily(app, bob, family)

  const plan = await makeMealPlan(app, ann)
  await sharePlan(app, ann, plan, { familyId: family.id })
  const list = await createList(app, ann, { familyId: family.id })
  t.equal((await app.inject({ url: `/api/mealplans/${plan.id}`, headers: bearer(bob) })).statusCode, 200, 'bob sees ann\'s plan through the family')
  t.equal((await app.inject({ url: `/api/grocerylists/${list.id}`, headers: bearer(bob) })).statusCode, 200, 'and her list')

  t.equal((await app.inject({ method: 'POST', url: `/api/families/${family.id}/leave`, headers: bearer(ann) })).statusCode, 200)
  t.equal((await app.inject({ url: `/api/mealplans/${plan.id}`, headers: bearer(bob) })).statusCode, 404, 'her plan is no longer the family\'s')
  t.equal((await app.inject({ url: `/api/grocerylists/${list.id}`, headers: bearer(bob) })).statusCode, 404, 'nor her list')
  t.equal((await app.inject({ url: `/api/mealplans/${plan.id}`, headers: bearer(ann) })).statusCode, 200, 'ann keeps both')
  t.equal(json(await app.inject({ url: `/api/grocerylists/${list.id}`, headers: bearer(ann) })).groceryList.familyId, null)

  // Removed by an owner: the same.
  await joinFamily(app, ann, family)
  await sharePlan(app, ann, plan, { familyId: family.id })
  t.equal((await app.inject({ url: `/api/mealplans/${plan.id}`, headers: bearer(bob) })).statusCode, 200)
  t.equal((await app.inject({ method: 'DELETE', url: `/api/families/${family.id}/members/${ann.id}`, headers: bearer(owner) })).statusCode, 200)
  t.equal((await app.inject({ url: `/api/mealplans/${plan.id}`, headers: bearer(bob) })).statusCode, 404)
})

t.test('from-mealplan: a range counts its upper end, a recipe planned twice counts twice', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const recipe = await createRecipe(app, ann, { servings: 2, ingredients: ['2-3 cloves garlic', '1 cup flour'] })
  const plan = await makeMealPlan(app, ann)
  await addPlannedMeal(app, ann, plan, { recipeId: recipe.id, servings: 2, date: '2026-03-02' })
  await addPlannedMeal(app, ann, plan, { recipeId: recipe.id, servings: 4, date: '2026-03-03' })
  const res = await app.inject({ method: 'POST', url: '/api/grocerylists/from-mealplan', headers: bearer(ann), payload: { mealPlanId: plan.id } })
  t.equal(res.statusCode, 201)
  const items: Array<{ name: string, quantity: number, unit: string }> = json(res).groceryList.items
  const garlic = items.find(item => /garlic/.test(item.name))
  const flour = items.find(item => /flour/.test(item.name))
  t.equal(garlic?.quantity, 9, '3 cloves (the upper end) x (2/2 + 4/2)')
  t.equal(flour?.quantity, 3, '1 cup x 3')
  t.equal(flour?.unit, 'cup')
})
