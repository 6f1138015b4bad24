import t from 'tap'
import { bearer, build, createRecipe, follow, json, notificationsOf, patchRecipe, registerUser, unfollow, type TestUser } from '../../../helper.js'

t.test('likes', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const fan = await registerUser(app)
  const other = await registerUser(app)
  const recipe = await createRecipe(app, author)
  const hidden = await createRecipe(app, author, { visibility: 'private' })
  const like = (user: TestUser, id: string, method: 'POST' | 'DELETE' = 'POST') =>
    app.inject({ method, url: `/api/social/recipes/${id}/like`, headers: bearer(user) })
  const unlike = (user: TestUser, id: string) => like(user, id, 'DELETE')
  const viewed = async (user: TestUser, id: string) => json(await app.inject({ url: `/api/recipes/${id}`, headers: bearer(user) })).recipe
  const unknown = await unlike(fan, 'no-such-recipe')

  const first = await like(fan, recipe.id)
  t.equal(first.statusCode, 200)
  t.same(json(first), { liked: true, likeCount: 1 })
  t.same(json(await like(fan, recipe.id)), { liked: true, likeCount: 1 }, 'repeating is harmless')
  t.match(await viewed(fan, recipe.id), { isLiked: true, likeCount: 1 })
  t.same(json(await unlike(fan, recipe.id)), { liked: false, likeCount: 0 })
  t.same(json(await unlike(fan, recipe.id)), { liked: false, likeCount: 0 }, 'unliking twice is harmless')
  t.match(await viewed(fan, recipe.id), { isLiked: false, likeCount: 0 })

  t.equal((await like(fan, hidden.id)).statusCode, 404, 'a recipe the caller cannot see')
  t.equal((await like(fan, 'no-such-recipe')).statusCode, 404)
  t.equal(unknown.statusCode, 404)
  t.same(json(unknown), { error: 'Recipe not found' })
  for (const method of ['POST', 'DELETE'] as const) {
    t.equal((await app.inject({ method, url: `/api/social/recipes/${recipe.id}/like` })).statusCode, 401, `${method} needs a user`)
  }

  t.test('liking your own recipe is allowed', async t => {
    const own = await createRecipe(app, author)
    t.same(json(await like(author, own.id)), { liked: true, likeCount: 1 })
    t.match(await viewed(author, own.id), { isLiked: true, likeCount: 1 })
  })

  t.test('notifications: to the author, once an hour, never for your own like', async t => {
    const fresh = await createRecipe(app, author, { title: 'Notify me' })
    await like(fan, fresh.id)
    await unlike(fan, fresh.id)
    await like(fan, fresh.id)
    await like(author, fresh.id)
    // Written in the like's own transaction: there when the response is.
    const received = (await notificationsOf(app, author, 'like')).filter(n => n.recipeId === fresh.id)
    t.equal(received.length, 1, 'like, unlike, like again, and the author\'s own like: one notification')
    t.match(received[0], { actor: { id: fan.id }, message: `${fan.username} liked your recipe "Notify me"` })
    t.same(await notificationsOf(app, fan, 'like'), [], 'the fan is not notified')
  })

  t.test('another user cannot remove my like', async t => {
    const fresh = await createRecipe(app, author)
    await like(fan, fresh.id)
    t.same(json(await unlike(other, fresh.id)), { liked: false, likeCount: 1 }, 'their unlike removes only their own (absent) like')
    t.match(await viewed(fan, fresh.id), { isLiked: true, likeCount: 1 })
  })

  t.test('#20 a like on a recipe turned private can still be removed, without revealing the recipe', async t => {
    const fresh = await createRecipe(app, author)
    await like(fan, fresh.id)
    await patchRecipe(app, author, fresh.id, { visibility: 'private' })
    const res = await unlike(fan, fresh.id)
    t.equal(res.statusCode, 200)
    t.same(json(res), { liked: false, likeCount: null }, 'the count of a recipe the caller cannot see is not given')
    t.equal((await viewed(author, fresh.id)).likeCount, 0, 'the like is gone')
    const again = await unlike(fan, fresh.id)
    t.equal(again.statusCode, 404, 'nothing left to remove: the recipe is unknown to the caller again')
    t.same(json(again), json(unknown), 'same answer as an unknown id')
    const stranger = await unlike(other, fresh.id)
    t.equal(stranger.statusCode, 404, 'never liked it')
    t.same(json(stranger), json(unknown))
    t.equal((await like(fan, fresh.id)).statusCode, 404, 'cannot like it again')
  })

  t.test('30 simultaneous likes by one user: one like, count 1', async t => {
    const fresh = await createRecipe(app, author)
    const results = await Promise.all(Array.from({ length: 30 }, async () => await like(fan, fresh.id)))
    t.same([...new Set(results.map(r => r.statusCode))], [200], 'no 500')
    t.same([...new Set(results.map(r => json(r).likeCount))], [1], 'every answer counts one like')
    t.match(await viewed(fan, fresh.id), { isLiked: true, likeCount: 1 })
    t.same(json(await unlike(fan, fresh.id)), { liked: false, likeCount: 0 }, 'one unlike removes it: a single row')
  })

  t.test('like/unlike storms leave the counter equal to the likes', async t => {
    const fresh = await createRecipe(app, author)
    const users = await Promise.all(Array.from({ length: 6 }, async () => await registerUser(app)))
    const results = await Promise.all(users.flatMap(u => Array.from({ length: 8 }, async (_, i) => await like(u, fresh.id, i % 2 === 0 ? 'POST' : 'DELETE'))))
    t.same([...new Set(results.map(r => r.statusCode))], [200], 'no 500')
    const views = await Promise.all(users.map(async u => await viewed(u, fresh.id)))
    const likers = views.filter(v => v.isLiked).length
    t.equal((await viewed(author, fresh.id)).likeCount, likers, `counter = ${likers} users who like it`)
  })

  t.test('simultaneous likes and unlikes of many users, some of whom may not see the recipe, are each answered for their user', async t => {
    const friends = await Promise.all(Array.from({ length: 12 }, async () => await registerUser(app)))
    const strangers = await Promise.all(Array.from({ length: 6 }, async () => await registerUser(app)))
    for (const friend of friends) {
      await follow(app, friend, author)
      await follow(app, author, friend)
    }
    const fresh = await createRecipe(app, author, { visibility: 'friends' })
    const early = friends.slice(0, 4)
    for (const friend of early) await like(friend, fresh.id)

    const liking = friends.slice(4)
    const results = await Promise.all([
      ...liking.map(async u => ({ who: 'friend likes', res: await like(u, fresh.id) })),
      ...early.map(async u => ({ who: 'friend unlikes', res: await unlike(u, fresh.id) })),
      ...strangers.map(async u => ({ who: 'stranger likes', res: await like(u, fresh.id) })),
      ...strangers.map(async u => ({ who: 'stranger unlikes', res: await unlike(u, fresh.id) }))
    ])
    for (const { who, res } of results) {
      if (who.startsWith('friend')) {
        t.equal(res.statusCode, 200, who)
        t.ok(Number.isInteger(json(res).likeCount) && json(res).likeCount >= 0 && json(res).likeCount <= 12, `${who}: a count within the possible`)
      } else {
        t.equal(res.statusCode, 404, `${who}: the recipe is unknown to them`)
      }
    }
    t.same(results.filter(r => r.who === 'friend likes').map(r => json(r.res).liked), liking.map(() => true))
    t.same(results.filter(r => r.who === 'friend unlikes').map(r => json(r.res).liked), early.map(() => false))
    const [{ rows }] = await app.db<Array<{ rows: number }>>`select count(*)::int as rows from likes where recipe_id = ${fresh.id}`
    t.equal(rows, liking.length, 'the rows: the friends who liked, not the early likes they took back, no stranger')
    t.equal((await viewed(author, fresh.id)).likeCount, rows, 'the counter equals the rows')
    for (const u of liking) t.match(await viewed(u, fresh.id), { isLiked: true })
    for (const u of early) t.match(await viewed(u, fresh.id), { isLiked: false })
  })
})

