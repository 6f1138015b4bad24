import t from 'tap'
import { bearer, build, createRecipe, expectValidationError, json, notificationsOf, patchRecipe, registerUser, type TestUser } from '../../../helper.js'

t.test('ratings', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const [a, b, c] = [await registerUser(app), await registerUser(app), await registerUser(app)]
  const recipe = await createRecipe(app, author, { title: 'Stew' })
  const rate = (user: TestUser, rating: unknown, id = recipe.id) =>
    app.inject({ method: 'POST', url: `/api/ratings/recipes/${id}`, headers: bearer(user), payload: { rating } })
  const unrate = (user: TestUser, id = recipe.id) => app.inject({ method: 'DELETE', url: `/api/ratings/recipes/${id}`, headers: bearer(user) })
  const summary = async (user: TestUser | null, id = recipe.id) =>
    json(await app.inject({ url: `/api/ratings/recipes/${id}`, headers: user == null ? {} : bearer(user) }))
  const unknown = await unrate(a, 'no-such-recipe')

  t.same(json(await rate(a, 5)), { rating: 5, averageRating: 5, ratingCount: 1 })
  t.same(json(await rate(b, 2)), { rating: 2, averageRating: 3.5, ratingCount: 2 })
  t.same(json(await rate(a, 3)), { rating: 3, averageRating: 2.5, ratingCount: 2 }, 'rating again replaces yours')
  for (const bad of [0, 6, 2.5, 'five', null]) expectValidationError(t, await rate(a, bad), 'rating')

  t.same(await summary(a), { averageRating: 2.5, ratingCount: 2, userRating: 3, distribution: { 1: 0, 2: 1, 3: 1, 4: 0, 5: 0 } })
  t.equal((await summary(null)).userRating, null, 'anonymous')
  t.match(json(await app.inject(`/api/recipes/${recipe.id}`)).recipe, { averageRating: 2.5, ratingCount: 2 }, 'recipe shows the same average')

  const own = await rate(author, 5)
  t.equal(own.statusCode, 403, 'an author cannot rate their own recipe')
  t.same(json(own), { error: 'You cannot rate your own recipe' })
  t.match(await summary(author), { ratingCount: 2, userRating: null }, 'and nothing was counted')

  const raters = (await notificationsOf(app, author, 'rating')).filter(n => n.recipeId === recipe.id)
  t.same(raters.map(n => n.actor.id).sort(), [a.id, b.id].sort(), 'one notification per rater (changing a rating does not notify again)')
  t.match(raters.find(n => n.actor.id === a.id), { message: `${a.username} rated your recipe "Stew"`, data: { rating: 5 } })

  t.test('another user cannot remove my rating', async t => {
    const res = await unrate(c)
    t.equal(res.statusCode, 200, 'removing a rating you do not have is harmless')
    t.match(await summary(b), { ratingCount: 2, userRating: 2 }, 'b\'s rating is still there')
  })

  t.test('remove your rating', async t => {
    const res = await unrate(a)
    t.equal(res.statusCode, 200)
    t.same(json(res), { message: 'Rating removed' })
    t.match(await summary(a), { averageRating: 2, ratingCount: 1, userRating: null, distribution: { 2: 1, 3: 0 } })
    t.equal((await unrate(a)).statusCode, 200, 'repeating is harmless')
  })

  t.test('recipes the caller cannot see', async t => {
    const hidden = await createRecipe(app, author, { visibility: 'private' })
    t.equal((await rate(a, 4, hidden.id)).statusCode, 404)
    t.equal((await app.inject(`/api/ratings/recipes/${hidden.id}`)).statusCode, 404)
    t.equal((await app.inject({ url: `/api/ratings/recipes/${hidden.id}`, headers: bearer(a) })).statusCode, 404)
    t.equal((await rate(a, 4, 'no-such-recipe')).statusCode, 404)
    t.equal(unknown.statusCode, 404)
    t.same(json(unknown), { error: 'Recipe not found' })
  })

  t.test('#20 a rating of a recipe turned private can still be removed', async t => {
    const fresh = await createRecipe(app, author)
    await rate(a, 4, fresh.id)
    await patchRecipe(app, author, fresh.id, { visibility: 'private' })
    const res = await unrate(a, fresh.id)
    t.equal(res.statusCode, 200)
    t.same(json(res), { message: 'Rating removed' }, 'nothing about the recipe')
    t.match(await summary(author, fresh.id), { ratingCount: 0, averageRating: 0 }, 'the totals dropped with it')
    const again = await unrate(a, fresh.id)
    t.equal(again.statusCode, 404, 'nothing left to remove')
    t.same(json(again), json(unknown), 'same answer as an unknown id')
    t.same(json(await unrate(c, fresh.id)), json(unknown), 'never rated it')
  })

  t.test('concurrent ratings stay exact', async t => {
    const fresh = await createRecipe(app, author)
    const many = await Promise.all(Array.from({ length: 5 }, async () => await registerUser(app)))
    const results = await Promise.all(many.flatMap((u, i) => [rate(u, 1 + i, fresh.id), rate(u, 1 + i, fresh.id), rate(u, 5, fresh.id)]))
    t.same([...new Set(results.map(r => r.statusCode))], [200], 'no 500')
    // The distribution counts the rating rows; the count and average come from the recipe's running totals.
    const { ratingCount, averageRating, distribution } = await summary(author, fresh.id)
    const stars = Object.entries<number>(distribution)
    const rows = stars.reduce((n, [, count]) => n + count, 0)
    const sum = stars.reduce((n, [star, count]) => n + Number(star) * count, 0)
    t.equal(ratingCount, 5)
    t.equal(rows, 5)
    t.equal(averageRating, Math.round((sum / rows) * 100) / 100)
    for (const [i, u] of many.entries()) t.ok([1 + i, 5].includes((await summary(u, fresh.id)).userRating), 'each rater has one of the ratings they sent')
  })
})

