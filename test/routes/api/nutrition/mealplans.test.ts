// GET /api/nutrition/mealplans/:mealPlanId: per day and in total, planned servings, custom meals, recipes the caller
// can no longer see, and who may read a plan at all.
import t from 'tap'
import { bearer, build, createRecipe, json, patchRecipe, registerUser } from '../../../helper.js'
import { addMeal, getNutrition, newMealPlan, sharePlan } from '../../../helpers/nutrition.js'

t.test('a meal plan\'s nutrition per day', async t => {
  const app = await build(t)
  const owner = await registerUser(app)
  const chef = await registerUser(app)
  const friend = await registerUser(app)
  const stranger = await registerUser(app)

  // 774 kcal in all, 4 servings: 193.5 kcal a serving.
  const sugar = await createRecipe(app, chef, { title: 'Sugar syrup', servings: 4, ingredients: ['1 cup sugar'] })
  // No servings: one serving is the whole recipe (364 kcal).
  const flour = await createRecipe(app, chef, { title: 'Flour', ingredients: ['100 g all-purpose flour'] })
  // The chef makes this one private after it is planned: the owner can no longer see it.
  const later = await createRecipe(app, chef, { title: 'Soon private', servings: 1, ingredients: ['1 cup sugar'] })
  // The owner's own private recipe: counted for the owner, not visible to those the plan is shared with.
  const own = await createRecipe(app, owner, { title: 'Own butter', visibility: 'private', servings: 1, ingredients: ['1 tbsp butter'] })

  const plan = await newMealPlan(app, owner, { name: 'Three days', startDate: '2026-03-02', endDate: '2026-03-04' })
  const dinner = await addMeal(app, owner, plan, { date: '2026-03-02', mealType: 'dinner', recipeId: sugar.id, servings: 2 })
  const breakfast = await addMeal(app, owner, plan, { date: '2026-03-02', mealType: 'breakfast', recipeId: sugar.id })
  const snack = await addMeal(app, owner, plan, { date: '2026-03-02', mealType: 'snack', recipeId: flour.id, servings: 2 })
  const leftovers = await addMeal(app, owner, plan, { date: '2026-03-03', mealType: 'lunch', customTitle: 'Leftovers' })
  const hidden = await addMeal(app, owner, plan, { date: '2026-03-03', mealType: 'dinner', recipeId: later.id, servings: 3 })
  const butter = await addMeal(app, owner, plan, { date: '2026-03-03', mealType: 'breakfast', recipeId: own.id })
  await patchRecipe(app, chef, later.id, { visibility: 'private' })

  const res = await getNutrition(app, `/api/nutrition/mealplans/${plan.id}`, owner)
  t.equal(res.statusCode, 200)
  const { nutrition } = json(res)
  t.match(nutrition, { mealPlanId: plan.id, name: 'Three days', startDate: '2026-03-02', endDate: '2026-03-04' })
  t.same(nutrition.days.map((d: { date: string }) => d.date), ['2026-03-02', '2026-03-03', '2026-03-04'], 'every date of the plan')

  const [first, second, third] = nutrition.days
  t.same(first.meals.map((m: { plannedMealId: string }) => m.plannedMealId), [breakfast.id, dinner.id, snack.id], 'by meal type')
  t.same(first.meals[0], {
    plannedMealId: breakfast.id,
    mealType: 'breakfast',
    recipeId: sugar.id,
    title: 'Sugar syrup',
    servings: null,
    status: 'counted',
    nutrients: { calories: 194, protein: 0, fat: 0, saturatedFat: 0, carbohydrates: 50, fiber: 0, sugars: 49.9, sodium: 1, cholesterol: 0 }
  }, 'no planned servings: one serving of four')
  t.equal(first.meals[1].nutrients.calories, 387, 'two servings of four: half the recipe')
  t.equal(first.meals[2].nutrients.calories, 728, 'two servings of a recipe without servings: twice the recipe')
  t.equal(first.total.calories, 1309, '193.5 + 387 + 728')

  t.same(second.meals.map((m: { status: string }) => m.status), ['counted', 'custom', 'not-visible'])
  t.match(second.meals[1], { plannedMealId: leftovers.id, recipeId: null, title: 'Leftovers', status: 'custom', nutrients: null })
  t.match(second.meals[2], { plannedMealId: hidden.id, recipeId: later.id, title: null, status: 'not-visible', nutrients: null })
  t.notOk(JSON.stringify(nutrition).includes('Soon private'), 'nothing of a recipe the caller may not see')
  t.equal(second.meals[0].plannedMealId, butter.id)
  t.equal(second.total.calories, 102, 'only the counted meal: 1 tbsp butter')

  t.same(third.meals, [])
  t.same(third.total, { calories: 0, protein: 0, fat: 0, saturatedFat: 0, carbohydrates: 0, fiber: 0, sugars: 0, sodium: 0, cholesterol: 0 }, 'a day without meals is zero')
  t.ok(Math.abs(nutrition.total.calories - (first.total.calories + second.total.calories)) <= 1, 'the plan total sums the days (unrounded)')
  t.equal(nutrition.total.calories, 1410)
  t.same(nutrition.meals, { planned: 6, counted: 4, custom: 1, notVisible: 1 })

  t.test('who may read the plan', async t => {
    t.equal((await getNutrition(app, `/api/nutrition/mealplans/${plan.id}`)).statusCode, 401, 'sign-in required')
    const other = await getNutrition(app, `/api/nutrition/mealplans/${plan.id}`, stranger)
    t.equal(other.statusCode, 404, 'a plan not shared with you does not exist for you')
    t.same(json(other), { error: 'Meal plan not found' })
    t.equal((await getNutrition(app, '/api/nutrition/mealplans/does-not-exist', owner)).statusCode, 404)
    t.equal((await app.inject({ url: `/api/nutrition/mealplans/${'x'.repeat(65)}`, headers: bearer(owner) })).statusCode, 404)

    await sharePlan(app, owner, plan, [friend], 'view')
    const shared = await getNutrition(app, `/api/nutrition/mealplans/${plan.id}`, friend)
    t.equal(shared.statusCode, 200, 'a recipient reads it')
    const seen = json(shared).nutrition
    t.same(seen.meals, { planned: 6, counted: 3, custom: 1, notVisible: 2 }, 'the owner\'s private recipe is not counted for the recipient')
    t.match(seen.days[1].meals[0], { plannedMealId: butter.id, status: 'not-visible', title: null, nutrients: null })
    t.notOk(JSON.stringify(seen).includes('Own butter'))
    t.equal(seen.days[1].total.calories, 0)
    t.equal(seen.total.calories, 1309)
    t.equal((await getNutrition(app, `/api/nutrition/mealplans/${plan.id}`, stranger)).statusCode, 404, 'still not for others')
  })
})
