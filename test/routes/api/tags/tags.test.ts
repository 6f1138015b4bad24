import t from 'tap'
import { bearer, build, createRecipe, eventually, json, patchRecipe, registerUser } from '../../../helper.js'

// First in this file: it counts every tag of the file's database.
t.test('tags: only tags of listed recipes, paged, orphans removed', async t => {
  const app = await build(t)
  const chef = await registerUser(app)
  await createRecipe(app, chef, { title: 'Open', tags: ['shared', 'public-only'] })
  await createRecipe(app, chef, { title: 'Also open', tags: ['shared'] })
  await createRecipe(app, chef, { title: 'Hidden', visibility: 'private', tags: ['shared', 'secret-ingredient'] })
  await createRecipe(app, chef, { title: 'Mates', visibility: 'friends', tags: ['friends-only'] })
  const draft = await createRecipe(app, chef, { title: 'Draft', published: false, tags: ['draft-tag'] })

  const slugs = async (qs = '') => (json(await app.inject(`/api/tags${qs}`)).tags as Array<{ slug: string }>).map(tag => tag.slug)
  t.same((await slugs()).sort(), ['public-only', 'shared'], 'private, friends-only and draft tags are not listed')
  const first = json(await app.inject('/api/tags?limit=1'))
  t.same(first.pagination, { page: 1, limit: 1, total: 2, totalPages: 2, hasNext: true, hasPrev: false, totalExact: true })
  t.equal(first.tags[0].slug, 'shared', 'most used first (the private use does not count)')
  t.equal(first.tags[0].recipeCount, 2)

  // Retagging and deleting leave no tag behind that nothing uses (removed right after the write commits).
  const gone = async (slug: string) => (await app.inject(`/api/tags/${slug}/recipes`)).statusCode === 404
  t.equal(await gone('draft-tag'), false, 'a tag of a draft exists, unlisted')
  await patchRecipe(app, chef, draft.id, { tags: ['renamed'], published: true })
  t.ok((await slugs()).includes('renamed'))
  t.ok(await eventually(async () => await gone('draft-tag')), 'the replaced tag is removed')
  t.equal((await app.inject({ method: 'DELETE', url: `/api/recipes/${draft.id}`, headers: bearer(chef) })).statusCode, 200)
  t.notOk((await slugs()).includes('renamed'))
  t.ok(await eventually(async () => await gone('renamed')), 'the deleted recipe\'s tag is removed')
  t.equal(await gone('shared'), false, 'a tag still in use stays')
})

t.test('tags: Unicode slugs that never merge different names', async t => {
  const app = await build(t)
  const chef = await registerUser(app)
  const recipe = await createRecipe(app, chef, { title: 'Lunch', tags: ['寿司', '拉麺', '🍕', 'Recipe', 'Crème brûlée', 'recipe'] })
  t.same(recipe.tags.map((tag: { name: string, slug: string }) => [tag.name, tag.slug]).sort(), [
    ['Crème brûlée', 'creme-brulee'], ['Recipe', 'recipe'], ['拉麺', '拉麺'], ['寿司', '寿司'], ['🍕', '🍕']
  ].sort(), 'four scripts, four tags; "recipe" and "Recipe" are one')
  const sushi = await app.inject(`/api/tags/${encodeURIComponent('寿司')}/recipes`)
  t.equal(sushi.statusCode, 200)
  t.same(json(sushi).recipes.map((r: { id: string }) => r.id), [recipe.id])
})