t.test('cooked', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const cook = await registerUser(app)
  const other = await registerUser(app)
  const first = await createRecipe(app, author, { title: 'First' })
  const second = await createRecipe(app, author, { title: 'Second' })
  const mark = (id: string, method: 'POST' | 'DELETE' = 'POST', user = cook) =>
    app.inject({ method, url: `/api/cooking/recipes/${id}/cooked`, headers: bearer(user) })
  const history = async (user: TestUser, query = '') => json(await app.inject({ url: `/api/cooking/history${query}`, headers: bearer(user) }))
  const titles = async (user: TestUser) => (await history(user)).history.map((h: { recipe: { title: string } }) => h.recipe.title)
  const unknown = await mark('no-such-recipe', 'DELETE')

  t.same(json(await mark(first.id)), { cooked: true })
  t.same(json(await mark(second.id)), { cooked: true })
  t.same(json(await mark(first.id)), { cooked: true }, 'idempotent')
  t.same(await titles(cook), ['Second', 'First'], 'most recent first; marking again keeps the first date')
  const page = await history(cook, '?limit=1')
  t.equal(page.history.length, 1)
  t.match(page.pagination, { total: 2, totalPages: 2, hasNext: true })
  t.match(page.history[0], { cookedAt: String, recipe: { id: second.id, author: { id: author.id } } })

  t.equal((await mark('no-such-recipe')).statusCode, 404)
  t.equal(unknown.statusCode, 404)
  t.same(json(unknown), { error: 'Recipe not found' })
  const hidden = await createRecipe(app, author, { visibility: 'private' })
  t.equal((await mark(hidden.id)).statusCode, 404, 'a recipe the caller cannot see')
  for (const [method, url] of [['POST', `/api/cooking/recipes/${first.id}/cooked`], ['DELETE', `/api/cooking/recipes/${first.id}/cooked`], ['GET', '/api/cooking/history']] as const) {
    t.equal((await app.inject({ method, url })).statusCode, 401, `${method} ${url} needs a user`)
  }

  t.test('another user cannot read or remove my marks', async t => {
    t.same(await titles(other), [], 'their history is their own')
    t.equal((await history(author)).pagination.total, 0, 'the author sees only their own too')
    t.same(json(await mark(first.id, 'DELETE', other)), { cooked: false }, 'removing a mark you do not have is harmless')
    t.same(await titles(cook), ['Second', 'First'], 'mine are untouched')
  })

  t.test('#20 a mark on a recipe turned private leaves the history and can still be removed', async t => {
    await patchRecipe(app, author, second.id, { visibility: 'private' })
    t.same(await titles(cook), ['First'], 'a recipe the cook can no longer see leaves the history')
    t.same(json(await mark(second.id, 'DELETE')), { cooked: false })
    const again = await mark(second.id, 'DELETE')
    t.equal(again.statusCode, 404, 'nothing left to remove')
    t.same(json(again), json(unknown), 'same answer as an unknown id')
    t.same(json(await mark(second.id, 'DELETE', other)), json(unknown), 'never marked it')
    t.equal((await mark(second.id)).statusCode, 404, 'cannot mark it again')
    await patchRecipe(app, author, second.id, { visibility: 'public' })
    t.same(await titles(cook), ['First'], 'the mark was really removed')
  })

  t.test('remove a mark', async t => {
    t.same(json(await mark(first.id, 'DELETE')), { cooked: false })
    t.same(json(await mark(first.id, 'DELETE')), { cooked: false }, 'repeating is harmless')
    t.same(await titles(cook), [])
  })
})
