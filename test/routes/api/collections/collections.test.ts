import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { bearer, build, createRecipe, expectValidationError, json, patchRecipe, registerUser, type TestUser } from '../../../helper.js'

const create = (app: FastifyInstance, user: TestUser, payload: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/api/collections', headers: bearer(user), payload })

const titles = (items: Array<{ recipe: { title: string } }>) => items.map(i => i.recipe.title)

t.test('collections', async t => {
  const app = await build(t)
  const owner = await registerUser(app)
  const other = await registerUser(app)
  const mine = await createRecipe(app, owner, { title: 'Mine' })
  const theirs = await createRecipe(app, other, { title: 'Theirs' })
  const theirsPrivate = await createRecipe(app, other, { title: 'Private', visibility: 'private' })

  const created = await create(app, owner, { name: '  Weeknight dinners ', description: 'Fast' })
  t.equal(created.statusCode, 201)
  const collection = json(created).collection
  t.match(collection, { name: 'Weeknight dinners', slug: 'weeknight-dinners', description: 'Fast', isPublic: false, type: 'custom', itemCount: 0, preview: [] })
  expectValidationError(t, await create(app, owner, { name: 'x'.repeat(101) }), 'name')
  expectValidationError(t, await create(app, owner, { name: '   ' }), 'name')
  expectValidationError(t, await create(app, owner, {}), 'name')
  t.equal((await create(app, owner, { name: 'x'.repeat(100) })).statusCode, 201, '100 characters is fine')
  t.equal(json(await create(app, owner, { name: 'Crème Brûlée' })).collection.slug, 'creme-brulee', 'accents fold')
  t.equal(json(await create(app, owner, { name: '寿司 🍣' })).collection.slug, '寿司-🍣', 'other scripts are kept')

  const add = (id: string, user = owner) => app.inject({ method: 'POST', url: `/api/collections/${collection.id}/recipes`, headers: bearer(user), payload: { recipeId: id } })
  const first = await add(mine.id)
  t.equal(first.statusCode, 201)
  t.equal(json(first).item.recipe.id, mine.id)
  t.equal(json(first).collection.itemCount, 1)
  t.equal((await add(theirs.id)).statusCode, 201)
  const again = await add(mine.id)
  t.equal(again.statusCode, 200, 'adding twice answers 200')
  t.same(json(again).item, json(first).item, 'with the existing item')
  t.equal(json(again).collection.itemCount, 2, 'and no duplicate')
  t.equal((await add(theirsPrivate.id)).statusCode, 404, 'someone else\'s private recipe cannot be added')
  t.equal((await add('no-such-recipe')).statusCode, 404)

  const view = json(await app.inject({ url: `/api/collections/${collection.id}`, headers: bearer(owner) })).collection
  t.equal(view.itemCount, 2)
  t.same(view.preview.map((p: { title: string }) => p.title), ['Mine', 'Theirs'], 'preview, kept for older clients')
  t.same(titles(view.items), ['Mine', 'Theirs'], 'the items are embedded (items.test.ts)')
  const items = json(await app.inject({ url: `/api/collections/${collection.id}/recipes`, headers: bearer(owner) }))
  t.same(titles(items.items), ['Mine', 'Theirs'])
  t.equal(items.pagination.total, 2)
  t.equal(items.items[1].recipe.author.id, other.id, 'items carry their authors')

  const reorder = await app.inject({ method: 'PUT', url: `/api/collections/${collection.id}/recipes/order`, headers: bearer(owner), payload: { recipeIds: [theirs.id] } })
  t.equal(reorder.statusCode, 200)
  t.same(json(reorder).collection.preview.map((p: { title: string }) => p.title), ['Theirs', 'Mine'], 'listed first, the others follow')
  t.same(titles(json(await app.inject({ url: `/api/collections/${collection.id}/recipes`, headers: bearer(owner) })).items), ['Theirs', 'Mine'])

  // Awaited: the steps after it (rename, delete) must not run in between.
  await t.test('other users', async t => {
    for (const url of [`/api/collections/${collection.id}`, `/api/collections/${collection.id}/recipes`]) {
      t.equal((await app.inject({ url, headers: bearer(other) })).statusCode, 404, `private collections are hidden: ${url}`)
    }
    t.notOk(json(await app.inject({ url: '/api/collections', headers: bearer(other) })).collections.some((c: { id: string }) => c.id === collection.id),
      'and not in anyone else\'s list')
    const attempts = [
      ['PUT', `/api/collections/${collection.id}`, { name: 'Hijacked' }],
      ['DELETE', `/api/collections/${collection.id}`, undefined],
      ['POST', `/api/collections/${collection.id}/recipes`, { recipeId: theirs.id }],
      ['DELETE', `/api/collections/${collection.id}/recipes/${mine.id}`, undefined],
      ['PUT', `/api/collections/${collection.id}/recipes/order`, { recipeIds: [] }]
    ] as const
    for (const [method, url, payload] of attempts) {
      t.equal((await app.inject({ method, url, headers: bearer(other), payload })).statusCode, 404, `${method} ${url}`)
    }
    const published = await app.inject({ method: 'PUT', url: `/api/collections/${collection.id}`, headers: bearer(owner), payload: { isPublic: true } })
    t.equal(published.statusCode, 200)
    t.equal((await app.inject({ url: `/api/collections/${collection.id}`, headers: bearer(other) })).statusCode, 200, 'public collections are visible')
    for (const [method, url, payload] of attempts) {
      t.equal((await app.inject({ method, url, headers: bearer(other), payload })).statusCode, 404, `but not changeable: ${method} ${url}`)
    }
    const still = json(await app.inject({ url: `/api/collections/${collection.id}`, headers: bearer(owner) })).collection
    t.match(still, { name: 'Weeknight dinners', itemCount: 2 }, 'nothing changed')
    await patchRecipe(app, owner, mine.id, { visibility: 'private' })
    const seen = json(await app.inject({ url: `/api/collections/${collection.id}/recipes`, headers: bearer(other) }))
    t.same(titles(seen.items), ['Theirs'], 'items the viewer cannot see are left out')
    t.equal(seen.pagination.total, 1)
    t.equal(json(await app.inject({ url: `/api/collections/${collection.id}`, headers: bearer(other) })).collection.itemCount, 1, 'and not counted')
    t.equal((await app.inject('/api/collections')).statusCode, 401)
  })

  await t.test('removing an item whatever the recipe\'s visibility is now', async t => {
    await patchRecipe(app, other, theirs.id, { visibility: 'private' })
    const removeItem = await app.inject({ method: 'DELETE', url: `/api/collections/${collection.id}/recipes/${theirs.id}`, headers: bearer(owner) })
    t.equal(removeItem.statusCode, 200)
    t.match(json(removeItem), { message: 'Recipe removed from collection', collection: { id: collection.id } }, 'a delete answers its message and the collection with its new count')
    t.equal(json(removeItem).collection.itemCount, json(await app.inject({ url: `/api/collections/${collection.id}`, headers: bearer(owner) })).collection.itemCount)
    t.equal((await app.inject({ method: 'DELETE', url: `/api/collections/${collection.id}/recipes/${theirs.id}`, headers: bearer(owner) })).statusCode, 404, 'not there any more')
  })

  const renamed = await app.inject({ method: 'PUT', url: `/api/collections/${collection.id}`, headers: bearer(owner), payload: { name: ' Quick dinners ' } })
  t.match(json(renamed).collection, { name: 'Quick dinners', slug: 'weeknight-dinners' }, 'renamed, trimmed, same slug')
  expectValidationError(t, await app.inject({ method: 'PUT', url: `/api/collections/${collection.id}`, headers: bearer(owner), payload: { name: ' ' } }), 'name')

  const del = await app.inject({ method: 'DELETE', url: `/api/collections/${collection.id}`, headers: bearer(owner) })
  t.equal(del.statusCode, 204)
  t.equal(del.body, '', 'no body')
  t.equal((await app.inject({ url: `/api/collections/${collection.id}`, headers: bearer(owner) })).statusCode, 404)
})

t.test('listing: paged summaries with a bounded preview', async t => {
  const app = await build(t)
  const owner = await registerUser(app)
  const recipes = []
  for (let i = 1; i <= 6; i++) recipes.push(await createRecipe(app, owner, { title: `R${i}` }))
  const big = json(await create(app, owner, { name: 'Big' })).collection
  for (const r of recipes) await app.inject({ method: 'POST', url: `/api/collections/${big.id}/recipes`, headers: bearer(owner), payload: { recipeId: r.id } })
  for (const name of ['B', 'C']) await create(app, owner, { name })
  await app.inject({ method: 'POST', url: `/api/bookmarks/${recipes[0].id}`, headers: bearer(owner) })

  const page1 = json(await app.inject({ url: '/api/collections?limit=2', headers: bearer(owner) }))
  t.match(page1.pagination, { page: 1, limit: 2, total: 4, totalPages: 2, hasNext: true, hasPrev: false })
  t.same(page1.collections.map((c: { name: string }) => c.name), ['Saved Recipes', 'Big'], 'Saved Recipes first, then oldest first')
  t.equal(page1.collections[1].itemCount, 6)
  t.same(page1.collections[1].preview.map((p: { title: string }) => p.title), ['R1', 'R2', 'R3', 'R4'], 'the preview holds the first four')
  t.same(json(await app.inject({ url: '/api/collections?page=2&limit=2', headers: bearer(owner) })).collections.map((c: { name: string }) => c.name), ['B', 'C'])

  const items = json(await app.inject({ url: `/api/collections/${big.id}/recipes?page=2&limit=4`, headers: bearer(owner) }))
  t.same(titles(items.items), ['R5', 'R6'])
  t.match(items.pagination, { page: 2, total: 6, hasNext: false, hasPrev: true })
  expectValidationError(t, await app.inject({ url: `/api/collections/${big.id}/recipes?limit=51`, headers: bearer(owner) }), 'limit')
})

t.test('slugs: many collections with one name, created at once, in constant work each', async t => {
  const app = await build(t)
  const owner = await registerUser(app)
  const other = await registerUser(app)

  // Statements that touch collections during one create (the auth check may or may not hit the database).
  async function statementsFor (name: string) {
    let count = 0
    app.db.options.debug = (_connection, query) => { if (/\bcollections\b/.test(query)) count++ }
    try {
      const res = await create(app, owner, { name })
      t.equal(res.statusCode, 201)
      return { count, slug: json(res).collection.slug as string }
    } finally {
      app.db.options.debug = false
    }
  }

  const plain = await statementsFor('Same')
  t.equal(plain.slug, 'same')
  const clash = await statementsFor('Same')
  t.match(clash.slug, /^same-[a-z0-9]{8}$/, 'a taken slug gets a short suffix from the new id')

  const parallel = await Promise.all(Array.from({ length: 30 }, async () => await create(app, owner, { name: 'Same' })))
  t.same([...new Set(parallel.map(r => r.statusCode))], [201], 'all 30 succeed')
  const slugs = new Set([plain.slug, clash.slug, ...parallel.map(r => json(r).collection.slug)])
  t.equal(slugs.size, 32, 'with distinct slugs')

  const later = await statementsFor('Same')
  t.equal(later.count, clash.count, 'the 33rd costs what the 2nd did: no search over the taken slugs')
  t.equal(json(await create(app, other, { name: 'Same' })).collection.slug, 'same', 'slugs are per user')
  t.equal(json(await app.inject({ url: '/api/collections?limit=1', headers: bearer(owner) })).pagination.total, 33)
})
