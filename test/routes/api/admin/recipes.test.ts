import t from 'tap'
import {
  adminBearer, bearer, build, createAdmin, createRecipe, expectValidationError, follow, json, notificationsOf, registerUser, type TestUser
} from '../../../helper.js'

const UNKNOWN_ID = 'zz0000000000000000000000'

t.test('admin recipes', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  const asAdmin = adminBearer(admin)
  const moderate = async (recipeId: string, payload: Record<string, unknown>) =>
    await app.inject({ method: 'PATCH', url: `/api/admin/recipes/${recipeId}/moderation`, headers: asAdmin, payload })
  const list = async (query: string) => {
    const res = await app.inject({ url: `/api/admin/recipes?${query}`, headers: asAdmin })
    t.equal(res.statusCode, 200, query)
    return json(res)
  }
  const idsOf = (body: Record<string, any>): string[] => body.recipes.map((r: { id: string }) => r.id)

  t.test('no token and a user token get 401 on every route, and change nothing', async t => {
    const user = await registerUser(app)
    const recipe = await createRecipe(app, user)
    const routes: Array<[method: 'GET' | 'PATCH', url: string, payload?: Record<string, unknown>]> = [
      ['GET', '/api/admin/recipes'],
      ['PATCH', `/api/admin/recipes/${String(recipe.id)}/moderation`, { moderationStatus: 'rejected' }]
    ]
    for (const [method, url, payload] of routes) {
      for (const [who, headers] of [['no token', {}], ['user token', bearer(user)]] as const) {
        t.equal((await app.inject({ method, url, headers, ...(payload != null && { payload }) })).statusCode, 401, `${who}: ${method} ${url}`)
      }
    }
    const anonymous = await app.inject({ url: `/api/recipes/${String(recipe.id)}` })
    t.equal(json(anonymous).recipe.moderationStatus, 'approved', 'the recipe was not moderated')
  })

  t.test('list: every recipe with its author and moderation state, filtered, newest first', async t => {
    const author = await registerUser(app)
    const other = await registerUser(app)
    const tag = `Zebra${process.pid}`
    const one = await createRecipe(app, author, { title: `${tag} soup` })
    const two = await createRecipe(app, author, { title: `${tag} private stew`, visibility: 'private' })
    const three = await createRecipe(app, author, { title: `${tag} draft pie`, published: false })
    const foreign = await createRecipe(app, other, { title: `${tag} from someone else` })

    const byAuthor = await list(`authorId=${author.id}`)
    t.same(idsOf(byAuthor), [three.id, two.id, one.id], 'all of the author\'s recipes, private and drafts too, newest first')
    t.match(byAuthor.recipes[1], {
      id: two.id,
      title: `${tag} private stew`,
      author: { id: author.id, username: author.username },
      visibility: 'private',
      published: true,
      moderationStatus: 'approved',
      moderationNote: null,
      moderatedAt: null,
      likeCount: 0,
      commentCount: 0
    })
    t.match(byAuthor.recipes[0], { id: three.id, published: false }, 'drafts too')
    t.match(byAuthor.pagination, { total: 3, hasNext: false, totalExact: true })

    t.same(idsOf(await list(`q=${tag.toLowerCase()}`)), [foreign.id, three.id, two.id, one.id], 'q: part of the title, any case')
    t.same(idsOf(await list(`q=${tag}%20PRIVATE`)), [two.id])
    const paged = await list(`q=${tag}&limit=3&page=2`)
    t.same(idsOf(paged), [one.id])
    t.match(paged.pagination, { page: 2, limit: 3, total: 4, totalPages: 2, hasNext: false, hasPrev: true })
    t.match((await list(`q=${tag}&limit=3`)).pagination, { hasNext: true })

    t.equal((await moderate(two.id, { moderationStatus: 'flagged', note: 'check' })).statusCode, 200)
    t.equal((await moderate(three.id, { moderationStatus: 'pending' })).statusCode, 200)
    t.same(idsOf(await list(`q=${tag}&moderationStatus=flagged`)), [two.id], 'the flagged queue')
    t.same(idsOf(await list(`q=${tag}&moderationStatus=pending`)), [three.id], 'the pending queue')
    t.same(idsOf(await list(`q=${tag}&moderationStatus=rejected`)), [])
    t.same(idsOf(await list(`q=${tag}&moderationStatus=approved`)), [foreign.id, one.id], 'approved recipes')
    t.same(idsOf(await list(`authorId=${author.id}&moderationStatus=flagged`)), [two.id], 'filters combine')

    expectValidationError(t, await app.inject({ url: '/api/admin/recipes?moderationStatus=hidden', headers: asAdmin }), 'moderationStatus')
    expectValidationError(t, await app.inject({ url: `/api/admin/recipes?q=${'x'.repeat(201)}`, headers: asAdmin }), 'q')
  })

  t.test('moderation hides a recipe from everyone but its author at once; approving shows it again', async t => {
    const author = await registerUser(app)
    const follower = await registerUser(app)
    const stranger = await registerUser(app)
    await follow(app, follower, author)
    const title = `Moderated${process.pid} casserole`
    const recipe = await createRecipe(app, author, { title })
    const detailStatus = async (user: TestUser | null) =>
      (await app.inject({ url: `/api/recipes/${String(recipe.id)}`, headers: user == null ? {} : bearer(user) })).statusCode
    const listed = async () => idsOf(json(await app.inject({ url: `/api/recipes?search=${encodeURIComponent(title)}` })))
    const inFeed = async () => idsOf(json(await app.inject({ url: '/api/feed', headers: bearer(follower) })))
    const listedBefore = await listed()
    t.same(listedBefore, [recipe.id], 'listed and searchable before')
    t.ok((await inFeed()).includes(recipe.id), 'in the follower\'s feed before')

    for (const status of ['rejected', 'flagged'] as const) {
      const res = await moderate(recipe.id, { moderationStatus: status, note: `  ${status} for spam  ` })
      t.equal(res.statusCode, 200, status)
      const moderated = json(res).recipe
      t.match(moderated, { id: recipe.id, moderationStatus: status, moderationNote: `${status} for spam`, author: { id: author.id } })
      t.ok(Date.parse(moderated.moderatedAt) <= Date.now(), 'moderatedAt set')
      t.equal(await detailStatus(null), 404, `${status}: anonymous 404`)
      t.equal(await detailStatus(stranger), 404, `${status}: another user 404`)
      t.equal(await detailStatus(follower), 404, `${status}: a follower 404`)
      t.equal(await detailStatus(author), 200, `${status}: the author still sees it`)
      t.same(await listed(), [], `${status}: gone from the list and search`)
      t.notOk((await inFeed()).includes(recipe.id), `${status}: gone from the feed`)
    }

    const approved = await moderate(recipe.id, { moderationStatus: 'approved' })
    t.equal(approved.statusCode, 200)
    t.match(json(approved).recipe, { moderationStatus: 'approved', moderationNote: null }, 'an omitted note clears it')
    t.equal(await detailStatus(stranger), 200, 'visible again')
    t.equal(await detailStatus(null), 200)
    t.same(await listed(), [recipe.id], 'listed again')
    t.ok((await inFeed()).includes(recipe.id), 'in the feed again')

    const system = await notificationsOf(app, author, 'system')
    t.equal(system.length, 3, 'the author heard of each decision that hid or showed the recipe')
    t.match(system.map(n => n.message), [/visible to others again/, /flagged/, /rejected/])
    t.match(system[0], { recipeId: recipe.id, actor: null, data: { moderationStatus: 'approved' } })
    t.notOk(JSON.stringify(system).includes('for spam'), 'the moderator\'s note stays with the admins')

    const pending = await moderate(recipe.id, { moderationStatus: 'pending' })
    t.equal(pending.statusCode, 200)
    t.equal(await detailStatus(stranger), 200, 'pending recipes stay visible')
    t.same(await listed(), [recipe.id], 'and listed')
    t.equal((await notificationsOf(app, author, 'system')).length, 3, 'no notification for a change that hides nothing')
  })

  t.test('repeated and concurrent identical decisions change nothing more', async t => {
    const author = await registerUser(app)
    const recipe = await createRecipe(app, author, { title: 'Twice rejected' })
    const answers = await Promise.all(Array.from({ length: 5 }, async () => await moderate(recipe.id, { moderationStatus: 'rejected', note: 'dup' })))
    t.same(answers.map(r => r.statusCode), [200, 200, 200, 200, 200])
    const moderatedAt = new Set(answers.map(r => json(r).recipe.moderatedAt))
    t.equal(moderatedAt.size, 1, 'one decision, one time')
    const again = json(await moderate(recipe.id, { moderationStatus: 'rejected', note: 'dup' })).recipe
    t.equal(again.moderatedAt, [...moderatedAt][0], 'repeating it later changes nothing')
    t.equal((await notificationsOf(app, author, 'system')).length, 1, 'one notification')
    const queue = await list(`authorId=${author.id}&moderationStatus=rejected`)
    t.same(idsOf(queue), [recipe.id])
  })

  t.test('unknown recipes 404; invalid bodies 400', async t => {
    const res = await moderate(UNKNOWN_ID, { moderationStatus: 'approved' })
    t.equal(res.statusCode, 404)
    t.same(json(res), { error: 'Recipe not found' })
    t.equal((await moderate('not-a-cuid', { moderationStatus: 'approved' })).statusCode, 404, 'malformed id: 404')
    const author = await registerUser(app)
    const recipe = await createRecipe(app, author)
    expectValidationError(t, await moderate(recipe.id, { moderationStatus: 'hidden' }), 'moderationStatus')
    expectValidationError(t, await moderate(recipe.id, {}), 'moderationStatus')
    expectValidationError(t, await moderate(recipe.id, { moderationStatus: 'flagged', note: 'x'.repeat(1001) }), 'note')
    const unchanged = json(await app.inject({ url: `/api/recipes/${String(recipe.id)}` })).recipe
    t.equal(unchanged.moderationStatus, 'approved', 'refused requests change nothing')
  })
})
