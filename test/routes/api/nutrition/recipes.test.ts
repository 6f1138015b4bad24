// GET /api/nutrition/recipes/:recipeId: computed figures, the author's first, per serving, visibility.
import t from 'tap'
import { befriend, bearer, build, createRecipe, follow, json, patchRecipe, registerUser } from '../../../helper.js'
import { getNutrition } from '../../../helpers/nutrition.js'

const INGREDIENTS = ['2 cups all-purpose flour', '3 large eggs', '1 tbsp olive oil', 'salt to taste', '1 cup flibbertigibbet']
const near = (actual: unknown, expected: number, tolerance: number) => typeof actual === 'number' && Math.abs(actual - expected) <= tolerance

t.test('a recipe\'s nutrition per serving and in total', async t => {
  const app = await build(t)
  const chef = await registerUser(app)
  const recipe = await createRecipe(app, chef, { title: 'Flatbread', servings: 4, ingredients: INGREDIENTS })

  const res = await getNutrition(app, `/api/nutrition/recipes/${recipe.id}`)
  t.equal(res.statusCode, 200, 'anonymous callers read public recipes')
  const { nutrition } = json(res)
  t.equal(nutrition.recipeId, recipe.id)
  t.equal(nutrition.title, 'Flatbread')
  t.equal(nutrition.servings, 4)
  t.equal(nutrition.perServingIsWholeRecipe, false)
  // 910 (flour) + 214.5 (eggs) + 119.3 (oil) kcal
  t.ok(near(nutrition.total.calories, 1244, 3), `total ${nutrition.total.calories} kcal`)
  t.ok(near(nutrition.perServing.calories, nutrition.total.calories / 4, 1), `per serving ${nutrition.perServing.calories} kcal`)
  t.ok(near(nutrition.total.protein, 44.7, 0.5), `protein ${nutrition.total.protein} g`)
  t.ok(near(nutrition.total.cholesterol, 558, 2), `cholesterol ${nutrition.total.cholesterol} mg`)
  t.equal(Object.keys(nutrition.total).length, 9, 'nine nutrients')
  t.ok(Object.values(nutrition.sources).every(s => s === 'ingredients'), 'all computed')
  t.same(nutrition.coverage, { lines: 5, matched: 4, converted: 3 })
  t.same(nutrition.ingredients.map((i: { status: string }) => i.status), ['ok', 'ok', 'ok', 'no-quantity', 'unmatched'])
  t.same(nutrition.ingredients[0], {
    text: '2 cups all-purpose flour',
    matched: { foodId: '20081', description: 'Wheat flour, white, all-purpose, enriched, bleached' },
    grams: 250,
    status: 'ok'
  })
  t.same(nutrition.ingredients[4], { text: '1 cup flibbertigibbet', matched: null, grams: null, status: 'unmatched' })

  // Signed in, and with a token that fails the check (treated as anonymous), the same answer.
  t.same(json(await getNutrition(app, `/api/nutrition/recipes/${recipe.id}`, chef)).nutrition, nutrition)
  const garbled = await app.inject({ url: `/api/nutrition/recipes/${recipe.id}`, headers: { authorization: 'Bearer nope' } })
  t.equal(garbled.statusCode, 200)

  t.test('an edit is reflected at once', async t => {
    await patchRecipe(app, chef, recipe.id, { ingredients: ['1 cup sugar'], servings: 2 })
    const after = json(await getNutrition(app, `/api/nutrition/recipes/${recipe.id}`)).nutrition
    t.equal(after.total.calories, 774)
    t.equal(after.perServing.calories, 387)
    t.same(after.coverage, { lines: 1, matched: 1, converted: 1 })
  })
})

t.test('the author\'s figures take precedence, nutrient by nutrient', async t => {
  const app = await build(t)
  const chef = await registerUser(app)
  const recipe = await createRecipe(app, chef, {
    servings: 2,
    ingredients: INGREDIENTS,
    nutrition: { calories: '500 kcal', fatContent: '20 g', sodium: 300, servingSize: '1 piece' }
  })
  const { nutrition } = json(await getNutrition(app, `/api/nutrition/recipes/${recipe.id}`))
  t.equal(nutrition.perServing.calories, 500)
  t.equal(nutrition.total.calories, 1000, 'the author\'s figures are per serving')
  t.equal(nutrition.perServing.fat, 20)
  t.equal(nutrition.perServing.sodium, 300)
  t.same(nutrition.sources, {
    calories: 'author',
    protein: 'ingredients',
    fat: 'author',
    saturatedFat: 'ingredients',
    carbohydrates: 'ingredients',
    fiber: 'ingredients',
    sugars: 'ingredients',
    sodium: 'author',
    cholesterol: 'ingredients'
  })
  t.ok(near(nutrition.perServing.protein, 22.3, 0.3), 'the rest still computed, per serving')
})

t.test('without servings, a serving is the whole recipe; nothing weighed is unknown', async t => {
  const app = await build(t)
  const chef = await registerUser(app)
  const whole = await createRecipe(app, chef, { ingredients: ['200 g sugar'] })
  const { nutrition } = json(await getNutrition(app, `/api/nutrition/recipes/${whole.id}`))
  t.equal(nutrition.servings, null)
  t.equal(nutrition.perServingIsWholeRecipe, true)
  t.same(nutrition.perServing, nutrition.total)
  t.equal(nutrition.total.calories, 774)

  const vague = await createRecipe(app, chef, { ingredients: ['salt to taste', 'a handful of flibbertigibbets'], servings: 3 })
  const unknown = json(await getNutrition(app, `/api/nutrition/recipes/${vague.id}`)).nutrition
  t.equal(unknown.total.calories, null, 'unknown, not zero')
  t.equal(unknown.sources.calories, null)
  t.same(unknown.coverage, { lines: 2, matched: 1, converted: 0 })
})

t.test('visibility: a recipe the caller may not see is 404', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const friend = await registerUser(app)
  const follower = await registerUser(app)
  const stranger = await registerUser(app)
  await befriend(app, author, friend)
  await follow(app, follower, author)
  const privateRecipe = await createRecipe(app, author, { visibility: 'private', ingredients: ['1 cup sugar'] })
  const friendsRecipe = await createRecipe(app, author, { visibility: 'friends', ingredients: ['1 cup sugar'] })
  const draft = await createRecipe(app, author, { published: false, ingredients: ['1 cup sugar'] })

  const status = async (recipe: Record<string, any>, user: Parameters<typeof getNutrition>[2]) =>
    (await getNutrition(app, `/api/nutrition/recipes/${recipe.id}`, user)).statusCode
  for (const recipe of [privateRecipe, friendsRecipe, draft]) {
    t.equal(await status(recipe, author), 200, 'the author sees their own')
    t.equal(await status(recipe, null), 404, 'anonymous')
    t.equal(await status(recipe, stranger), 404, 'a stranger')
  }
  t.equal(await status(friendsRecipe, friend), 200, 'a friend sees a friends recipe')
  t.equal(await status(friendsRecipe, follower), 404, 'a one-way follower does not')
  t.equal(await status(privateRecipe, friend), 404)
  const hidden = await getNutrition(app, `/api/nutrition/recipes/${privateRecipe.id}`, stranger)
  t.same(json(hidden), { error: 'Recipe not found' })

  for (const id of ['does-not-exist', '%27%20or%201=1--', 'x'.repeat(65)]) {
    const res = await app.inject({ url: `/api/nutrition/recipes/${id}`, headers: bearer(author) })
    t.equal(res.statusCode, 404, `unknown or malformed id ${id.slice(0, 20)}`)
    t.ok(json(res).error)
  }
})
