// The listing's `total` (trigger-kept count, version-cached filtered counts, the cap) and search paging across its
// two phases (title matches, then ingredient-only matches).
import t from 'tap'
import { SMALL_SEARCH } from '../../../../plugins/app/repositories/hot/recipe-search.js'
import { LISTING_COUNT_CAP } from '../../../../plugins/app/services/listing-totals.js'
import { bearer, build, createRecipe, json, patchRecipe, registerUser } from '../../../helper.js'

t.test('the unfiltered total follows every write that changes the listing', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const bob = await registerUser(app)
  const total = async () => json(await app.inject('/api/recipes')).pagination.total
  const soup = await createRecipe(app, ann, { title: 'Soup' })
  await createRecipe(app, ann, { title: 'Stew' })
  const bobs = await createRecipe(app, bob, { title: 'Bread' })
  await createRecipe(app, ann, { title: 'Draft', published: false })
  await createRecipe(app, ann, { title: 'Secret', visibility: 'private' })
  t.equal(await total(), 3, 'drafts and private recipes are not counted')

  await patchRecipe(app, ann, soup.id, { visibility: 'friends' })
  t.equal(await total(), 2, 'a recipe leaving public visibility leaves the count')
  await patchRecipe(app, ann, soup.id, { visibility: 'public' })
  t.equal(await total(), 3)
  await app.db`update recipes set moderation_status = 'flagged' where id = ${soup.id}`
  t.equal(await total(), 2, 'moderation hides it from the count too')
  await app.db`update recipes set moderation_status = 'approved' where id = ${soup.id}`

  const like = await app.inject({ method: 'POST', url: `/api/social/recipes/${soup.id}/like`, headers: bearer(bob) })
  t.equal(like.statusCode, 200)
  const [{ version: before }] = await app.db`select version::text from recipe_listing`
  await app.inject({ method: 'DELETE', url: `/api/social/recipes/${soup.id}/like`, headers: bearer(bob) })
  const [{ version: after }] = await app.db`select version::text from recipe_listing`
  t.equal(after, before, 'counter updates (likes) do not move the listing version')

  await app.inject({ method: 'DELETE', url: `/api/recipes/${bobs.id}`, headers: bearer(bob) })
  t.equal(await total(), 2, 'a deleted recipe leaves the count')
  await app.db`delete from users where id = ${ann.id}`
  t.equal(await total(), 0, 'recipes removed with their author (cascade) leave the count')
  const [{ n }] = await app.db`select count(*)::int as n from recipes where published and visibility = 'public'`
  t.equal(n, 0)
})

t.test('filtered totals are cached per listing version and never stale', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const search = async (q: string) => json(await app.inject(`/api/recipes?search=${q}`)).pagination
  await createRecipe(app, ann, { title: 'Lemon tart' })
  await createRecipe(app, ann, { title: 'Cake', ingredients: ['1 lemon'] })
  t.match(await search('lemon'), { total: 2, totalExact: true })
  t.match(await search('LEMON%20'), { total: 2 }, 'case and spaces around the term do not matter')

  const third = await createRecipe(app, ann, { title: 'Lemonade', type: 'drink' })
  t.match(await search('lemon'), { total: 3 }, 'a new match counts at once')
  await patchRecipe(app, ann, third.id, { title: 'Orangeade' })
  t.match(await search('lemon'), { total: 2 }, 'a retitled recipe stops matching at once')
  t.match(json(await app.inject('/api/recipes?type=drink')).pagination, { total: 1 })
  await patchRecipe(app, ann, third.id, { type: 'food' })
  t.match(json(await app.inject('/api/recipes?type=drink')).pagination, { total: 0 }, 'filter fields move the version too')

  await createRecipe(app, ann, { title: 'Tagged', tags: ['citrus'] })
  t.match(json(await app.inject('/api/recipes?tag=citrus')).pagination, { total: 1 })
  const untagged = await createRecipe(app, ann, { title: 'Later' })
  await patchRecipe(app, ann, untagged.id, { tags: ['citrus'] })
  t.match(json(await app.inject('/api/recipes?tag=citrus')).pagination, { total: 2 }, 'tag changes move the version')
})

