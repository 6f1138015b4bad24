// The anonymous detail is served from a kept copy (plugins/app/services/recipe-view-cache.ts). It must never be older
// than a write its reader could know of: the writer's own answer, another instance after it has heard the change, and
// every kind of change (counters, edits, moderation, tags, the author's profile, deletion).
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { bearer, build, createRecipe, json, registerUser } from '../../../helper.js'

/** The recipe as anonymous visitors get it. */
async function anonymous (app: FastifyInstance, id: string) {
  const res = await app.inject({ url: `/api/recipes/${id}` })
  return { status: res.statusCode, recipe: res.statusCode === 200 ? json(res).recipe : null, type: res.headers['content-type'] }
}

/** Until the instance listens (it starts listening beside ready(), not before it). */
async function listening (app: FastifyInstance): Promise<void> {
  for (let i = 0; i < 500 && !app.recipeViewCache.listening; i++) await new Promise(resolve => setTimeout(resolve, 10))
  if (!app.recipeViewCache.listening) throw new Error('the recipe cache never listened')
}

/**
 * Reads until the copy is kept, and says whether it was: a render overlapping any announcement (the recipe's own
 * creation may still be arriving) is answered but not kept.
 */
async function kept (app: FastifyInstance, id: string): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    await anonymous(app, id)
    let reads = 0
    await app.recipeViewCache.anonymous(id, async () => { reads++; return await fromDatabase(app, id) })
    if (reads === 0) return true
  }
  return false
}

/** The database copy of the view, read the way a miss reads it. */
const fromDatabase = async (app: FastifyInstance, id: string, viewerId: string | null = null) => await app.recipesRepository.find(app.db, id, viewerId)

t.test('a copy is kept, sent as the same recipe, and every write through the API is seen by the next read', async t => {
  const app = await build(t)
  await listening(app)
  const [ann, bob] = [await registerUser(app), await registerUser(app)]
  const recipe = await createRecipe(app, ann, { title: 'Kept soup', ingredients: ['water'], tags: ['Soup'] })

  const first = await anonymous(app, recipe.id)
  t.equal(first.type, 'application/json; charset=utf-8')
  t.strictSame(first.recipe, await fromDatabase(app, recipe.id), 'the same object the repository maps')
  t.ok(await kept(app, recipe.id), 'a copy is kept')

  const steps: Array<[string, () => Promise<unknown>, (view: Record<string, any>) => void]> = [
    ['a like', async () => await app.inject({ method: 'POST', url: `/api/social/recipes/${recipe.id}/like`, headers: bearer(bob) }),
      view => { t.equal(view.likeCount, 1) }],
    ['a rating', async () => await app.inject({ method: 'POST', url: `/api/ratings/recipes/${recipe.id}`, headers: bearer(bob), payload: { rating: 4 } }),
      view => { t.match(view, { ratingCount: 1, averageRating: 4 }) }],
    ['a comment', async () => await app.inject({ method: 'POST', url: `/api/comments/recipe/${recipe.id}`, headers: bearer(bob), payload: { content: 'Lovely' } }),
      view => { t.equal(view.commentCount, 1) }],
    ['an edit', async () => await app.inject({ method: 'PATCH', url: `/api/recipes/${recipe.id}`, headers: bearer(ann), payload: { title: 'Edited soup', tags: ['Soup', 'Winter'] } }),
      view => { t.match(view, { title: 'Edited soup' }); t.same(view.tags.map((tag: { name: string }) => tag.name), ['Soup', 'Winter']) }],
    ['the author\'s profile', async () => await app.inject({ method: 'PUT', url: '/api/users/profile', headers: bearer(ann), payload: { firstName: 'Annie' } }),
      view => { t.equal(view.author.firstName, 'Annie') }],
    ['an unlike', async () => await app.inject({ method: 'DELETE', url: `/api/social/recipes/${recipe.id}/like`, headers: bearer(bob) }),
      view => { t.equal(view.likeCount, 0) }]
  ]
  for (const [what, write, expect] of steps) {
    t.ok(await kept(app, recipe.id), `before ${what}, a copy is kept`)
    const res = await write() as { statusCode: number }
    t.ok(res.statusCode < 300, `${what}: ${res.statusCode}`)
    const { recipe: view } = await anonymous(app, recipe.id)
    expect(view!)
    t.strictSame(view, await fromDatabase(app, recipe.id), `after ${what} the copy is the database's`)
  }

  t.equal((await app.inject({ method: 'PATCH', url: `/api/recipes/${recipe.id}`, headers: bearer(ann), payload: { visibility: 'private' } })).statusCode, 200)
  t.equal((await anonymous(app, recipe.id)).status, 404, 'made private: gone at once')
  t.equal((await app.inject({ method: 'PATCH', url: `/api/recipes/${recipe.id}`, headers: bearer(ann), payload: { visibility: 'public' } })).statusCode, 200)
  t.equal((await anonymous(app, recipe.id)).status, 200)
  t.equal((await app.inject({ method: 'DELETE', url: `/api/recipes/${recipe.id}`, headers: bearer(ann) })).statusCode, 200)
  t.equal((await anonymous(app, recipe.id)).status, 404, 'deleted: gone at once')
})

