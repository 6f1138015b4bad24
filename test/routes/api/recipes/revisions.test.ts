import t from 'tap'
import { MAX_REVISIONS } from '../../../../db/schema/index.js'
import { bearer, build, createRecipe, json, patchRecipe, registerUser } from '../../../helper.js'

t.test('revision history', async t => {
  const app = await build(t)
  const chef = await registerUser(app)
  const other = await registerUser(app)
  const recipe = await createRecipe(app, chef, { title: 'Pancakes v1', ingredients: ['1 cup flour'], tags: ['breakfast'] })
  await patchRecipe(app, chef, recipe.id, { title: 'Pancakes v2', ingredients: ['2 cups flour'] })
  await patchRecipe(app, chef, recipe.id, { title: 'Pancakes v3', tags: ['brunch'] })

  const list = await app.inject({ url: `/api/recipes/${recipe.id}/revisions`, headers: bearer(chef) })
  t.equal(list.statusCode, 200)
  const { revisions, pagination } = json(list)
  t.same(revisions.map((r: { version: number }) => r.version), [2, 1], 'newest first')
  t.same(pagination, { page: 1, limit: 12, total: 2, totalPages: 1, hasNext: false, hasPrev: false, totalExact: true })
  t.notOk('recipe' in revisions[0], 'the list carries no snapshots')
  t.equal(revisions[0].editorId, chef.id)

  const one = async (id: string, user = chef) => await app.inject({ url: `/api/recipes/${recipe.id}/revisions/${id}`, headers: bearer(user) })
  const v1 = json(await one(revisions[1].id)).revision
  t.equal(v1.recipe.title, 'Pancakes v1', 'each revision keeps the previous version')
  t.equal(v1.recipe.ingredients[0].text, '1 cup flour')
  t.equal(json(await one(revisions[0].id)).revision.recipe.title, 'Pancakes v2')
  t.equal((await one(revisions[0].id, other)).statusCode, 403, 'author only')
  t.equal((await one('no-such-revision')).statusCode, 404)

  t.equal((await app.inject({ url: `/api/recipes/${recipe.id}/revisions`, headers: bearer(other) })).statusCode, 403, 'author only')
  t.equal((await app.inject({ url: `/api/recipes/${recipe.id}/revisions` })).statusCode, 401)

  const restoreUrl = `/api/recipes/${recipe.id}/revisions/${v1.id}/restore`
  t.equal((await app.inject({ method: 'POST', url: restoreUrl, headers: bearer(other) })).statusCode, 403)
  const restored = await app.inject({ method: 'POST', url: restoreUrl, headers: bearer(chef) })
  t.equal(restored.statusCode, 200)
  const body = json(restored).recipe
  t.equal(body.title, 'Pancakes v1')
  t.equal(body.ingredients[0].text, '1 cup flour')
  t.same(body.tags.map((x: { slug: string }) => x.slug), ['breakfast'], 'tags restored too')
  const after = json(await app.inject({ url: `/api/recipes/${recipe.id}/revisions`, headers: bearer(chef) })).revisions
  t.equal(json(await one(after[0].id)).revision.recipe.title, 'Pancakes v3', 'the version replaced by the restore is kept as well')
  t.equal((await app.inject({ method: 'POST', url: `/api/recipes/${recipe.id}/revisions/nope/restore`, headers: bearer(chef) })).statusCode, 404)

  const privateOne = await createRecipe(app, chef, { title: 'Hidden', visibility: 'private' })
  t.equal((await app.inject({ url: `/api/recipes/${privateOne.id}/revisions`, headers: bearer(other) })).statusCode, 404, 'not visible: 404')
})

t.test('revisions are capped and paged', async t => {
  const app = await build(t)
  const chef = await registerUser(app)
  const recipe = await createRecipe(app, chef, { title: 'Edit 0' })
  const edits = MAX_REVISIONS + 5
  for (let i = 1; i <= edits; i++) await patchRecipe(app, chef, recipe.id, { title: `Edit ${i}` })
  const page = json(await app.inject({ url: `/api/recipes/${recipe.id}/revisions?limit=50&page=1`, headers: bearer(chef) }))
  t.equal(page.pagination.total, MAX_REVISIONS, `only the newest ${MAX_REVISIONS} are kept`)
  t.equal(page.revisions[0].version, edits, 'the newest version is the last edit')
  t.equal(page.revisions.at(-1).version, edits - Math.min(50, MAX_REVISIONS) + 1)
  const last = json(await app.inject({ url: `/api/recipes/${recipe.id}/revisions?limit=1&page=${MAX_REVISIONS}`, headers: bearer(chef) }))
  t.equal(last.revisions[0].version, edits - MAX_REVISIONS + 1, 'the oldest kept version')
  t.equal(last.pagination.hasNext, false)
})
