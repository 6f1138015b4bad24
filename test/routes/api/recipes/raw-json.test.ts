// The listing, its search and a tag's recipes are sent as JSON text PostgreSQL writes (recipeJson in
// repositories/recipe-rows.ts), every other recipe (the detail among them) as mapRecipe's object through the
// response serializer. Both must be the same recipe, key for key, for every viewer.
import t from 'tap'
import { byIdsJson } from '../../../../plugins/app/repositories/hot/recipe-pages.js'
import { averageRating } from '../../../../lib/ratings.js'
import { bearer, build, createRecipe, json, registerUser } from '../../../helper.js'

t.test('the recipe PostgreSQL writes equals mapRecipe\'s, for the author, another user and anonymous', async t => {
  const app = await build(t)
  const [ann, bob, cy, dee] = [await registerUser(app), await registerUser(app), await registerUser(app), await registerUser(app)]
  const plain = await createRecipe(app, ann, { title: 'Plain', ingredients: ['salt'] })
  const rich = await createRecipe(app, ann, {
    title: 'Crème "brûlée" \\ <b>&</b> 🍮',
    description: 'Line one\nline two\ttabbed \u0001 control',
    type: 'food',
    difficulty: 'hard',
    cuisine: 'Française',
    prepTime: 20,
    cookTime: 45,
    servings: 6,
    ingredients: ['For the custard:', '1 1/2 cups cream', '2-3 egg yolks, beaten', { name: 'sugar', quantity: 0.25, unit: 'cup' }],
    instructions: ['Heat the cream.', { text: 'Whisk the yolks.', section: 'Custard' }],
    nutrition: { calories: 420.5, fat: { total: 30, saturated: 18 }, note: 'per ramekin' },
    tags: ['Dessert', 'Français', 'zz-last'],
    sourceUrl: 'https://example.com/creme'
  })
  t.equal((await app.inject({ method: 'POST', url: `/api/social/recipes/${rich.id}/like`, headers: bearer(bob) })).statusCode, 200)
  t.equal((await app.inject({ method: 'POST', url: `/api/bookmarks/${rich.id}`, headers: bearer(bob) })).statusCode, 201)
  for (const [user, rating] of [[bob, 5], [cy, 4], [dee, 4]] as const) {
    t.equal((await app.inject({ method: 'POST', url: `/api/ratings/recipes/${rich.id}`, headers: bearer(user), payload: { rating } })).statusCode, 200)
  }
  // Microseconds PostgreSQL keeps and a Date drops (to_char must truncate them the same way).
  await app.db`update recipes set updated_at = '2026-03-04 05:06:07.999999+00' where id = ${plain.id}`

  for (const viewer of [ann, bob, cy, null]) {
    const viewerId = viewer?.id ?? null
    const who = viewer == null ? 'anonymous' : viewer.username
    for (const id of [plain.id, rich.id]) {
      const written = JSON.parse((await byIdsJson(app.db, [id], viewerId)).text)
      const mapped = await app.recipesRepository.find(app.db, id, viewerId)
      t.strictSame(written, [mapped], `${who}: recipe ${id} is the same object`)
    }
    const res = await app.inject({ url: '/api/recipes?sort=oldest', headers: viewer == null ? {} : bearer(viewer) })
    t.equal(res.headers['content-type'], 'application/json; charset=utf-8')
    const listed = json(res)
    t.strictSame(listed.recipes, [await app.recipesRepository.find(app.db, plain.id, viewerId), await app.recipesRepository.find(app.db, rich.id, viewerId)],
      `${who}: the listing sends the same recipes, in order`)
    t.strictSame(Object.keys(listed), ['recipes', 'pagination'])
    t.match(listed.pagination, { page: 1, total: 2, hasNext: false, totalExact: true })
  }
  const bobsView = json(await app.inject({ url: '/api/recipes?search=brûlée', headers: bearer(bob) })).recipes[0]
  t.match(bobsView, { isLiked: true, isBookmarked: true, userRating: 5, averageRating: 4.33, ratingCount: 3, likeCount: 1 }, 'the viewer\'s own flags')
  t.match(json(await app.inject({ url: '/api/recipes?search=cream', headers: bearer(cy) })).recipes, [{ id: rich.id, isLiked: false, isBookmarked: false, userRating: 4 }],
    'another viewer sees their own (found by an ingredient)')
  t.same(bobsView.tags.map((tag: { name: string }) => tag.name), ['Dessert', 'Français', 'zz-last'])

  const byTag = json(await app.inject({ url: '/api/tags/dessert/recipes', headers: bearer(bob) }))
  t.strictSame(byTag.recipes, [bobsView], 'a tag\'s recipes are the same recipe')
  t.match(byTag.tag, { slug: 'dessert' })

  const empty = await app.inject('/api/recipes?search=nothing-matches-this')
  t.strictSame(json(empty).recipes, [], 'an empty page is an empty array')
  t.strictSame(JSON.parse((await byIdsJson(app.db, ['no-such-recipe', plain.id], null)).text).map((r: { id: string }) => r.id), [plain.id],
    'ids no longer there are left out')
  await app.inject({ method: 'PATCH', url: `/api/recipes/${rich.id}`, headers: bearer(ann), payload: { visibility: 'private' } })
  t.same(json(await app.inject({ url: '/api/recipes', headers: bearer(ann) })).recipes.map((r: { id: string }) => r.id), [plain.id],
    'a private recipe is not listed, even to its author')
})