t.test('signed-in viewers never get the anonymous copy', async t => {
  const app = await build(t)
  await listening(app)
  const [ann, bob] = [await registerUser(app), await registerUser(app)]
  const recipe = await createRecipe(app, ann, { title: 'Flags', ingredients: ['salt'] })
  t.equal((await app.inject({ method: 'POST', url: `/api/social/recipes/${recipe.id}/like`, headers: bearer(bob) })).statusCode, 200)
  t.equal((await anonymous(app, recipe.id)).recipe!.isLiked, false)
  const bobs = json(await app.inject({ url: `/api/recipes/${recipe.id}`, headers: bearer(bob) })).recipe
  t.match(bobs, { isLiked: true, likeCount: 1 })
  t.strictSame(bobs, await fromDatabase(app, recipe.id, bob.id))
  t.equal((await anonymous(app, recipe.id)).recipe!.isLiked, false, 'and the copy stays anonymous')

  const secret = await createRecipe(app, ann, { title: 'Mine only', ingredients: ['salt'], visibility: 'private' })
  t.equal(json(await app.inject({ url: `/api/recipes/${secret.id}`, headers: bearer(ann) })).recipe.title, 'Mine only')
  t.equal((await anonymous(app, secret.id)).status, 404, 'the author\'s read keeps nothing anonymous can see')
})

t.test('changes made outside the API (jobs, admins, other code) are heard through the triggers', async t => {
  const app = await build(t)
  await listening(app)
  const ann = await registerUser(app)
  const recipe = await createRecipe(app, ann, { title: 'Watched', ingredients: ['salt'], tags: ['Quick'] })
  const other = await createRecipe(app, ann, { title: 'Also watched', ingredients: ['salt'] })
  const changes: Array<[string, () => Promise<unknown>, (view: Record<string, any> | null, status: number) => void]> = [
    ['a moderation decision', async () => await app.db`update recipes set moderation_status = 'rejected' where id = ${recipe.id}`,
      (_, status) => { t.equal(status, 404) }],
    ['its reversal', async () => await app.db`update recipes set moderation_status = 'approved' where id = ${recipe.id}`,
      view => { t.equal(view?.moderationStatus, 'approved') }],
    ['a renamed tag', async () => await app.db`update tags set name = 'Speedy' where slug = 'quick'`,
      view => { t.same(view?.tags.map((tag: { name: string }) => tag.name), ['Speedy']) }],
    ['a removed tag', async () => await app.db`delete from tags where slug = 'quick'`,
      view => { t.same(view?.tags, []) }],
    ['a new avatar', async () => await app.db`update users set avatar_url = 'https://img.example/ann.png' where id = ${ann.id}`,
      view => { t.equal(view?.author.avatarUrl, 'https://img.example/ann.png') }],
    ['a counter moved in bulk', async () => await app.db`update recipes set like_count = like_count + 7 where author_id = ${ann.id}`,
      view => { t.equal(view?.likeCount, 7) }]
  ]
  for (const [what, change, expect] of changes) {
    if ((await anonymous(app, recipe.id)).status === 200) t.ok(await kept(app, recipe.id), `before ${what}, a copy is kept`)
    t.ok(await kept(app, other.id))
    await change()
    await app.recipeViewCache.settle()
    const { recipe: view, status } = await anonymous(app, recipe.id)
    expect(view, status)
    if (status === 200) t.strictSame(view, await fromDatabase(app, recipe.id), `after ${what} the copy is the database's`)
  }
  t.equal((await anonymous(app, other.id)).recipe!.likeCount, 7, 'the bulk update reached every recipe it moved')

  // More than a hundred recipes in one statement is announced as "everything".
  const many = Array.from({ length: 120 }, (_, i) => ({ id: `bulk-${i}` }))
  await app.db`insert into recipes ${app.db(many.map(({ id }) => ({ id, authorId: ann.id, title: id, slug: id })))}`
  t.ok(await kept(app, recipe.id))
  await app.db`update recipes set comment_count = 3 where author_id = ${ann.id}`
  await app.recipeViewCache.settle()
  t.equal((await anonymous(app, recipe.id)).recipe!.commentCount, 3, 'a statement over 120 recipes drops every copy')
})

t.test('another instance drops its copy once it has heard the write', async t => {
  const one = await build(t, { fresh: true })
  const two = await build(t, { fresh: true })
  await listening(one)
  await listening(two)
  const ann = await registerUser(one)
  const recipe = await createRecipe(one, ann, { title: 'Shared', ingredients: ['salt'] })
  t.equal((await anonymous(two, recipe.id)).recipe!.title, 'Shared')
  t.ok(await kept(two, recipe.id), 'the other instance keeps a copy')
  t.equal((await one.inject({ method: 'PATCH', url: `/api/recipes/${recipe.id}`, headers: bearer(ann), payload: { title: 'Renamed' } })).statusCode, 200)
  // Its sync token is committed after the edit, so once it is heard, so is the edit.
  await two.recipeViewCache.settle()
  t.equal((await anonymous(two, recipe.id)).recipe!.title, 'Renamed')
})

