import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { bearer, build, expectValidationError, json, registerUser, type TestUser } from '../../../helper.js'

async function recipe (app: FastifyInstance, author: TestUser, fields: { id: string, visibility?: string, published?: boolean, moderation?: string }) {
  await app.sql`insert into recipes (id, author_id, slug, title, visibility, published, moderation_status)
    values (${fields.id}, ${author.id}, ${fields.id}, ${'Recipe ' + fields.id}, ${fields.visibility ?? 'public'}, ${fields.published ?? true}, ${fields.moderation ?? 'approved'})`
}

async function follow (app: FastifyInstance, follower: TestUser, following: TestUser, at = 'now()') {
  await app.sql.unsafe(`insert into follows (follower_id, following_id, created_at) values ($1, $2, ${at})`, [follower.id, following.id])
}

t.test('own profile', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const bob = await registerUser(app)

  const get = await app.inject({ url: '/api/users/profile', headers: bearer(ann) })
  t.equal(get.statusCode, 200)
  t.equal(json(get).user.email, ann.email, 'own profile includes the email')
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

  expectValidationError(t, await app.inject({ method: 'PUT', url: '/api/users/profile', headers: bearer(ann), payload: { bio: 'x'.repeat(2001) } }), 'bio')
  expectValidationError(t, await app.inject({ method: 'PUT', url: '/api/users/profile', headers: bearer(ann), payload: { firstName: 'x'.repeat(101) } }), 'firstName')
  t.equal((await app.inject({ method: 'PUT', url: '/api/users/profile', headers: bearer(ann), payload: { bio: 'x'.repeat(2000) } })).statusCode, 200)

  // Another user's token only ever touches its own profile.
  await app.inject({ method: 'PUT', url: '/api/users/profile', headers: bearer(bob), payload: { firstName: 'Bob' } })
  t.equal(json(await app.inject({ url: '/api/users/profile', headers: bearer(ann) })).user.firstName, 'Ann')
})

t.test('public profiles, counts and follow lists', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const bob = await registerUser(app)
  const cat = await registerUser(app)
  await recipe(app, ann, { id: 'pub1' })
  await recipe(app, ann, { id: 'priv1', visibility: 'private' })
  await recipe(app, ann, { id: 'friends1', visibility: 'friends' })
  await recipe(app, ann, { id: 'draft1', published: false })
  await recipe(app, ann, { id: 'rejected1', moderation: 'rejected' })
  await follow(app, bob, ann, "now() - interval '2 minutes'")
  await follow(app, cat, ann, "now() - interval '1 minute'")
  await follow(app, ann, bob)

  const profile = await app.inject({ url: `/api/users/${ann.username.toUpperCase()}` })
  t.equal(profile.statusCode, 200, 'usernames match case-insensitively')
  const user = json(profile).user
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

  const list = async (viewer?: TestUser) =>
    json(await app.inject({ url: `/api/users/${ann.username}/recipes`, headers: viewer == null ? {} : bearer(viewer) })).recipes.map((r: { id: string }) => r.id).sort()
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

  for (const url of ['/api/users/nobody-at-all', '/api/users/nobody-at-all/recipes', '/api/users/nobody-at-all/followers']) {
    const res = await app.inject(url)
    t.equal(res.statusCode, 404, url)
    t.same(json(res), { error: 'User not found' })
  }
  await app.sql`update users set active = false where id = ${cat.id}`
  t.equal((await app.inject(`/api/users/${cat.username}`)).statusCode, 404, 'deactivated users are not shown')
  t.equal(json(await app.inject(`/api/users/${ann.username}`)).user._count.followers, 1, 'nor counted')
})

t.test('search and recent', async t => {
  const app = await build(t)
  const plain = await registerUser(app, { username: 'pastry_fan' })
  const verified = await registerUser(app, { username: 'pastry_pro' })
  await registerUser(app, { username: 'grill_master' })
  await app.sql`update users set verified = true where id = ${verified.id}`
  await app.sql`update users set first_name = 'Pat', last_name = 'Stry' where id = ${plain.id}`

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

  await recipe(app, plain, { id: 'r-plain' })
  await recipe(app, verified, { id: 'r-draft', published: false })
  const recent = json(await app.inject('/api/users/recent?limit=50')).users
  const ids = recent.map((u: { id: string }) => u.id)
  t.ok(ids.includes(plain.id), 'a user with a published recipe is listed')
  t.notOk(ids.includes(verified.id), 'a user with only a draft is not')
  t.same(recent.find((u: { id: string }) => u.id === plain.id)._count, { recipes: 1, followers: 0, following: 0 })
  await app.sql`update users set updated_at = now() + interval '1 minute' where id = ${plain.id}`
  t.equal(json(await app.inject('/api/users/recent')).users[0].id, plain.id, 'most recently updated first')
})

t.test('email preferences and notification settings', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const bob = await registerUser(app)

  t.same(json(await app.inject({ url: '/api/users/email-preferences', headers: bearer(ann) })), { preferences: {} })
  await app.inject({ method: 'POST', url: '/api/users/email-preferences', headers: bearer(ann), payload: { marketing: false, push: { likes: true } } })
  const merged = await app.inject({ method: 'POST', url: '/api/users/email-preferences', headers: bearer(ann), payload: { weekly: true } })
  t.same(json(merged), { preferences: { marketing: false, push: { likes: true }, weekly: true } }, 'merged over the existing keys')
  t.same(json(await app.inject({ url: '/api/users/email-preferences', headers: bearer(bob) })), { preferences: {} }, 'per user')
  t.equal((await app.inject({ url: '/api/users/email-preferences' })).statusCode, 401)

  const defaults = json(await app.inject({ url: '/api/users/notification-settings', headers: bearer(ann) })).settings
  t.same(defaults, { emailLikes: true, emailComments: true, digestFrequency: 'weekly', digestDay: 'monday', digestTime: '09:00', digestTimezone: 'UTC' })

  const put = (payload: Record<string, unknown>, user = ann) => app.inject({ method: 'PUT', url: '/api/users/notification-settings', headers: bearer(user), payload })
  const saved = await put({ emailLikes: false, digestFrequency: 'daily', digestTime: '18:30', digestTimezone: 'Europe/Paris', theme: 'dark' })
  t.equal(saved.statusCode, 200)
  t.same(json(saved).settings, { emailLikes: false, emailComments: true, digestFrequency: 'daily', digestDay: 'monday', digestTime: '18:30', digestTimezone: 'Europe/Paris', theme: 'dark' }, 'other keys pass through')
  t.equal(json(await put({ digestDay: 'friday' })).settings.theme, 'dark', 'partial updates keep the rest')

  expectValidationError(t, await put({ digestFrequency: 'hourly' }), 'digestFrequency')
  expectValidationError(t, await put({ digestDay: 'funday' }), 'digestDay')
  expectValidationError(t, await put({ digestTime: '25:00' }), 'digestTime')
  expectValidationError(t, await put({ digestTime: '9:00' }), 'digestTime')
  expectValidationError(t, await put({ digestTimezone: 'Mars/Olympus' }), 'digestTimezone')
  t.equal(json(await app.inject({ url: '/api/users/notification-settings', headers: bearer(bob) })).settings.digestFrequency, 'weekly', 'another user is unaffected')
})
