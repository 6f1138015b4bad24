import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { bearer, build, createRecipe, expectValidationError, follow, json, registerUser, setAccountStatus, type TestUser } from '../../../helper.js'

/** Moderation is an admin action and there is no admin API yet: set it directly. */
async function moderate (app: FastifyInstance, recipeId: string, status: string): Promise<void> {
  await app.db`update recipes set moderation_status = ${status} where id = ${recipeId}`
}

t.test('own profile', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const bob = await registerUser(app)

  const get = await app.inject({ url: '/api/users/profile', headers: bearer(ann) })
  t.equal(get.statusCode, 200)
  t.equal(json(get).user.email, ann.email, 'own profile includes the email')
  t.equal(json(get).user.id, ann.id)
  t.equal((await app.inject({ url: '/api/users/profile' })).statusCode, 401)

  const put = await app.inject({
    method: 'PUT',
    url: '/api/users/profile',
    headers: bearer(ann),
    payload: { firstName: 'Ann', lastName: 'Lee', bio: 'Bakes <b>bread</b> & cakes <script>alert(1)</script>', location: 'Lyon', email: 'evil@example.com', verified: true, username: 'hijack' }
  })
  t.equal(put.statusCode, 200)
  const user = json(put).user
  t.equal(user.firstName, 'Ann')
  t.equal(user.bio, 'Bakes <b>bread</b> & cakes ', 'sanitised, plain text intact')
  t.equal(user.email, ann.email, 'email not changed through the profile')
  t.equal(user.verified, false)
  t.equal(user.username, ann.username)
  t.equal(json(await app.inject({ url: '/api/auth/me', headers: bearer(ann) })).user.location, 'Lyon', 'stored')

  const partial = await app.inject({ method: 'PUT', url: '/api/users/profile', headers: bearer(ann), payload: { location: null } })
  t.equal(json(partial).user.firstName, 'Ann', 'fields not sent stay')
  t.equal(json(partial).user.location, null, 'null clears a field')

  expectValidationError(t, await app.inject({ method: 'PUT', url: '/api/users/profile', headers: bearer(ann), payload: { bio: 'x'.repeat(2001) } }), 'bio')
  expectValidationError(t, await app.inject({ method: 'PUT', url: '/api/users/profile', headers: bearer(ann), payload: { firstName: 'x'.repeat(101) } }), 'firstName')
  t.equal((await app.inject({ method: 'PUT', url: '/api/users/profile', headers: bearer(ann), payload: { bio: 'x'.repeat(2000) } })).statusCode, 200)

  // Another user's token only ever touches its own profile.
  await app.inject({ method: 'PUT', url: '/api/users/profile', headers: bearer(bob), payload: { firstName: 'Bob' } })
  t.equal(json(await app.inject({ url: '/api/users/profile', headers: bearer(ann) })).user.firstName, 'Ann')
  t.equal(json(await app.inject({ url: '/api/users/profile', headers: bearer(bob) })).user.firstName, 'Bob')
})

