import t from 'tap'
import { bearer, build, createRecipe, expectValidationError, json, registerUser } from '../../../helper.js'

t.test('bookmarks and the Saved Recipes collection', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const reader = await registerUser(app)
  const recipe = await createRecipe(app, author, { title: 'Gnocchi' })
  const hidden = await createRecipe(app, author, { visibility: 'private' })
  const mark = (id: string, method: 'POST' | 'DELETE' = 'POST') => app.inject({ method, url: `/api/bookmarks/${id}`, headers: bearer(reader) })

  const first = await mark(recipe.id)
  t.equal(first.statusCode, 201)
  t.same(json(first), { message: 'Recipe bookmarked', bookmarked: true })
  const results = await Promise.all(Array.from({ length: 10 }, () => mark(recipe.id)))
  t.same([...new Set(results.map(r => r.statusCode))], [201], 'concurrent repeats are harmless')
  const saved = await app.sql`select id from collections where user_id = ${reader.id} and type = 'saved'`
  t.equal(saved.length, 1, 'one Saved Recipes collection, created on first use')

  const list = json(await app.inject({ url: '/api/bookmarks', headers: bearer(reader) }))
  t.equal(list.pagination.total, 1)
  t.equal(list.bookmarks[0].recipe.title, 'Gnocchi')
  t.equal(list.bookmarks[0].recipe.isBookmarked, true)
  const collections = json(await app.inject({ url: '/api/collections', headers: bearer(reader) })).collections
  t.equal(collections[0].type, 'saved')
  t.equal(collections[0].name, 'Saved Recipes')
  t.same(collections[0].items.map((i: { recipe: { id: string } }) => i.recipe.id), [recipe.id])

  t.equal((await mark(hidden.id)).statusCode, 404, 'a recipe the caller cannot see')
  const removed = await mark(recipe.id, 'DELETE')
  t.equal(removed.statusCode, 200)
  t.same(json(removed), { message: 'Bookmark removed' })
  t.equal(json(await app.inject({ url: '/api/collections', headers: bearer(reader) })).collections[0].itemCount, 0, 'taken out of Saved Recipes')
  t.equal(json(await app.inject({ url: '/api/bookmarks', headers: bearer(reader) })).pagination.total, 0)

  const del = await app.inject({ method: 'DELETE', url: `/api/collections/${saved[0].id}`, headers: bearer(reader) })
  t.equal(del.statusCode, 409, 'Saved Recipes cannot be deleted')
})

t.test('collections', async t => {
  const app = await build(t)
  const owner = await registerUser(app)
  const other = await registerUser(app)
  const mine = await createRecipe(app, owner, { title: 'Mine' })
  const theirs = await createRecipe(app, other, { title: 'Theirs' })
  const theirsPrivate = await createRecipe(app, other, { title: 'Private', visibility: 'private' })

  const created = await app.inject({ method: 'POST', url: '/api/collections', headers: bearer(owner), payload: { name: 'Weeknight dinners', description: 'Fast' } })
  t.equal(created.statusCode, 201)
  const collection = json(created).collection
  t.match(collection, { name: 'Weeknight dinners', slug: 'weeknight-dinners', isPublic: false, type: 'custom', itemCount: 0, items: [] })
  t.equal(json(await app.inject({ method: 'POST', url: '/api/collections', headers: bearer(owner), payload: { name: 'Weeknight dinners' } })).collection.slug, 'weeknight-dinners-1')
  expectValidationError(t, await app.inject({ method: 'POST', url: '/api/collections', headers: bearer(owner), payload: { name: 'x'.repeat(101) } }), 'name')

  const add = (id: string) => app.inject({ method: 'POST', url: `/api/collections/${collection.id}/recipes`, headers: bearer(owner), payload: { recipeId: id } })
  t.equal((await add(mine.id)).statusCode, 201)
  t.equal((await add(theirs.id)).statusCode, 201)
  t.equal((await add(mine.id)).statusCode, 201, 'adding twice is harmless')
  t.equal((await add(theirsPrivate.id)).statusCode, 404, 'someone else\'s private recipe cannot be added')
  const view = json(await app.inject({ url: `/api/collections/${collection.id}`, headers: bearer(owner) })).collection
  t.same(view.items.map((i: { recipe: { title: string } }) => i.recipe.title), ['Mine', 'Theirs'])
  t.equal(view.itemCount, 2)
  t.equal(view.items[1].recipe.author.id, other.id, 'items carry their authors')

  const reorder = await app.inject({ method: 'PUT', url: `/api/collections/${collection.id}/recipes/order`, headers: bearer(owner), payload: { recipeIds: [theirs.id, mine.id] } })
  t.same(json(reorder).collection.items.map((i: { recipe: { title: string } }) => i.recipe.title), ['Theirs', 'Mine'])

  // Awaited: the steps after it (rename, delete) must not run in between.
  await t.test('other users', async t => {
    t.equal((await app.inject({ url: `/api/collections/${collection.id}`, headers: bearer(other) })).statusCode, 404, 'private collections are hidden')
    for (const [method, url, payload] of [
      ['PUT', `/api/collections/${collection.id}`, { name: 'Hijacked' }],
      ['DELETE', `/api/collections/${collection.id}`, undefined],
      ['POST', `/api/collections/${collection.id}/recipes`, { recipeId: theirs.id }],
      ['DELETE', `/api/collections/${collection.id}/recipes/${mine.id}`, undefined],
      ['PUT', `/api/collections/${collection.id}/recipes/order`, { recipeIds: [] }]
    ] as const) {
      t.equal((await app.inject({ method, url, headers: bearer(other), payload })).statusCode, 404, `${method} ${url}`)
    }
    const published = await app.inject({ method: 'PUT', url: `/api/collections/${collection.id}`, headers: bearer(owner), payload: { isPublic: true } })
    t.equal(published.statusCode, 200, published.body.slice(0, 200))
    const visible = await app.inject({ url: `/api/collections/${collection.id}`, headers: bearer(other) })
    t.equal(visible.statusCode, 200, 'public collections are visible')
    t.equal((await app.inject({ method: 'PUT', url: `/api/collections/${collection.id}`, headers: bearer(other), payload: { name: 'x' } })).statusCode, 404, 'but not editable')
    await app.inject({ method: 'PATCH', url: `/api/recipes/${mine.id}`, headers: bearer(owner), payload: { visibility: 'private' } })
    t.same(json(await app.inject({ url: `/api/collections/${collection.id}`, headers: bearer(other) })).collection.items.map((i: { recipe: { title: string } }) => i.recipe.title), ['Theirs'], 'items the viewer cannot see are left out')
    t.equal((await app.inject('/api/collections')).statusCode, 401)
  })

  const removeItem = await app.inject({ method: 'DELETE', url: `/api/collections/${collection.id}/recipes/${theirs.id}`, headers: bearer(owner) })
  t.equal(removeItem.statusCode, 200)
  t.equal((await app.inject({ method: 'DELETE', url: `/api/collections/${collection.id}/recipes/${theirs.id}`, headers: bearer(owner) })).statusCode, 404)
  const renamed = json(await app.inject({ method: 'PUT', url: `/api/collections/${collection.id}`, headers: bearer(owner), payload: { name: 'Quick dinners' } })).collection
  t.equal(renamed.name, 'Quick dinners')

  const del = await app.inject({ method: 'DELETE', url: `/api/collections/${collection.id}`, headers: bearer(owner) })
  t.equal(del.statusCode, 204)
  t.equal(del.body, '', 'no body')
  t.equal((await app.inject({ url: `/api/collections/${collection.id}`, headers: bearer(owner) })).statusCode, 404)
})