t.test('follows', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const bob = await registerUser(app)
  const cat = await registerUser(app)
  const followReq = (user: TestUser, target: string, method: 'POST' | 'DELETE' = 'POST') =>
    app.inject({ method, url: `/api/social/users/${target}/follow`, headers: bearer(user) })
  const profile = async (viewer: TestUser, of: TestUser) => json(await app.inject({ url: `/api/users/${of.username}`, headers: bearer(viewer) })).user

  t.same(json(await followReq(ann, bob.id)), { following: true, followerCount: 1 })
  t.same(json(await followReq(ann, bob.id)), { following: true, followerCount: 1 }, 'idempotent')
  t.equal((await profile(ann, bob)).isFollowing, true)
  const self = await followReq(ann, ann.id)
  t.equal(self.statusCode, 400)
  t.same(json(self), { error: 'You cannot follow yourself' })
  const nobody = await followReq(ann, 'nobody')
  t.equal(nobody.statusCode, 404)
  t.same(json(nobody), { error: 'User not found' })
  for (const method of ['POST', 'DELETE'] as const) {
    t.equal((await app.inject({ method, url: `/api/social/users/${bob.id}/follow` })).statusCode, 401, `${method} needs a user`)
  }

  t.test('the followed user is notified once an hour', async t => {
    await unfollow(app, ann, bob)
    await follow(app, ann, bob)
    const received = await notificationsOf(app, bob, 'follow')
    t.equal(received.length, 1, 'follow, unfollow, follow again: one notification')
    t.match(received[0], { actor: { id: ann.id }, message: `${ann.username} started following you` })
    t.same(await notificationsOf(app, ann, 'follow'), [], 'the follower is not notified')
  })

  t.test('concurrent follows: one follow', async t => {
    const results = await Promise.all(Array.from({ length: 10 }, async () => await followReq(bob, ann.id)))
    t.same([...new Set(results.map(r => r.statusCode))], [200], 'no 500')
    t.same([...new Set(results.map(r => json(r).followerCount))], [1])
    t.equal((await profile(bob, ann))._count.followers, 1)
  })

  t.test('another user cannot remove my follow', async t => {
    t.same(json(await followReq(cat, bob.id, 'DELETE')), { following: false, followerCount: 1 })
    t.equal((await profile(ann, bob)).isFollowing, true)
  })

  t.test('unfollow', async t => {
    t.same(json(await followReq(ann, bob.id, 'DELETE')), { following: false, followerCount: 0 })
    t.same(json(await followReq(ann, bob.id, 'DELETE')), { following: false, followerCount: 0 }, 'idempotent')
    t.equal((await profile(ann, bob)).isFollowing, false)
  })

  t.test('a banned user cannot be followed, but an existing follow can be removed', async t => {
    const banned = await registerUser(app)
    await follow(app, cat, banned)
    // No admin API yet: ban directly.
    await app.db`update users set banned_at = now() where id = ${banned.id}`
    const res = await followReq(ann, banned.id)
    t.equal(res.statusCode, 404)
    t.same(json(res), json(nobody), 'same answer as an unknown user')
    t.same(json(await followReq(cat, banned.id, 'DELETE')), { following: false, followerCount: null }, 'their follower count is not shown')
    const again = await followReq(cat, banned.id, 'DELETE')
    t.equal(again.statusCode, 404, 'nothing left to remove')
    t.same(json(again), json(nobody))
  })
})
