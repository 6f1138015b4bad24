import t from 'tap'
import { bearer, build, createRecipe, expectValidationError, json, registerUser, type TestUser } from '../../../helper.js'

t.test('list, filters, sorting, search', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const bob = await registerUser(app)
  const soup = await createRecipe(app, ann, { title: 'Tomato soup', ingredients: ['4 tomatoes', '1 onion'], type: 'food', difficulty: 'easy', cuisine: 'Italian', prepTime: 10, cookTime: 20, tags: ['soup'] })
  const salad = await createRecipe(app, ann, { title: 'Greek salad', ingredients: ['2 tomatoes', 'feta 100% sheep'], type: 'food', difficulty: 'easy', cuisine: 'greek', prepTime: 15 })
  const mojito = await createRecipe(app, bob, { title: 'Mojito', ingredients: ['mint', 'lime', 'rum'], type: 'drink', difficulty: 'medium', cuisine: 'Cuban', totalTime: 5 })
  const stew = await createRecipe(app, bob, { title: 'Tomato_stew slow', ingredients: ['beef'], difficulty: 'hard', totalTime: 240 })
  const untimed = await createRecipe(app, bob, { title: 'Untimed toast', ingredients: ['bread'] })
  const fans = await Promise.all([0, 1].map(async () => await registerUser(app)))
  for (const fan of fans) await app.inject({ method: 'POST', url: `/api/social/recipes/${mojito.id}/like`, headers: bearer(fan) })
  const rate = async (user: TestUser, id: string, rating: number) =>
    await app.inject({ method: 'POST', url: `/api/ratings/recipes/${id}`, headers: bearer(user), payload: { rating } })
  await rate(fans[0], salad.id, 5)
  await rate(fans[1], salad.id, 4)
  await rate(fans[0], soup.id, 3)

  const ids = async (qs: string) => json(await app.inject(`/api/recipes?${qs}`)).recipes.map((r: { id: string }) => r.id)

  const page = json(await app.inject('/api/recipes'))
  t.same(page.pagination, { page: 1, limit: 12, total: 5, totalPages: 1, hasNext: false, hasPrev: false, totalExact: true })
  t.same(page.recipes.map((r: { id: string }) => r.id), [untimed.id, stew.id, mojito.id, salad.id, soup.id], 'newest first by default')
  t.same(await ids('sort=oldest'), [soup.id, salad.id, mojito.id, stew.id, untimed.id])
  t.same((await ids('sort=popular'))[0], mojito.id)
  t.same((await ids('sort=rating')).slice(0, 2), [salad.id, soup.id], 'by average rating')
  t.same(await ids('sort=title'), [salad.id, mojito.id, soup.id, stew.id, untimed.id])
  const second = json(await app.inject('/api/recipes?limit=3&page=2'))
  t.same(second.pagination, { page: 2, limit: 3, total: 5, totalPages: 2, hasNext: false, hasPrev: true, totalExact: true })
  t.equal(second.recipes.length, 2)

  t.same(await ids('type=drink'), [mojito.id])
  t.same((await ids('difficulty=easy')).sort(), [soup.id, salad.id].sort())
  t.same(await ids('cuisine=GREEK'), [salad.id], 'cuisine is case-insensitive')
  t.same(await ids('tag=soup'), [soup.id])
  t.same((await ids(`author=${bob.username.toUpperCase()}`)).sort(), [mojito.id, stew.id, untimed.id].sort())
  t.same((await ids('maxTime=20')).sort(), [salad.id, mojito.id].sort(), 'maxTime uses total time (prep + cook when no total); no time set: left out')

  t.same(await ids('search=TOMATO'), [stew.id, soup.id, salad.id], 'title matches first, then ingredient matches')
  t.same(await ids('search=mint'), [mojito.id], 'ingredients are searched')
  t.same(await ids('search=100%25'), [salad.id], '% is literal')
  t.same(await ids('search=o_s'), [stew.id], '_ is literal (as a wildcard it would also match "tomato soup")')
  t.same(await ids('search=tomato_'), [stew.id])
  t.same(await ids(`search=${encodeURIComponent("'; drop table recipes; --")}`), [], 'SQL in a search is just text')
  t.same(await ids(`search=${encodeURIComponent('"quoted" \\ back')}`), [])
  t.equal(json(await app.inject('/api/recipes')).pagination.total, 5, 'table still there')

  expectValidationError(t, await app.inject('/api/recipes?limit=51'), 'limit')
  expectValidationError(t, await app.inject('/api/recipes?limit=0'), 'limit')
  expectValidationError(t, await app.inject('/api/recipes?page=0'), 'page')
  expectValidationError(t, await app.inject('/api/recipes?page=abc'), 'page')
  expectValidationError(t, await app.inject(`/api/recipes?sort=${encodeURIComponent('createdAt;DROP TABLE recipes')}`), 'sort')
  expectValidationError(t, await app.inject('/api/recipes?type=snack'), 'type')
  t.equal(json(await app.inject('/api/recipes?limit=50')).pagination.limit, 50)

  t.test('per-caller flags', async t => {
    await app.inject({ method: 'POST', url: `/api/social/recipes/${soup.id}/like`, headers: bearer(bob) })
    await app.inject({ method: 'POST', url: `/api/bookmarks/${soup.id}`, headers: bearer(bob) })
    await rate(bob, soup.id, 4)
    const asBob = json(await app.inject({ url: '/api/tags/soup/recipes', headers: bearer(bob) })).recipes[0]
    t.match(asBob, { isLiked: true, isBookmarked: true, userRating: 4 })
    const asAnn = json(await app.inject({ url: '/api/tags/soup/recipes', headers: bearer(ann) })).recipes[0]
    t.match(asAnn, { isLiked: false, isBookmarked: false, userRating: null })
    t.equal((await app.inject('/api/tags/no-such-tag/recipes')).statusCode, 404)
  })
})

t.test('search redirects', async t => {
  const app = await build(t)
  const first = await app.inject(`/api/search?q=${encodeURIComponent('crème brûlée & co')}`)
  t.equal(first.statusCode, 302)
  t.equal(first.headers.location, `/api/search/recipes?q=${encodeURIComponent('crème brûlée & co')}`)
  const second = await app.inject(first.headers.location as string)
  t.equal(second.statusCode, 302)
  t.equal(second.headers.location, `/api/recipes?search=${encodeURIComponent('crème brûlée & co')}`)
  t.equal((await app.inject('/api/search?query=pie')).headers.location, '/api/search/recipes?q=pie', 'query is an alias of q')
  const final = await app.inject(second.headers.location as string)
  t.equal(final.statusCode, 200)
})

t.test('search can use the trigram indexes', async t => {
  const app = await build(t)
  const plan = async (query: string) => {
    const rows = await app.transaction(async tx => {
      // On a nearly empty table the planner prefers a scan; forbid it to see whether the index applies at all.
      await tx`set local enable_seqscan = off`
      return await tx.unsafe<Array<Record<string, string>>>(`explain ${query}`)
    })
    return rows.map(r => Object.values(r).join('')).join('\n')
  }
  t.match(await plan("select id from recipes where lower(title) like '%tomato%'"), /recipes_title_trgm_idx/)
  t.match(await plan("select id from recipes where ingredients_text like '%tomato%'"), /recipes_ingredients_trgm_idx/)
  t.match(await plan("select id from users where username_key like '%chef%'"), /users_username_trgm_idx/)
})