t.test('averageRating rounds exactly as PostgreSQL does, halves up', async t => {
  const app = await build(t)
  const rows = await app.db<Array<{ sum: number, count: number, rounded: number }>>`
    select s as sum, c as count, round(s::numeric / c, 2)::float8 as rounded
    from generate_series(1, 400) c cross join generate_series(c, 5 * c, 7) s`
  const differing = rows.filter(row => averageRating(row.sum, row.count) !== row.rounded)
  t.ok(rows.length > 10000, `${rows.length} sums and counts`)
  t.same(differing, [], 'no sum and count rounds differently')
  t.equal(averageRating(201, 200), 1.01, 'a half rounds up (the float 201 / 200 * 100 is 100.4999...)')
  t.equal(averageRating(0, 0), 0)
})

t.test('page 1 of the listing (one statement) and the pages after it (ids first) cut one order, for every sort', async t => {
  const app = await build(t)
  const [ann, bob] = [await registerUser(app), await registerUser(app)]
  const titles = ['Bean stew', 'apple pie', 'Corn bread', 'Dal', 'egg fried rice']
  const made = []
  for (const [i, title] of titles.entries()) made.push(await createRecipe(app, i % 2 === 0 ? ann : bob, { title }))
  await app.inject({ method: 'POST', url: `/api/social/recipes/${made[3].id}/like`, headers: bearer(ann) })
  await app.inject({ method: 'POST', url: `/api/ratings/recipes/${made[0].id}`, headers: bearer(bob), payload: { rating: 5 } })
  const ids = (body: Record<string, any>): string[] => body.recipes.map((r: { id: string }) => r.id)
  for (const sort of ['newest', 'oldest', 'popular', 'rating', 'title']) {
    // The first test's public recipe is listed too (one database per file): six in all.
    const all = json(await app.inject(`/api/recipes?sort=${sort}&limit=50`))
    t.equal(all.recipes.length, titles.length + 1)
    const pages = []
    for (const page of [1, 2, 3]) pages.push(json(await app.inject({ url: `/api/recipes?sort=${sort}&limit=2&page=${page}`, headers: bearer(bob) })))
    t.strictSame(pages.flatMap(ids), ids(all), `${sort}: pages of 2 cut the order of one page of 50`)
    t.same(pages.map(p => [p.pagination.hasNext, p.pagination.total, p.pagination.totalPages]), [[true, 6, 3], [true, 6, 3], [false, 6, 3]], `${sort}: hasNext and totals`)
  }
  t.strictSame(ids(json(await app.inject('/api/recipes?sort=title&limit=3'))), [made[1].id, made[0].id, made[2].id], 'titles sort case-insensitively')
  t.strictSame(ids(json(await app.inject('/api/recipes?sort=popular&limit=1'))), [made[3].id], 'the liked recipe leads the popular page')
})