t.test('public profiles, counts, recipes and follow lists', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const bob = await registerUser(app)
  const cat = await registerUser(app)
  const recipes: Record<string, Record<string, any>> = {}
  for (const [title, fields] of Object.entries({
    pub1: {},
    priv1: { visibility: 'private' },
    friends1: { visibility: 'friends' },
    draft1: { published: false },
    rejected1: {}
  })) recipes[title] = await createRecipe(app, ann, { title, ...fields })
  await moderate(app, recipes.rejected1.id, 'rejected')
  // One after the other, so the follow lists' newest-first order is cat, bob.
  await follow(app, bob, ann)
  await follow(app, cat, ann)
  await follow(app, ann, bob)

  const profile = await app.inject({ url: `/api/users/${ann.username.toUpperCase()}` })
  t.equal(profile.statusCode, 200, 'usernames match case-insensitively')
  const user = json(profile).user
  t.equal(user.id, ann.id)
  t.notOk('email' in user, 'no email on public profiles')
  t.notMatch(profile.body, /\$2b\$|password|reset/i)
  t.same(user._count, { recipes: 1, followers: 2, following: 1 }, 'anonymous: only the public recipe counts')
  t.equal(user.isFollowing, false)

  const asBob = json(await app.inject({ url: `/api/users/${ann.username}`, headers: bearer(bob) })).user
  t.equal(asBob.isFollowing, true)
  t.equal(asBob._count.recipes, 2, 'a mutual follower also counts friends-only recipes')
  const asCat = json(await app.inject({ url: `/api/users/${ann.username}`, headers: bearer(cat) })).user
  t.equal(asCat._count.recipes, 1, 'a one-way follower is not a friend')
  const asAnn = json(await app.inject({ url: `/api/users/${ann.username}`, headers: bearer(ann) })).user
  t.equal(asAnn._count.recipes, 5, 'the author counts everything of theirs')
  const me = json(await app.inject({ url: '/api/auth/me', headers: bearer(ann) })).user
  t.same(me._count, asAnn._count, 'me counts as the author\'s own view of their profile')
  t.equal(me.isFollowing, undefined)

  const list = async (viewer?: TestUser) =>
    json(await app.inject({ url: `/api/users/${ann.username}/recipes`, headers: viewer == null ? {} : bearer(viewer) })).recipes.map((r: { title: string }) => r.title).sort()
  t.same(await list(), ['pub1'])
  t.same(await list(cat), ['pub1'])
  t.same(await list(bob), ['friends1', 'pub1'])
  t.same(await list(ann), ['draft1', 'friends1', 'priv1', 'pub1', 'rejected1'])

  const followers = json(await app.inject({ url: `/api/users/${ann.username}/followers`, headers: bearer(ann) })).users
  t.same(followers.map((u: { id: string }) => u.id), [cat.id, bob.id], 'newest first')
  t.same(followers.map((u: { isFollowing: boolean }) => u.isFollowing), [false, true], 'isFollowing from the caller')
  t.notOk(followers.some((u: Record<string, unknown>) => 'email' in u))
  const following = json(await app.inject({ url: `/api/users/${ann.username}/following` })).users
  t.same(following.map((u: { id: string }) => u.id), [bob.id])
  const firstPage = json(await app.inject({ url: `/api/users/${ann.username}/followers?limit=1` }))
  t.same(firstPage.users.map((u: { id: string }) => u.id), [cat.id], 'paged: newest first')
  t.same(firstPage.pagination, { page: 1, limit: 1, total: 2, totalPages: 2, hasNext: true, hasPrev: false, totalExact: true })
  t.same(json(await app.inject({ url: `/api/users/${ann.username}/followers?limit=1&page=2` })).users.map((u: { id: string }) => u.id), [bob.id])

  for (const url of ['/api/users/nobody-at-all', '/api/users/nobody-at-all/recipes', '/api/users/nobody-at-all/followers', '/api/users/nobody-at-all/recipes/pub1']) {
    const res = await app.inject(url)
    t.equal(res.statusCode, 404, url)
    t.same(json(res), { error: 'User not found' })
  }
  await setAccountStatus(app, cat, { active: false })
  t.equal((await app.inject(`/api/users/${cat.username}`)).statusCode, 404, 'deactivated users are not shown')
  t.equal(json(await app.inject(`/api/users/${ann.username}`)).user._count.followers, 1, 'nor counted')
  const followingOfAnn = async () => json(await app.inject({ url: '/api/auth/me', headers: bearer(ann) })).user._count.following
  t.equal(await followingOfAnn(), 1)
  await setAccountStatus(app, bob, { banned: true })
  t.equal(await followingOfAnn(), 0, 'a banned user leaves the following count')
  await setAccountStatus(app, bob, { banned: false })
  t.equal(await followingOfAnn(), 1, 'and comes back when unbanned')
  t.same(json(await app.inject(`/api/users/${ann.username}/followers`)).users.map((u: { id: string }) => u.id), [bob.id], 'nor listed')

  t.test('one recipe by its slug, with the visibility rules', async t => {
    const bySlug = async (slug: string, viewer?: TestUser, owner: TestUser = ann) =>
      await app.inject({ url: `/api/users/${owner.username}/recipes/${slug}`, headers: viewer == null ? {} : bearer(viewer) })
    const pub = await bySlug(recipes.pub1.slug)
    t.equal(pub.statusCode, 200)
    t.equal(json(pub).recipe.id, recipes.pub1.id)
    t.equal(json(pub).recipe.author.id, ann.id)
    t.equal((await bySlug(recipes.friends1.slug, bob)).statusCode, 200, 'friends-only: a mutual follower sees it')
    t.equal((await bySlug(recipes.priv1.slug, ann)).statusCode, 200, 'the author sees a private one')
    t.equal((await bySlug(recipes.draft1.slug, ann)).statusCode, 200, 'and a draft')
    for (const [label, slug, viewer] of [
      ['private, anonymous', recipes.priv1.slug, undefined],
      ['private, another user', recipes.priv1.slug, bob],
      ['friends-only, a one-way follower', recipes.friends1.slug, cat],
      ['draft, another user', recipes.draft1.slug, bob],
      ['rejected, anonymous', recipes.rejected1.slug, undefined],
      ['no such slug', 'no-such-recipe', ann]
    ] as const) {
      const res = await bySlug(slug, viewer)
      t.equal(res.statusCode, 404, label)
      t.same(json(res), { error: 'Recipe not found' }, label)
    }
    t.equal((await bySlug(recipes.pub1.slug, undefined, bob)).statusCode, 404, 'a slug belongs to its author only')
  })
})

