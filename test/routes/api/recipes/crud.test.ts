import t from 'tap'
import { bearer, build, createRecipe, expectValidationError, json, registerUser } from '../../../helper.js'

t.test('create and read', async t => {
  const app = await build(t)
  const chef = await registerUser(app)

  const res = await app.inject({
    method: 'POST',
    url: '/api/recipes',
    headers: bearer(chef),
    payload: {
      title: 'Crème Brûlée',
      description: 'Custard with a burnt sugar top',
      type: 'food',
      difficulty: 'hard',
      cuisine: 'French',
      prepTime: 20,
      cookTime: 45,
      servings: 4,
      ingredients: ['1 1/2 cups heavy cream', '½ tsp vanilla extract', 'For the topping:', '2 tbsp sugar, superfine', { name: 'egg yolks', quantity: 4 }],
      instructions: ['Heat the cream.', { text: 'Whisk in the yolks.' }, { step: 9, text: 'Bake in a water bath.' }],
      tags: ['Dessert', 'dessert', { name: 'French' }],
      nutrition: { calories: 420 },
      sourceUrl: 'https://example.com/creme',
      // Server-owned: ignored.
      authorId: 'someone-else',
      likeCount: 1000,
      moderationStatus: 'approved',
      slug: 'chosen',
      ratingCount: 9,
      id: 'chosen-id'
    }
  })
  t.equal(res.statusCode, 201)
  const recipe = json(res).recipe
  t.equal(recipe.title, 'Crème Brûlée')
  t.equal(recipe.slug, 'creme-brulee', 'transliterated slug; a body slug is ignored')
  t.not(recipe.id, 'chosen-id')
  t.equal(recipe.author.id, chef.id)
  t.equal(recipe.author.username, chef.username)
  t.equal(recipe.likeCount, 0)
  t.equal(recipe.ratingCount, 0)
  t.equal(recipe.averageRating, 0)
  t.equal(recipe.totalTime, 65, 'total derived from prep + cook')
  t.same(recipe.tags.map((tag: { slug: string }) => tag.slug), ['dessert', 'french'], 'tags de-duplicated by slug')
  t.match(recipe.ingredients[0], { text: '1 1/2 cups heavy cream', name: 'heavy cream', quantity: 1.5, unit: 'cup', group: null })
  t.match(recipe.ingredients[1], { text: '½ tsp vanilla extract', quantity: 0.5, unit: 'teaspoon' })
  t.match(recipe.ingredients[2], { text: '2 tbsp sugar, superfine', name: 'sugar', note: 'superfine', group: 'topping' })
  t.match(recipe.ingredients[3], { name: 'egg yolks', quantity: 4, text: '4 egg yolks' })
  t.same(recipe.instructions.map((i: { step: number }) => i.step), [1, 2, 3], 'steps renumbered')
  t.same(recipe.nutrition, { calories: 420 })
  t.equal(recipe.isLiked, false)
  t.equal(recipe.userRating, null)

  const byId = await app.inject(`/api/recipes/${recipe.id}`)
  t.equal(byId.statusCode, 200)
  t.same(json(byId).recipe, { ...recipe }, 'anonymous detail is the same recipe')
  // Unknown or malformed ids in a path are all 404 with an error body (decisions.md section 1).
  for (const url of ['/api/recipes/does-not-exist', '/api/recipes/%27%20or%201=1--', `/api/recipes/${'x'.repeat(65)}`, `/api/recipes/${'x'.repeat(600)}`]) {
    const missing = await app.inject(url)
    t.equal(missing.statusCode, 404, url.slice(0, 40))
    t.type(json(missing).error, 'string')
  }
  t.same(json(await app.inject('/api/recipes/does-not-exist')), { error: 'Recipe not found' })
  t.equal((await app.inject({ method: 'POST', url: '/api/recipes', payload: { title: 'x', ingredients: [] } })).statusCode, 401)
})

