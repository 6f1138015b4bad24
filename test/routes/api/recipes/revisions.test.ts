import t from 'tap'
import { bearer, build, createRecipe, json, registerUser } from '../../../helper.js'

t.test('revision history', async t => {
  const app = await build(t)
  const chef = await registerUser(app)
  const other = await registerUser(app)
  const recipe = await createRecipe(app, chef, { title: 'Pancakes v1', ingredients: ['1 cup flour'], tags: ['breakfast'] })

  const edit = async (payload: Record<string, unknown>) =>
    await app.inject({ method: 'PATCH', url: `/api/recipes/${recipe.id}`, headers: bearer(chef), payload })
  await edit({ title: 'Pancakes v2', ingredients: ['2 cups flour'] })
  await edit({ title: 'Pancakes v3', tags: ['brunch'] })

  const list = await app.inject({ url: `/api/recipes/${recipe.id}/revisions`, headers: bearer(chef) })
  t.equal(list.statusCode, 200)
  const { revisions } = json(list)
  t.same(revisions.map((r: { version: number }) => r.version), [2, 1], 'newest first')
  t.same(revisions.map((r: { recipe: { title: string } }) => r.recipe.title), ['Pancakes v2', 'Pancakes v1'], 'each keeps the previous version')
  t.equal(revisions[1].recipe.ingredients[0].text, '1 cup flour')
  t.equal(revisions[0].editorId, chef.id)

  t.equal((await app.inject({ url: `/api/recipes/${recipe.id}/revisions`, headers: bearer(other) })).statusCode, 403, 'author only')
  t.equal((await app.inject({ url: `/api/recipes/${recipe.id}/revisions` })).statusCode, 401)

  const v1 = revisions[1].id
  const foreignRestore = await app.inject({ method: 'POST', url: `/api/recipes/${recipe.id}/revisions/${v1}/restore`, headers: bearer(other) })
  t.equal(foreignRestore.statusCode, 403)
  const restored = await app.inject({ method: 'POST', url: `/api/recipes/${recipe.id}/revisions/${v1}/restore`, headers: bearer(chef) })
  t.equal(restored.statusCode, 200)
  const body = json(restored).recipe
  t.equal(body.title, 'Pancakes v1')
  t.equal(body.ingredients[0].text, '1 cup flour')
  t.same(body.tags.map((x: { slug: string }) => x.slug), ['breakfast'], 'tags restored too')
  const after = json(await app.inject({ url: `/api/recipes/${recipe.id}/revisions`, headers: bearer(chef) })).revisions
  t.equal(after[0].recipe.title, 'Pancakes v3', 'the version replaced by the restore is kept as well')
  t.equal((await app.inject({ method: 'POST', url: `/api/recipes/${recipe.id}/revisions/nope/restore`, headers: bearer(chef) })).statusCode, 404)

  const privateOne = await createRecipe(app, chef, { title: 'Hidden', visibility: 'private' })
  t.equal((await app.inject({ url: `/api/recipes/${privateOne.id}/revisions`, headers: bearer(other) })).statusCode, 404, 'not visible: 404')
})