t.test('search and recent', async t => {
  const app = await build(t)
  const plain = await registerUser(app, { username: 'pastry_fan' })
  const verified = await registerUser(app, { username: 'pastry_pro' })
  await registerUser(app, { username: 'grill_master' })
  // Verification is an admin action (no admin API yet).
  await app.db`update users set verified = true where id = ${verified.id}`
  await app.inject({ method: 'PUT', url: '/api/users/profile', headers: bearer(plain), payload: { firstName: 'Pat', lastName: 'Stry' } })

  const search = async (qs: string) => await app.inject(`/api/users/search?${qs}`)
  const res = await search('q=PASTRY')
  t.equal(res.statusCode, 200)
  const body = json(res)
  t.equal(body.query, 'PASTRY')
  t.equal(body.total, 2)
  t.same(body.users.map((u: { username: string }) => u.username), ['pastry_pro', 'pastry_fan'], 'verified first')
  t.notOk(body.users.some((u: Record<string, unknown>) => 'email' in u))
  t.equal(json(await search('query=stry')).total, 2, 'query alias; names are searched too')
  t.equal(json(await search('q=%25')).total, 0, '% is literal')
  await registerUser(app, { username: 'pastryXfan' })
  t.same(json(await search('q=pastry_f')).users.map((u: { username: string }) => u.username), ['pastry_fan'], '_ is literal, not a wildcard')
  t.equal(json(await search('q=')).total, 0)
  expectValidationError(t, await search('q=a&limit=51'), 'limit')
  t.equal(json(await search('q=pastry&limit=1')).users.length, 1)
  await setAccountStatus(app, verified, { banned: true })
  t.same(json(await search('q=pastry_')).users.map((u: { username: string }) => u.username), ['pastry_fan'], 'banned users are not found')

  const other = await registerUser(app)
  await createRecipe(app, plain, { title: 'Published' })
  await createRecipe(app, other, { title: 'Draft', published: false })
  const recent = json(await app.inject('/api/users/recent?limit=50')).users
  const ids = recent.map((u: { id: string }) => u.id)
  t.ok(ids.includes(plain.id), 'a user with a published recipe is listed')
  t.notOk(ids.includes(other.id), 'a user with only a draft is not')
  t.same(recent.find((u: { id: string }) => u.id === plain.id)._count, { recipes: 1, followers: 0, following: 0 })
  const third = await registerUser(app)
  await createRecipe(app, third, { title: 'Also published' })
  await app.inject({ method: 'PUT', url: '/api/users/profile', headers: bearer(third), payload: { bio: 'Fresh' } })
  t.equal(json(await app.inject('/api/users/recent')).users[0].id, third.id, 'most recently updated first')
  await app.inject({ method: 'PUT', url: '/api/users/profile', headers: bearer(plain), payload: { bio: 'Now me' } })
  t.equal(json(await app.inject('/api/users/recent')).users[0].id, plain.id, 'a profile update moves a user up')
})