t.test('bad input', async t => {
  const app = await build(t)
  const chef = await registerUser(app)
  const post = async (payload: Record<string, unknown>) => await app.inject({ method: 'POST', url: '/api/recipes', headers: bearer(chef), payload })
  const base = { title: 'Soup', ingredients: ['water'] }
  expectValidationError(t, await post({ ...base, title: 'x'.repeat(201) }), 'title')
  t.equal((await post({ ...base, title: 'x'.repeat(200) })).statusCode, 201, '200 characters is fine')
  expectValidationError(t, await post({ ...base, title: '   ' }), 'title')
  expectValidationError(t, await post({ ...base, tags: Array.from({ length: 21 }, (_, i) => `tag${i}`) }), 'tags')
  expectValidationError(t, await post({ ...base, tags: ['x'.repeat(51)] }), 'tags[0]')
  expectValidationError(t, await post({ ...base, ingredients: 'flour' }), 'ingredients')
  expectValidationError(t, await post({ title: 'Soup' }), 'ingredients')
  expectValidationError(t, await post({ ...base, type: 'snack' }), 'type')
  expectValidationError(t, await post({ ...base, difficulty: 'insane' }), 'difficulty')
  expectValidationError(t, await post({ ...base, visibility: 'everyone' }), 'visibility')
  expectValidationError(t, await post({ ...base, prepTime: -5 }), 'prepTime')
  expectValidationError(t, await post({ ...base, title: 'Nul\u0000byte' }), 'title')
  const xss = await post({ ...base, title: 'Pie <script>alert(1)</script>', description: 'salt & pepper, a < b' })
  t.equal(json(xss).recipe.title, 'Pie', 'script removed, title trimmed')
  t.equal(json(xss).recipe.description, 'salt & pepper, a < b')
})

t.test('update and delete: author only', async t => {
  const app = await build(t)
  const chef = await registerUser(app)
  const other = await registerUser(app)
  const recipe = await createRecipe(app, chef, { title: 'Bread', tags: ['baking', 'vegan'] })
  const priv = await createRecipe(app, chef, { title: 'Secret', visibility: 'private' })

  const patch = await app.inject({ method: 'PATCH', url: `/api/recipes/${recipe.id}`, headers: bearer(chef), payload: { description: 'Crusty', tags: ['baking', 'sourdough'], likeCount: 50 } })
  t.equal(patch.statusCode, 200)
  const patched = json(patch).recipe
  t.equal(patched.description, 'Crusty')
  t.equal(patched.title, 'Bread', 'untouched fields stay')
  t.same(patched.tags.map((x: { slug: string }) => x.slug), ['baking', 'sourdough'], 'tags replaced')
  t.equal(patched.likeCount, 0)
  t.equal(patched.slug, 'bread', 'slug stays stable')

  const put = await app.inject({ method: 'PUT', url: `/api/recipes/${recipe.id}`, headers: bearer(chef), payload: { title: 'Rye bread', ingredients: ['rye flour'] } })
  t.equal(put.statusCode, 200)
  t.equal(json(put).recipe.title, 'Rye bread')
  expectValidationError(t, await app.inject({ method: 'PUT', url: `/api/recipes/${recipe.id}`, headers: bearer(chef), payload: { title: 'No ingredients' } }), 'ingredients')

  const foreign = await app.inject({ method: 'PATCH', url: `/api/recipes/${recipe.id}`, headers: bearer(other), payload: { title: 'Hijacked' } })
  t.equal(foreign.statusCode, 403, 'visible but not theirs')
  t.equal((await app.inject({ method: 'PATCH', url: `/api/recipes/${priv.id}`, headers: bearer(other), payload: { title: 'x' } })).statusCode, 404, 'not visible: 404')
  t.equal((await app.inject({ method: 'DELETE', url: `/api/recipes/${recipe.id}`, headers: bearer(other) })).statusCode, 403)
  t.equal((await app.inject({ method: 'DELETE', url: `/api/recipes/${priv.id}`, headers: bearer(other) })).statusCode, 404)
  t.equal(json(await app.inject(`/api/recipes/${recipe.id}`)).recipe.title, 'Rye bread', 'unchanged by the others')

  const del = await app.inject({ method: 'DELETE', url: `/api/recipes/${recipe.id}`, headers: bearer(chef) })
  t.equal(del.statusCode, 200)
  t.same(json(del), { message: 'Recipe deleted' })
  t.equal((await app.inject(`/api/recipes/${recipe.id}`)).statusCode, 404)
})

