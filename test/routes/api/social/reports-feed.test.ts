import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import t from 'tap'
import { bearer, build, createRecipe, eventually, expectValidationError, json, registerUser, type TestUser } from '../../../helper.js'

const follow = (app: FastifyInstance, a: TestUser, b: TestUser) => app.inject({ method: 'POST', url: `/api/social/users/${b.id}/follow`, headers: bearer(a) })

t.test('reports', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const reporter = await registerUser(app)
  const recipe = await createRecipe(app, author)
  const hidden = await createRecipe(app, author, { visibility: 'private' })
  const comment = json(await app.inject({ method: 'POST', url: `/api/comments/recipe/${recipe.id}`, headers: bearer(author), payload: { content: 'spam' } })).comment
  const report = (payload: Record<string, unknown>) => app.inject({ method: 'POST', url: '/api/reports', headers: bearer(reporter), payload })

  const res = await report({ type: 'recipe', targetId: recipe.id, reason: 'Copied from a cookbook', details: 'Page 12' })
  t.equal(res.statusCode, 201)
  t.match(json(res).report, { type: 'recipe', targetId: recipe.id, status: 'pending' })
  t.equal((await report({ type: 'recipe', targetId: recipe.id, reason: 'again' })).statusCode, 409, 'one open report per target')
  t.equal((await report({ type: 'comment', targetId: comment.id, reason: 'spam' })).statusCode, 201)
  t.equal((await report({ type: 'user', targetId: author.id, reason: 'spammer' })).statusCode, 201)
  t.equal((await report({ type: 'user', targetId: 'nobody', reason: 'x' })).statusCode, 404, 'the target must exist')
  t.equal((await report({ type: 'recipe', targetId: hidden.id, reason: 'x' })).statusCode, 404, 'and be visible')
  expectValidationError(t, await report({ type: 'planet', targetId: recipe.id, reason: 'x' }), 'type')
  expectValidationError(t, await report({ type: 'recipe', targetId: recipe.id }), 'reason')
  t.equal((await app.inject({ method: 'POST', url: '/api/reports', payload: { type: 'recipe', targetId: recipe.id, reason: 'x' } })).statusCode, 401)
})

t.test('feed and new-recipe notifications', async t => {
  const app = await build(t)
  const reader = await registerUser(app)
  const friend = await registerUser(app)
  const chef = await registerUser(app)
  const stranger = await registerUser(app)
  await follow(app, reader, chef)
  await follow(app, reader, friend)
  await follow(app, friend, reader)

  for (let i = 0; i < 5; i++) await createRecipe(app, chef, { title: `Chef ${i}` })
  await createRecipe(app, friend, { title: 'Friends only', visibility: 'friends' })
  await createRecipe(app, chef, { title: 'Chef private', visibility: 'private' })
  await createRecipe(app, chef, { title: 'Chef friends', visibility: 'friends' })
  await createRecipe(app, stranger, { title: 'Not followed' })

  const seen: string[] = []
  let cursor: string | null = null
  do {
    const res: LightMyRequestResponse = await app.inject({ url: `/api/feed?limit=2${cursor == null ? '' : `&cursor=${cursor}`}`, headers: bearer(reader) })
    t.equal(res.statusCode, 200)
    const page: { recipes: Array<{ title: string }>, nextCursor: string | null } = json(res)
    t.ok(page.recipes.length <= 2)
    seen.push(...page.recipes.map((r: { title: string }) => r.title))
    cursor = page.nextCursor
  } while (cursor != null)
  t.same(seen, ['Friends only', 'Chef 4', 'Chef 3', 'Chef 2', 'Chef 1', 'Chef 0'], 'followed, visible, newest first, each once')
  expectValidationError(t, await app.inject({ url: '/api/feed?cursor=garbage', headers: bearer(reader) }), 'cursor')
  t.equal((await app.inject('/api/feed')).statusCode, 401)

  const notified = await eventually(async () => {
    const rows = await app.sql`select message from notifications where user_id = ${reader.id} and type = 'new_recipe' order by created_at`
    return rows.length >= 6 && rows
  })
  await new Promise(resolve => setTimeout(resolve, 100))
  const messages = (await app.sql`select message from notifications where user_id = ${reader.id} and type = 'new_recipe'`).map(r => r.message)
  t.equal(messages.length, 6, 'one per recipe the follower may see')
  t.notOk(messages.some(m => m.includes('Chef private') || m.includes('Chef friends')), 'none for recipes the follower cannot see')
  t.ok(notified.length >= 6)
  t.equal((await app.sql`select count(*)::int as n from notifications where user_id = ${stranger.id}`)[0].n, 0)
})
