// The items a collection carries (decisions.md, Collections): GET /api/collections and GET /api/collections/:id
// embed the first 100 items the caller can see, in sortOrder, with itemCount and itemsTruncated; the paged route has
// them all. Written from a client's side: every step is read back through both routes.
import type { FastifyInstance } from 'fastify'
import t, { type Test } from 'tap'
import { adminBearer, bearer, build, createAdmin, createRecipe, json, patchRecipe, registerUser, type TestUser } from '../../../helper.js'

interface Item { recipeId: string, sortOrder: number, addedAt: string, recipe: { id: string, title: string, author: { id: string } } }
interface Collection { id: string, itemCount: number, items: Item[], itemsTruncated: boolean, preview: Array<{ id: string }> }

const create = async (app: FastifyInstance, user: TestUser, payload: Record<string, unknown>): Promise<Collection> =>
  json(await app.inject({ method: 'POST', url: '/api/collections', headers: bearer(user), payload })).collection

async function add (app: FastifyInstance, user: TestUser, collectionId: string, recipeId: string) {
  return await app.inject({ method: 'POST', url: `/api/collections/${collectionId}/recipes`, headers: bearer(user), payload: { recipeId } })
}

/** The collection as both reads show it: GET /api/collections/:id and its entry in the caller's GET /api/collections. */
async function bothReads (app: FastifyInstance, user: TestUser, id: string): Promise<{ one: Collection, listed: Collection | undefined }> {
  const one = await app.inject({ url: `/api/collections/${id}`, headers: bearer(user) })
  const list = await app.inject({ url: '/api/collections?limit=50', headers: bearer(user) })
  if (one.statusCode !== 200 || list.statusCode !== 200) throw new Error(`reads failed: ${one.statusCode} ${list.statusCode}`)
  return { one: json(one).collection, listed: json(list).collections.find((c: Collection) => c.id === id) }
}

/** All items of the paged route, page by page. */
async function pagedIds (app: FastifyInstance, user: TestUser, id: string): Promise<{ ids: string[], total: number }> {
  const ids: string[] = []
  let total = 0
  for (let page = 1; ; page++) {
    const body = json(await app.inject({ url: `/api/collections/${id}/recipes?limit=50&page=${page}`, headers: bearer(user) }))
    ids.push(...body.items.map((i: { recipeId: string }) => i.recipeId))
    total = body.pagination.total
    if (!body.pagination.hasNext) return { ids, total }
  }
}

/** Both reads (and the paged route) show exactly `expected`, in that order, counted. */
async function expectItems (t: Test, app: FastifyInstance, user: TestUser, id: string, expected: string[], step: string): Promise<void> {
  const { one, listed } = await bothReads(app, user, id)
  for (const [route, collection] of [['GET /:id', one], ['GET /', listed]] as const) {
    t.same(collection?.items.map(i => i.recipeId), expected, `${step}: ${route} items`)
    t.equal(collection?.itemCount, expected.length, `${step}: ${route} itemCount`)
    t.equal(collection?.itemsTruncated, false, `${step}: ${route} not truncated`)
  }
  t.same(one.items.map(i => i.sortOrder), [...one.items.map(i => i.sortOrder)].sort((a, b) => a - b), `${step}: in sortOrder`)
  t.same(one.preview.map(p => p.id), expected.slice(0, 4), `${step}: preview is the first four`)
  t.same((await pagedIds(app, user, id)).ids, expected, `${step}: the paged route agrees`)
}