t.test('slugs are unique per author, also under concurrency', async t => {
  const app = await build(t)
  const chef = await registerUser(app)
  const other = await registerUser(app)
  const results = await Promise.all(Array.from({ length: 20 }, () =>
    app.inject({ method: 'POST', url: '/api/recipes', headers: bearer(chef), payload: { title: 'Banana Bread!', ingredients: ['bananas'] } })))
  t.same(results.map(r => r.statusCode), Array(20).fill(201), 'no 500 under concurrency')
  const slugs = results.map(r => json(r).recipe.slug).sort()
  t.equal(new Set(slugs).size, 20, '20 distinct slugs')
  t.ok(slugs.includes('banana-bread') && slugs.includes('banana-bread-1') && slugs.includes('banana-bread-19'))
  t.equal((await createRecipe(app, other, { title: 'Banana Bread!' })).slug, 'banana-bread', 'another author may reuse it')
  t.equal((await createRecipe(app, chef, { title: '麻婆豆腐' })).slug, '麻婆豆腐', 'other scripts are kept in slugs')
  t.equal((await createRecipe(app, chef, { title: '!!!' })).slug, 'recipe', 'a title with no letters still gets a slug')
})

t.test('concurrent creates sharing tags neither deadlock nor collide', async t => {
  const app = await build(t)
  const chefs = await Promise.all(Array.from({ length: 20 }, async () => await registerUser(app)))
  const shared = ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon']
  const tagsBefore = json(await app.inject('/api/tags?limit=1')).pagination.total as number
  const results = await Promise.all(Array.from({ length: 100 }, (_, i) => app.inject({
    method: 'POST',
    url: '/api/recipes',
    headers: bearer(chefs[i % 20]),
    // Half of them list the tags in reverse order, and each also brings a tag of its own.
    payload: { title: `Dish ${i}`, ingredients: ['salt'], tags: [...(i % 2 === 0 ? shared : [...shared].reverse()), `own ${i}`] }
  })))
  t.same(results.map(r => r.statusCode), Array(100).fill(201), 'every create succeeds')
  const tags = json(await app.inject('/api/tags?limit=50')).tags as Array<{ slug: string, recipeCount: number }>
  for (const slug of ['alpha', 'beta', 'gamma', 'delta', 'epsilon']) {
    t.equal(tags.find(tag => tag.slug === slug)?.recipeCount, 100, `${slug} on every recipe`)
  }
  t.equal(json(await app.inject('/api/tags?limit=1')).pagination.total, tagsBefore + 105, 'one tag per name')
})

t.test('a recipe with no ingredients yet is saved (a draft in progress), as the document says', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const res = await app.inject({ method: 'POST', url: '/api/recipes', headers: bearer(ann), payload: { title: 'Still writing this', ingredients: [] } })
  t.equal(res.statusCode, 201)
  t.same(json(res).recipe.ingredients, [])
  const missing = await app.inject({ method: 'POST', url: '/api/recipes', headers: bearer(ann), payload: { title: 'No list at all' } })
  t.same(json(missing).details, ['ingredients: is required'], 'the list itself is required')
  const document = json(await app.inject({ url: '/api/docs/json' }))
  const body = document.paths['/api/recipes'].post.requestBody.content['application/json'].schema
  const schema = body.$ref == null ? body : document.components.schemas[body.$ref.split('/').pop()]
  t.match(schema.properties.ingredients.description, /may be empty/)
})
