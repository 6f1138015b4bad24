import type { LightMyRequestResponse } from 'fastify'
import t from 'tap'
import { bearer, befriend, build, createRecipe, eventually, expectValidationError, follow, json, notificationsOf, registerUser, type TestUser } from '../../../helper.js'

t.test('reports', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const reporter = await registerUser(app)
  const other = await registerUser(app)
  const recipe = await createRecipe(app, author)
  const hidden = await createRecipe(app, author, { visibility: 'private' })
  const postComment = async (recipeId: string) =>
    json(await app.inject({ method: 'POST', url: `/api/comments/recipe/${recipeId}`, headers: bearer(author), payload: { content: 'spam' } })).comment
  const comment = await postComment(recipe.id)
  const hiddenComment = await postComment(hidden.id)
  const report = (payload: Record<string, unknown>, user: TestUser = reporter) => app.inject({ method: 'POST', url: '/api/reports', headers: bearer(user), payload })

  const res = await report({ type: 'recipe', targetId: recipe.id, reason: '  Copied from a cookbook ', details: 'Page 12' })
  t.equal(res.statusCode, 201)
  t.match(json(res).report, { id: String, type: 'recipe', targetId: recipe.id, reason: 'Copied from a cookbook', details: 'Page 12', status: 'pending', createdAt: String })
  const duplicate = await report({ type: 'recipe', targetId: recipe.id, reason: 'again' })
  t.equal(duplicate.statusCode, 409, 'one open report per target')
  t.same(json(duplicate), { error: 'You have already reported this' })
  t.equal((await report({ type: 'recipe', targetId: recipe.id, reason: 'me too' }, other)).statusCode, 201, 'another reporter\'s report is their own')
  t.match(json(await report({ type: 'comment', targetId: comment.id, reason: 'spam' })).report, { type: 'comment', details: null })
  t.equal((await report({ type: 'user', targetId: author.id, reason: 'spammer' })).statusCode, 201)

  const missing = await report({ type: 'user', targetId: 'nobody', reason: 'x' })
  t.equal(missing.statusCode, 404, 'the target must exist')
  t.same(json(missing), { error: 'Reported item not found' })
  for (const [type, targetId, why] of [
    ['recipe', 'no-such-recipe', 'unknown recipe'],
    ['comment', 'no-such-comment', 'unknown comment'],
    ['recipe', hidden.id, 'a recipe the reporter cannot see'],
    ['comment', hiddenComment.id, 'a comment on a recipe the reporter cannot see'],
    ['user', recipe.id, 'an id of another kind']
  ]) {
    const r = await report({ type, targetId, reason: 'x' })
    t.equal(r.statusCode, 404, why)
    t.same(json(r), json(missing), `${why}: same answer as an unknown id`)
  }

  t.test('a banned user cannot be reported any more', async t => {
    const banned = await registerUser(app)
    // No admin API yet: ban directly.
    await app.db`update users set banned_at = now() where id = ${banned.id}`
    t.same(json(await report({ type: 'user', targetId: banned.id, reason: 'x' })), json(missing))
  })

  t.test('validation and authentication', async t => {
    expectValidationError(t, await report({ type: 'planet', targetId: recipe.id, reason: 'x' }), 'type')
    expectValidationError(t, await report({ type: 'recipe', targetId: recipe.id }), 'reason')
    expectValidationError(t, await report({ type: 'recipe', targetId: recipe.id, reason: '   ' }), 'reason')
    expectValidationError(t, await report({ type: 'recipe', targetId: recipe.id, reason: 'x'.repeat(201) }), 'reason')
    t.equal((await app.inject({ method: 'POST', url: '/api/reports', payload: { type: 'recipe', targetId: recipe.id, reason: 'x' } })).statusCode, 401)
  })
})

t.test('feed and new-recipe notifications', async t => {
  const app = await build(t)
  const reader = await registerUser(app)
  const friend = await registerUser(app)
  const chef = await registerUser(app)
  const stranger = await registerUser(app)
  await follow(app, reader, chef)
  await befriend(app, reader, friend)

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

  // The feed's JSON is written by PostgreSQL: each entry is the recipe as its detail shows it to the same reader.
  const [newest] = json(await app.inject({ url: '/api/feed?limit=1', headers: bearer(reader) })).recipes
  t.equal((await app.inject({ method: 'POST', url: `/api/social/recipes/${newest.id as string}/like`, headers: bearer(reader) })).statusCode, 200)
  const liked = json(await app.inject({ url: '/api/feed?limit=1', headers: bearer(reader) })).recipes[0]
  t.same(liked, json(await app.inject({ url: `/api/recipes/${newest.id as string}`, headers: bearer(reader) })).recipe, 'feed entry = detail')
  t.equal(liked.isLiked, true, 'with the reader\'s own flags')
  t.equal(liked.likeCount, 1)

  // New-recipe notifications are a queued job, handled in order: once the last recipe's has arrived, every earlier
  // one has been handled too, so what is missing now will not come.
  await createRecipe(app, chef, { title: 'Chef last' })
  const titles = async (user: TestUser) =>
    (await notificationsOf(app, user, 'new_recipe')).map(n => /"(.*)"$/.exec(n.message)?.[1]).sort()
  await eventually(async () => (await titles(reader)).includes('Chef last'))
  t.same(await titles(reader), ['Chef 0', 'Chef 1', 'Chef 2', 'Chef 3', 'Chef 4', 'Chef last', 'Friends only'],
    'one per recipe the follower may see, none for the private or friends-only recipes of a one-way follow')
  t.same(await notificationsOf(app, stranger), [], 'nobody else\'s recipes reach someone who follows nobody')
  t.same(await titles(friend), [], 'the reader published nothing')
})

t.test('the feed finds followed recipes behind a thousand newer ones by others', async t => {
  const app = await build(t)
  const reader = await registerUser(app)
  const chef = await registerUser(app)
  const prolific = await registerUser(app)
  await follow(app, reader, chef)
  for (let i = 0; i < 3; i++) await createRecipe(app, chef, { title: `Chef ${i}` })
  // Newer than every recipe of the chef: the newest-recipes window holds none of the reader's.
  await app.db`insert into recipes (id, author_id, slug, title, created_at)
    select 'newer-' || g, ${prolific.id}, 'newer-' || g, 'Newer ' || g, now() + g * interval '1 second' from generate_series(1, 1500) g`
  const first = json(await app.inject({ url: '/api/feed?limit=2', headers: bearer(reader) }))
  t.same(first.recipes.map((r: { title: string }) => r.title), ['Chef 2', 'Chef 1'])
  const rest = json(await app.inject({ url: `/api/feed?limit=2&cursor=${first.nextCursor}`, headers: bearer(reader) }))
  t.same(rest.recipes.map((r: { title: string }) => r.title), ['Chef 0'])
  t.equal(rest.nextCursor, null)

  await follow(app, reader, prolific)
  const mixed = json(await app.inject({ url: '/api/feed?limit=3', headers: bearer(reader) }))
  t.same(mixed.recipes.map((r: { title: string }) => r.title), ['Newer 1500', 'Newer 1499', 'Newer 1498'], 'a dense feed is served from the window')
})