t.test('a render that overlaps a change is not kept, and a lost connection keeps nothing it might have missed', async t => {
  const app = await build(t)
  await listening(app)
  const ann = await registerUser(app)
  const recipe = await createRecipe(app, ann, { title: 'Raced', ingredients: ['salt'] })

  // The read sees the old row, then a change commits and is heard before the render is stored.
  const stale = await app.recipeViewCache.anonymous(recipe.id, async () => {
    const before = await fromDatabase(app, recipe.id)
    await app.db`update recipes set title = 'Changed meanwhile' where id = ${recipe.id}`
    await app.recipeViewCache.settle()
    return before
  })
  t.equal(JSON.parse(stale!.text).title, 'Raced', 'the overlapping read answers what it read')
  t.equal((await anonymous(app, recipe.id)).recipe!.title, 'Changed meanwhile', 'but it was not kept')

  // The listening connection is cut: while it is down nothing is kept or served, and it comes back by itself.
  t.ok(await kept(app, recipe.id))
  const [{ cut }] = await app.db<Array<{ cut: number }>>`select count(*)::int as cut from (select pg_terminate_backend(pid) from pg_stat_activity
    where datname = current_database() and application_name = 'recipe-platform-listen' and query ilike 'listen%') killed`
  t.ok(cut >= 1, 'the listener was cut')
  for (let i = 0; i < 500 && app.recipeViewCache.listening; i++) await new Promise(resolve => setTimeout(resolve, 10))
  t.equal(app.recipeViewCache.listening, false, 'the drop is seen')
  await app.db`update recipes set title = 'Changed unheard' where id = ${recipe.id}`
  t.equal((await anonymous(app, recipe.id)).recipe!.title, 'Changed unheard', 'not listening: read from the database')
  await listening(app)
  t.equal((await anonymous(app, recipe.id)).recipe!.title, 'Changed unheard', 'listening again, with nothing kept from before')
  t.ok(await kept(app, recipe.id), 'and keeping copies again')
  t.equal((await app.inject({ method: 'PATCH', url: `/api/recipes/${recipe.id}`, headers: bearer(ann), payload: { title: 'Heard again' } })).statusCode, 200)
  t.equal((await anonymous(app, recipe.id)).recipe!.title, 'Heard again')
})

t.test('a like waits for its announcement only while a copy of its recipe is kept or being rendered', async t => {
  const app = await build(t)
  await listening(app)
  const [ann, bob, cy] = [await registerUser(app), await registerUser(app), await registerUser(app)]
  const keptOne = await createRecipe(app, ann, { title: 'Kept', ingredients: ['salt'] })
  const other = await createRecipe(app, ann, { title: 'Not kept', ingredients: ['salt'] })
  t.ok(await kept(app, keptOne.id))
  // Sync tokens as the instance sends them; a marker sent last arrives after every one before it (commit order).
  const tokens: string[] = []
  let marked = (): void => {}
  const listener = await app.db.listen('recipe_cache', payload => {
    if (payload.startsWith('sync:')) tokens.push(payload)
    if (payload === 'test-marker') marked()
  })
  t.teardown(async () => { await listener.unlisten() })
  const tokensSoFar = async () => {
    const heard = new Promise<void>(resolve => { marked = resolve })
    await app.db`select pg_notify('recipe_cache', 'test-marker')`
    await heard
    return tokens.length
  }
  const like = async (who: typeof bob, id: string) =>
    (await app.inject({ method: 'POST', url: `/api/social/recipes/${id}/like`, headers: bearer(who) })).statusCode

  t.equal(await like(bob, other.id), 200)
  t.equal(await tokensSoFar(), 0, 'no copy of the recipe: answered without waiting for anything')
  // A kept copy: a token, unless the like's own announcement has already dropped the copy when it is answered.
  t.equal(await like(bob, keptOne.id), 200)
  t.equal((await anonymous(app, keptOne.id)).recipe!.likeCount, 1, 'a kept copy: the next read is the write\'s')
  const before = await tokensSoFar()

  // A render of the recipe under way read it before the like: the like waits, and the render is not kept.
  const stale = await app.recipeViewCache.anonymous(other.id, async () => {
    const before = await fromDatabase(app, other.id)
    t.equal(await like(cy, other.id), 200)
    return before
  })
  t.equal(JSON.parse(stale!.text).likeCount, 1, 'the overlapping render answers what it read')
  t.equal(await tokensSoFar(), before + 1, 'a render under way: one token')
  t.equal((await anonymous(app, other.id)).recipe!.likeCount, 2, 'the overlapping render was not kept')
})
