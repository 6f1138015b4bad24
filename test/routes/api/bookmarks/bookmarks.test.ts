import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { bearer, build, createRecipe, json, patchRecipe, registerUser, type TestUser } from '../../../helper.js'

const mark = (app: FastifyInstance, user: TestUser, id: string, method: 'POST' | 'DELETE' = 'POST') =>
  app.inject({ method, url: `/api/bookmarks/${id}`, headers: bearer(user) })

async function savedCollections (app: FastifyInstance, user: TestUser): Promise<Array<{ id: string, name: string, slug: string, itemCount: number }>> {
  const { collections } = json(await app.inject({ url: '/api/collections?limit=50', headers: bearer(user) }))
  return collections.filter((c: { type: string }) => c.type === 'saved')
}

const bookmarked = async (app: FastifyInstance, user: TestUser): Promise<string[]> =>
  json(await app.inject({ url: '/api/bookmarks?limit=50', headers: bearer(user) })).bookmarks.map((b: { recipe: { id: string } }) => b.recipe.id)

t.test('bookmarks and the Saved Recipes collection', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const reader = await registerUser(app)
  const recipe = await createRecipe(app, author, { title: 'Gnocchi' })
  const hidden = await createRecipe(app, author, { visibility: 'private' })

  const first = await mark(app, reader, recipe.id)
  t.equal(first.statusCode, 201)
  t.same(json(first), { message: 'Recipe bookmarked', bookmarked: true })
  const results = await Promise.all(Array.from({ length: 10 }, async () => await mark(app, reader, recipe.id)))
  t.same([...new Set(results.map(r => r.statusCode))], [200], 'repeats are harmless: 200, already there')
  t.same(json(results[0]), { message: 'Recipe already bookmarked', bookmarked: true })
  const racer = await registerUser(app)
  const race = await Promise.all(Array.from({ length: 8 }, async () => (await mark(app, racer, recipe.id)).statusCode))
  t.same(race.sort(), [200, 200, 200, 200, 200, 200, 200, 201], 'of concurrent first bookmarks exactly one creates it')
  const saved = await savedCollections(app, reader)
  t.equal(saved.length, 1, 'one Saved Recipes collection, created on first use')
  t.match(saved[0], { name: 'Saved Recipes', itemCount: 1 })

  const list = json(await app.inject({ url: '/api/bookmarks', headers: bearer(reader) }))
  t.equal(list.pagination.total, 1)
  t.equal(list.bookmarks[0].recipe.title, 'Gnocchi')
  t.equal(list.bookmarks[0].recipe.isBookmarked, true)
  const items = json(await app.inject({ url: `/api/collections/${saved[0].id}/recipes`, headers: bearer(reader) })).items
  t.same(items.map((i: { recipe: { id: string } }) => i.recipe.id), [recipe.id])

  t.equal((await mark(app, reader, hidden.id)).statusCode, 404, 'a recipe the caller cannot see')
  t.equal((await mark(app, reader, 'no-such-recipe')).statusCode, 404)
  t.equal((await app.inject({ method: 'POST', url: `/api/bookmarks/${recipe.id}` })).statusCode, 401)

  const removed = await mark(app, reader, recipe.id, 'DELETE')
  t.equal(removed.statusCode, 200)
  t.same(json(removed), { message: 'Bookmark removed', bookmarked: false })
  t.equal((await savedCollections(app, reader))[0].itemCount, 0, 'taken out of Saved Recipes')
  t.same(await bookmarked(app, reader), [])
  t.equal((await mark(app, reader, recipe.id, 'DELETE')).statusCode, 200, 'removing again is harmless')

  const del = await app.inject({ method: 'DELETE', url: `/api/collections/${saved[0].id}`, headers: bearer(reader) })
  t.equal(del.statusCode, 409, 'Saved Recipes cannot be deleted')
})

t.test('the Saved Recipes collection is created once, even by concurrent first bookmarks', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const reader = await registerUser(app)
  const recipes = await Promise.all(Array.from({ length: 8 }, async (_, i) => await createRecipe(app, author, { title: `R${i}` })))
  // A collection of the user's own already holds the plain slug.
  await app.inject({ method: 'POST', url: '/api/collections', headers: bearer(reader), payload: { name: 'Saved Recipes' } })

  const results = await Promise.all(recipes.map(async r => await mark(app, reader, r.id)))
  t.same([...new Set(results.map(r => r.statusCode))], [201])
  const saved = await savedCollections(app, reader)
  t.equal(saved.length, 1, 'one Saved Recipes collection')
  t.equal(saved[0].itemCount, 8, 'holding every bookmark')
  t.not(saved[0].slug, 'saved-recipes', 'beside the custom collection that has the plain slug')
  t.equal((await bookmarked(app, reader)).length, 8)
})

t.test('Saved Recipes through the collection routes is bookmarking', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const reader = await registerUser(app)
  const a = await createRecipe(app, author)
  const b = await createRecipe(app, author)
  await mark(app, reader, a.id)
  const [saved] = await savedCollections(app, reader)

  const added = await app.inject({ method: 'POST', url: `/api/collections/${saved.id}/recipes`, headers: bearer(reader), payload: { recipeId: b.id } })
  t.equal(added.statusCode, 201)
  t.same((await bookmarked(app, reader)).sort(), [a.id, b.id].sort(), 'adding to Saved Recipes bookmarks')
  const out = await app.inject({ method: 'DELETE', url: `/api/collections/${saved.id}/recipes/${a.id}`, headers: bearer(reader) })
  t.equal(out.statusCode, 200)
  t.same(await bookmarked(app, reader), [b.id], 'taking it out removes the bookmark')
  t.equal(json(await app.inject({ url: `/api/recipes/${a.id}`, headers: bearer(reader) })).recipe.isBookmarked, false)
})

t.test('removing your own bookmark after the recipe turned private', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const reader = await registerUser(app)
  const stranger = await registerUser(app)
  const recipe = await createRecipe(app, author)
  await mark(app, reader, recipe.id)
  t.equal((await mark(app, stranger, recipe.id)).statusCode, 201)

  await t.test('another user cannot remove my bookmark', async t => {
    t.equal((await mark(app, stranger, recipe.id, 'DELETE')).statusCode, 200, 'their own goes')
    t.same(await bookmarked(app, reader), [recipe.id], 'mine stays')
    t.same(await bookmarked(app, stranger), [])
  })

  await patchRecipe(app, author, recipe.id, { visibility: 'private' })
  t.same(await bookmarked(app, reader), [], 'the list only shows recipes the reader can see')
  const removed = await mark(app, reader, recipe.id, 'DELETE')
  t.equal(removed.statusCode, 200)
  t.same(json(removed), { message: 'Bookmark removed', bookmarked: false }, 'nothing about the recipe in the answer')
  t.equal((await savedCollections(app, reader))[0].itemCount, 0)

  await patchRecipe(app, author, recipe.id, { visibility: 'public' })
  t.same(await bookmarked(app, reader), [], 'it really went')
  t.equal((await savedCollections(app, reader))[0].itemCount, 0, 'from Saved Recipes too')
  await patchRecipe(app, author, recipe.id, { visibility: 'private' })

  const unknown = await mark(app, stranger, 'no-such-recipe', 'DELETE')
  const never = await mark(app, stranger, recipe.id, 'DELETE')
  t.equal(never.statusCode, 404, 'a recipe I never marked and cannot see: 404')
  t.same(json(never), json(unknown), 'exactly like an unknown id')
})