t.test('filtered totals stop at the cap and say so; hasNext stays exact', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  // Tests in this file share a database: count what is already there.
  const before = json(await app.inject('/api/recipes')).pagination.total
  await app.db`insert into recipes (id, author_id, slug, title)
    select 'bulk-' || g, ${ann.id}, 'bulk-' || g, 'Bulk pie ' || g from generate_series(1, ${LISTING_COUNT_CAP + 5}) g`
  const all = json(await app.inject('/api/recipes')).pagination
  t.match(all, { total: before + LISTING_COUNT_CAP + 5, totalExact: true }, 'the unfiltered count is exact at any size')
  const first = json(await app.inject('/api/recipes?search=pie&limit=50')).pagination
  t.same(first, { page: 1, limit: 50, total: LISTING_COUNT_CAP, totalPages: LISTING_COUNT_CAP / 50, hasNext: true, hasPrev: false, totalExact: false })
  const beyond = json(await app.inject(`/api/recipes?search=pie&limit=50&page=${LISTING_COUNT_CAP / 50 + 1}`))
  t.equal(beyond.recipes.length, 5, 'pages past the capped total still serve the rows')
  t.match(beyond.pagination, { hasNext: false, totalExact: false })
  const few = json(await app.inject('/api/recipes?search=pie%2010005')).pagination
  t.match(few, { total: 1, totalExact: true }, 'small filtered totals stay exact')
})

t.test('search pages: title matches first, then ingredient-only matches, across page boundaries', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  // Created oldest first, so newest-first order is the reverse within each phase.
  const titled = []
  for (let i = 1; i <= 5; i++) titled.push(await createRecipe(app, ann, { title: `Basil dish ${i}`, ingredients: ['salt'] }))
  const other = []
  for (let i = 1; i <= 4; i++) other.push(await createRecipe(app, ann, { title: `Pasta ${i}`, ingredients: ['fresh basil'] }))
  await createRecipe(app, ann, { title: 'Unrelated', ingredients: ['rice'] })
  const expected = [...titled.reverse(), ...other.reverse()].map(r => r.id)

  for (const limit of [1, 2, 3, 4, 5, 6, 9, 10]) {
    const seen: string[] = []
    for (let page = 1; ; page++) {
      const body = json(await app.inject(`/api/recipes?search=basil&limit=${limit}&page=${page}`))
      seen.push(...body.recipes.map((r: { id: string }) => r.id))
      t.equal(body.pagination.total, 9)
      if (!body.pagination.hasNext) break
      t.ok(page < 20, 'paging ends')
    }
    t.same(seen, expected, `limit ${limit}: every match once, title matches first`)
  }
  const past = json(await app.inject('/api/recipes?search=basil&limit=4&page=4'))
  t.same(past.recipes, [], 'a page past the end is empty')
  t.match(past.pagination, { hasNext: false, hasPrev: true, total: 9 })
  const oldest = json(await app.inject('/api/recipes?search=basil&sort=oldest&limit=6'))
  t.same(oldest.recipes.map((r: { id: string }) => r.id), [...expected.slice(0, 5).reverse(), expected.at(-1)], 'each phase keeps the sort')
})

