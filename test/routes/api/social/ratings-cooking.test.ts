import t from 'tap'
import { bearer, build, createRecipe, expectValidationError, json, registerUser, type TestUser } from '../../../helper.js'

t.test('ratings', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const [a, b] = [await registerUser(app), await registerUser(app)]
  const recipe = await createRecipe(app, author)
  const rate = (user: TestUser, rating: unknown, id = recipe.id) =>
    app.inject({ method: 'POST', url: `/api/ratings/recipes/${id}`, headers: bearer(user), payload: { rating } })

  t.same(json(await rate(a, 5)), { rating: 5, averageRating: 5, ratingCount: 1 })
  t.same(json(await rate(b, 2)), { rating: 2, averageRating: 3.5, ratingCount: 2 })
  t.same(json(await rate(a, 3)), { rating: 3, averageRating: 2.5, ratingCount: 2 }, 'rating again replaces yours')
  for (const bad of [0, 6, 2.5, 'five', null]) expectValidationError(t, await rate(a, bad), 'rating')

  const summary = json(await app.inject({ url: `/api/ratings/recipes/${recipe.id}`, headers: bearer(a) }))
  t.same(summary, { averageRating: 2.5, ratingCount: 2, userRating: 3, distribution: { 1: 0, 2: 1, 3: 1, 4: 0, 5: 0 } })
  t.equal(json(await app.inject(`/api/ratings/recipes/${recipe.id}`)).userRating, null, 'anonymous')
  t.match(json(await app.inject(`/api/recipes/${recipe.id}`)).recipe, { averageRating: 2.5, ratingCount: 2 }, 'recipe shows the same average')

  t.equal((await app.inject({ method: 'DELETE', url: `/api/ratings/recipes/${recipe.id}`, headers: bearer(a) })).statusCode, 200)
  t.match(json(await app.inject(`/api/ratings/recipes/${recipe.id}`)), { averageRating: 2, ratingCount: 1 })

  const hidden = await createRecipe(app, author, { visibility: 'private' })
  t.equal((await rate(a, 4, hidden.id)).statusCode, 404)
  t.equal((await app.inject(`/api/ratings/recipes/${hidden.id}`)).statusCode, 404)

  t.test('concurrent ratings stay exact', async t => {
    const fresh = await createRecipe(app, author)
    const raters = await Promise.all(Array.from({ length: 5 }, () => registerUser(app)))
    await Promise.all(raters.flatMap((u, i) => [rate(u, 1 + i, fresh.id), rate(u, 1 + i, fresh.id), rate(u, 5, fresh.id)]))
    const [row] = await app.sql`select rating_sum, rating_count, (select coalesce(sum(rating), 0)::int from ratings where recipe_id = ${fresh.id}) as real_sum,
      (select count(*)::int from ratings where recipe_id = ${fresh.id}) as real_count from recipes where id = ${fresh.id}`
    t.equal(row.rating_count, row.real_count)
    t.equal(row.rating_sum, row.real_sum)
    t.equal(row.rating_count, 5)
  })
})

t.test('cooked', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const cook = await registerUser(app)
  const first = await createRecipe(app, author, { title: 'First' })
  const second = await createRecipe(app, author, { title: 'Second' })
  const mark = (id: string, method: 'POST' | 'DELETE' = 'POST') =>
    app.inject({ method, url: `/api/cooking/recipes/${id}/cooked`, headers: bearer(cook) })

  t.same(json(await mark(first.id)), { cooked: true })
  t.same(json(await mark(first.id)), { cooked: true }, 'idempotent')
  await app.sql`update cooked_recipes set created_at = now() - interval '1 day' where recipe_id = ${first.id}`
  await mark(second.id)
  const history = json(await app.inject({ url: '/api/cooking/history', headers: bearer(cook) }))
  t.same(history.history.map((h: { recipe: { title: string } }) => h.recipe.title), ['Second', 'First'], 'most recent first')
  t.equal(history.pagination.total, 2)
  t.equal(json(await app.inject({ url: '/api/cooking/history', headers: bearer(author) })).pagination.total, 0, 'per user')

  await app.inject({ method: 'PATCH', url: `/api/recipes/${second.id}`, headers: bearer(author), payload: { visibility: 'private' } })
  t.equal(json(await app.inject({ url: '/api/cooking/history', headers: bearer(cook) })).pagination.total, 1, 'a recipe made private leaves the history')
  t.same(json(await mark(first.id, 'DELETE')), { cooked: false })
  t.equal((await mark(second.id)).statusCode, 404)
})