t.test('items: added, reordered, hidden, removed, each step read back through both routes', async t => {
  const app = await build(t)
  const owner = await registerUser(app)
  const other = await registerUser(app)
  const first = await createRecipe(app, owner, { title: 'First' })
  const second = await createRecipe(app, owner, { title: 'Second' })
  const theirs = await createRecipe(app, other, { title: 'Theirs' })
  const collection = await create(app, owner, { name: 'Dinners' })
  t.match(collection, { itemCount: 0, items: [], itemsTruncated: false, preview: [] }, 'a new collection is empty')

  t.equal((await add(app, owner, collection.id, first.id)).statusCode, 201)
  await expectItems(t, app, owner, collection.id, [first.id], 'one added')
  t.equal((await add(app, owner, collection.id, theirs.id)).statusCode, 201)
  t.equal((await add(app, owner, collection.id, second.id)).statusCode, 201)
  await expectItems(t, app, owner, collection.id, [first.id, theirs.id, second.id], 'three added, another user\'s public recipe among them')

  const { one } = await bothReads(app, owner, collection.id)
  const paged = json(await app.inject({ url: `/api/collections/${collection.id}/recipes`, headers: bearer(owner) })).items[1]
  t.same(one.items[1], {
    recipeId: theirs.id,
    sortOrder: paged.sortOrder,
    addedAt: paged.addedAt,
    recipe: { id: theirs.id, title: 'Theirs', slug: theirs.slug, imageUrl: null, author: { id: other.id, username: other.username, avatarUrl: null } }
  }, 'an item: recipeId, sortOrder, addedAt and the recipe with its author, nothing else')
  t.match(paged, { recipeId: theirs.id, recipe: { id: theirs.id, title: 'Theirs', likeCount: 0 } }, 'the paged item has the same fields and the whole recipe')
  t.match(one.items[1].addedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 'addedAt is ISO 8601 UTC')

  const reordered = await app.inject({ method: 'PUT', url: `/api/collections/${collection.id}/recipes/order`, headers: bearer(owner), payload: { recipeIds: [second.id, first.id] } })
  t.same(json(reordered).collection.items.map((i: Item) => i.recipeId), [second.id, first.id, theirs.id], 'the reorder answers the new order')
  await expectItems(t, app, owner, collection.id, [second.id, first.id, theirs.id], 'reordered')

  await patchRecipe(app, other, theirs.id, { visibility: 'private' })
  await expectItems(t, app, owner, collection.id, [second.id, first.id], 'another user\'s recipe made private: left out and not counted')
  await patchRecipe(app, other, theirs.id, { visibility: 'public' })
  await expectItems(t, app, owner, collection.id, [second.id, first.id, theirs.id], 'public again: back in its place')
  await patchRecipe(app, other, theirs.id, { visibility: 'private' })

  const removed = await app.inject({ method: 'DELETE', url: `/api/collections/${collection.id}/recipes/${first.id}`, headers: bearer(owner) })
  t.same(json(removed).collection.items.map((i: Item) => i.recipeId), [second.id], 'the remove answers the items left')
  await expectItems(t, app, owner, collection.id, [second.id], 'one removed')
})

t.test('another user\'s collection: private is 404, public shows the items that user may see', async t => {
  const app = await build(t)
  const owner = await registerUser(app)
  const other = await registerUser(app)
  const shared = await createRecipe(app, owner, { title: 'Shared' })
  const secret = await createRecipe(app, owner, { title: 'Secret', visibility: 'private' })
  const collection = await create(app, owner, { name: 'Mine' })
  await add(app, owner, collection.id, secret.id)
  await add(app, owner, collection.id, shared.id)

  t.equal((await app.inject({ url: `/api/collections/${collection.id}`, headers: bearer(other) })).statusCode, 404, 'private: 404')
  await app.inject({ method: 'PUT', url: `/api/collections/${collection.id}`, headers: bearer(owner), payload: { isPublic: true } })
  const seen = await app.inject({ url: `/api/collections/${collection.id}`, headers: bearer(other) })
  t.equal(seen.statusCode, 200, 'public: visible')
  t.match(json(seen).collection, { itemCount: 1, itemsTruncated: false }, 'counting only what the viewer may see')
  t.same(json(seen).collection.items.map((i: Item) => i.recipeId), [shared.id], 'the owner\'s private recipe is left out for others')
  await expectItems(t, app, owner, collection.id, [secret.id, shared.id], 'the owner sees both')
  t.notOk(json(await app.inject({ url: '/api/collections', headers: bearer(other) })).collections.some((c: Collection) => c.id === collection.id),
    'GET /api/collections lists only the caller\'s own')
})

t.test('recipes of banned or deactivated authors are left out until the account is restored', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  const owner = await registerUser(app)
  const author = await registerUser(app)
  const mine = await createRecipe(app, owner, { title: 'Mine' })
  const theirs = await createRecipe(app, author, { title: 'Theirs' })
  const later = await createRecipe(app, author, { title: 'Later' })
  const collection = await create(app, owner, { name: 'Mixed' })
  await add(app, owner, collection.id, theirs.id)
  await add(app, owner, collection.id, mine.id)
  const adminCall = async (method: 'POST' | 'PATCH', url: string, payload: Record<string, unknown>) => {
    const res = await app.inject({ method, url: `/api/admin/users/${author.id}${url}`, headers: adminBearer(admin), payload })
    t.equal(res.statusCode, 200, `${method} ${url}`)
  }

  await adminCall('POST', '/ban', { reason: 'spam' })
  await expectItems(t, app, owner, collection.id, [mine.id], 'author banned')
  t.equal((await add(app, owner, collection.id, later.id)).statusCode, 404, 'a banned author\'s recipe cannot be added')
  await adminCall('POST', '/unban', {})
  await expectItems(t, app, owner, collection.id, [theirs.id, mine.id], 'unbanned')
  await adminCall('PATCH', '', { active: false })
  await expectItems(t, app, owner, collection.id, [mine.id], 'author deactivated')
  await adminCall('PATCH', '', { active: true })
  await expectItems(t, app, owner, collection.id, [theirs.id, mine.id], 'reactivated')
})