t.test('searches past SMALL_SEARCH matches page the same way (a window of the newest first, then every match)', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const titled = 300
  const onlyIngredient = SMALL_SEARCH
  // The newest recipes match by ingredient only, so the window of the newest rows holds no title match.
  await app.db`insert into recipes (id, author_id, slug, title, ingredients_text, created_at)
    select 'fennel-' || lpad(g::text, 5, '0'), ${ann.id}, 'fennel-' || g,
      case when g <= ${titled} then 'Fennel gratin ' || g else 'Salad ' || g end,
      case when g <= ${titled} then 'salt' else '1 fennel bulb' end,
      now() - interval '1 day' + g * interval '1 second'
    from generate_series(1, ${titled + onlyIngredient}) g`
  const id = (g: number) => `fennel-${String(g).padStart(5, '0')}`
  const newest = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => id(to - i))
  const expected = [...newest(1, titled), ...newest(titled + 1, titled + onlyIngredient)]
  const page = async (query: string) => json(await app.inject(`/api/recipes?search=fennel&${query}`))

  const first = await page('limit=40')
  t.same(first.recipes.map((r: { id: string }) => r.id), expected.slice(0, 40), 'title matches first, though none is among the newest')
  t.match(first.pagination, { total: titled + onlyIngredient, totalExact: true, hasNext: true })
  const across = await page('limit=40&page=8')
  t.same(across.recipes.map((r: { id: string }) => r.id), expected.slice(280, 320), 'a page across the two phases')
  const last = await page(`limit=50&page=${(titled + onlyIngredient) / 50}`)
  t.same(last.recipes.map((r: { id: string }) => r.id), expected.slice(-50))
  t.equal(last.pagination.hasNext, false)
  const oldest = await page('limit=20&sort=oldest&page=15')
  t.same(oldest.recipes.map((r: { id: string }) => r.id), [...newest(1, titled).reverse(), ...newest(titled + 1, titled + onlyIngredient).reverse()].slice(280, 300))

  // A title match among the newest: the window holds page 1.
  await app.db`update recipes set title = 'Fennel soup' where id = any(${newest(titled + onlyIngredient - 59, titled + onlyIngredient)})`
  const windowed = await page('limit=12')
  t.same(windowed.recipes.map((r: { id: string }) => r.id), newest(titled + onlyIngredient - 11, titled + onlyIngredient))
  t.equal(windowed.pagination.hasNext, true)
})

t.test('a search alone reuses its statements across terms, offsets and viewers; with another filter it is built per request', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const bob = await registerUser(app)
  const ids = (body: Record<string, any>) => body.recipes.map((r: { id: string }) => r.id)
  // Past SMALL_SEARCH matches (the window of the newest), and a few matches (every match sorted), in turn.
  await app.db`insert into recipes (id, author_id, slug, title, ingredients_text, type, created_at)
    select 'leek-' || lpad(g::text, 5, '0'), ${ann.id}, 'leek-' || g, 'Leek pie ' || g, 'salt',
      case when g % 3 = 0 then 'drink' else 'food' end, now() - interval '1 day' + g * interval '1 second'
    from generate_series(1, ${SMALL_SEARCH + 200}) g`
  await app.db`insert into recipes (id, author_id, slug, title, ingredients_text, created_at)
    values ('sorrel-1', ${ann.id}, 'sorrel-1', 'Sorrel soup', 'salt', now()), ('sorrel-2', ${ann.id}, 'sorrel-2', 'Green sauce', '1 bunch sorrel', now())`
  await app.inject({ method: 'POST', url: '/api/social/recipes/leek-01200/like', headers: bearer(bob) })
  const id = (g: number) => `leek-${String(g).padStart(5, '0')}`
  const newest = (count: number, skip = 0, every = 1) =>
    Array.from({ length: SMALL_SEARCH + 200 }, (_, i) => SMALL_SEARCH + 200 - i).filter(g => g % every === 0).slice(skip, skip + count).map(id)

  for (const viewer of [undefined, bob, ann]) {
    const headers = viewer == null ? {} : bearer(viewer)
    const read = async (query: string) => json(await app.inject({ url: `/api/recipes?${query}`, headers }))
    const leeks = await read('search=leek&limit=10&page=3')
    t.same(ids(leeks), newest(10, 20), 'many matches: the window of the newest, at its offset')
    t.same(ids(await read('search=sorrel')), ['sorrel-1', 'sorrel-2'], 'few matches: title matches first')
    t.same(ids(await read('search=leek&limit=5')), newest(5), 'the first page of the same term after another term')
    const liked = (await read('search=leek&limit=1')).recipes[0]
    t.equal(liked.isLiked, viewer === bob, 'the viewer\'s own flags')
    t.same(ids(await read('search=leek&type=drink&limit=4&page=2')), newest(4, 4, 3), 'with a type filter: only its recipes, in order')
    t.same(ids(await read('search=sorrel&type=drink')), [], 'a filter no match passes')
  }
})