t.test('over 100 items: the first 100 embedded, itemsTruncated, all of them paged', async t => {
  const app = await build(t)
  const owner = await registerUser(app)
  // 105 recipes by three authors (the free plan holds 50 recipes each); all public.
  const authors = [owner, await registerUser(app), await registerUser(app)]
  const recipes: Array<{ id: string, author: TestUser }> = []
  for (const [a, author] of authors.entries()) {
    const made = await Promise.all(Array.from({ length: 35 }, async (_, i) => await createRecipe(app, author, { title: `R${a}-${i}` })))
    recipes.push(...made.map(r => ({ id: r.id, author })))
  }
  const collection = await create(app, owner, { name: 'Everything' })
  for (const r of recipes) t.equal((await add(app, owner, collection.id, r.id)).statusCode, 201)
  let order = recipes.map(r => r.id)

  async function expectTruncated (expected: string[], step: string) {
    const { one, listed } = await bothReads(app, owner, collection.id)
    for (const [route, c] of [['GET /:id', one], ['GET /', listed]] as const) {
      t.same(c?.items.map(i => i.recipeId), expected.slice(0, 100), `${step}: ${route} embeds the first 100`)
      t.equal(c?.itemCount, expected.length, `${step}: ${route} counts all ${expected.length}`)
      t.equal(c?.itemsTruncated, expected.length > 100, `${step}: ${route} itemsTruncated ${String(expected.length > 100)}`)
    }
    const paged = await pagedIds(app, owner, collection.id)
    t.same(paged.ids, expected, `${step}: the paged route has them all, in order`)
    t.equal(paged.total, expected.length)
  }

  await expectTruncated(order, '105 added')

  const last = order[order.length - 1]
  await app.inject({ method: 'PUT', url: `/api/collections/${collection.id}/recipes/order`, headers: bearer(owner), payload: { recipeIds: [last] } })
  order = [last, ...order.slice(0, -1)]
  await expectTruncated(order, 'the 105th moved first')

  const hidden = recipes.find(r => r.author !== owner && order.indexOf(r.id) < 50)!
  await patchRecipe(app, hidden.author, hidden.id, { visibility: 'private' })
  order = order.filter(id => id !== hidden.id)
  await expectTruncated(order, 'one of the first 100 made private: the 101st moves up')

  for (const id of order.slice(-4)) {
    t.equal((await app.inject({ method: 'DELETE', url: `/api/collections/${collection.id}/recipes/${id}`, headers: bearer(owner) })).statusCode, 200)
  }
  order = order.slice(0, -4)
  await expectTruncated(order, 'four removed: exactly 100, not truncated')
})

t.test('the list reads every collection\'s items in a fixed number of statements, however many collections', async t => {
  const app = await build(t)
  const few = await registerUser(app)
  const many = await registerUser(app)
  for (const [user, count] of [[few, 1], [many, 12]] as const) {
    const recipe = await createRecipe(app, user)
    for (let i = 0; i < count; i++) {
      const c = await create(app, user, { name: `C${i}` })
      await add(app, user, c.id, recipe.id)
    }
  }

  async function statementsFor (user: TestUser) {
    const seen: string[] = []
    app.db.options.debug = (_connection, query) => { if (/\bcollection(s|_items)\b/.test(query)) seen.push(query) }
    try {
      const res = await app.inject({ url: '/api/collections?limit=50', headers: bearer(user) })
      t.equal(res.statusCode, 200)
      return { statements: seen.length, collections: json(res).collections as Collection[] }
    } finally {
      app.db.options.debug = false
    }
  }

  const one = await statementsFor(few)
  const twelve = await statementsFor(many)
  t.equal(twelve.collections.length, 12)
  t.ok(twelve.collections.every(c => c.itemCount === 1 && c.items.length === 1), 'each with its item')
  t.equal(twelve.statements, one.statements, `12 collections cost what 1 does (${one.statements} statements)`)
  t.ok(one.statements <= 2, 'the page and its total')
})
