import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { bearer, build, createRecipe, eventually, json, registerUser, type TestUser } from '../../../helper.js'

const notificationsOf = async (app: FastifyInstance, user: TestUser, type: string) =>
  await app.sql`select * from notifications where user_id = ${user.id} and type = ${type}`

t.test('likes', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const fan = await registerUser(app)
  const recipe = await createRecipe(app, author)
  const hidden = await createRecipe(app, author, { visibility: 'private' })
  const like = (user: TestUser, id = recipe.id, method: 'POST' | 'DELETE' = 'POST') =>
    app.inject({ method, url: `/api/social/recipes/${id}/like`, headers: bearer(user) })

  const first = await like(fan)
  t.equal(first.statusCode, 200)
  t.same(json(first), { liked: true, likeCount: 1 })
  t.same(json(await like(fan)), { liked: true, likeCount: 1 }, 'repeating is harmless')
  const asFan = json(await app.inject({ url: `/api/recipes/${recipe.id}`, headers: bearer(fan) })).recipe
  t.match(asFan, { isLiked: true, likeCount: 1 })
  t.same(json(await like(fan, recipe.id, 'DELETE')), { liked: false, likeCount: 0 })
  t.same(json(await like(fan, recipe.id, 'DELETE')), { liked: false, likeCount: 0 }, 'unliking twice is harmless')

  t.equal((await like(fan, hidden.id)).statusCode, 404, 'a recipe the caller cannot see')
  t.equal((await like(fan, 'no-such-recipe')).statusCode, 404)
  t.equal((await app.inject({ method: 'POST', url: `/api/social/recipes/${recipe.id}/like` })).statusCode, 401)

  t.test('notifications: to the author, once an hour, never for your own like', async t => {
    await like(fan)
    await like(fan, recipe.id, 'DELETE')
    await like(fan)
    await like(author)
    const rows = await eventually(async () => { const r = await notificationsOf(app, author, 'like'); return r.length > 0 && r })
    await new Promise(resolve => setTimeout(resolve, 100))
    t.equal((await notificationsOf(app, author, 'like')).length, 1, 'like, unlike, like again: one notification')
    t.equal(rows[0].actor_id, fan.id)
    t.equal((await notificationsOf(app, fan, 'like')).length, 0)
  })

  t.test('30 simultaneous likes by one user: one row, count 1', async t => {
    const fresh = await createRecipe(app, author)
    const results = await Promise.all(Array.from({ length: 30 }, () => like(fan, fresh.id)))
    t.same([...new Set(results.map(r => r.statusCode))], [200], 'no 500')
    const [{ rows, count }] = await app.sql`select (select count(*)::int from likes where recipe_id = ${fresh.id}) as rows,
      (select like_count from recipes where id = ${fresh.id}) as count`
    t.equal(rows, 1)
    t.equal(count, 1)
  })

  t.test('like/unlike storms leave the counter equal to the rows', async t => {
    const fresh = await createRecipe(app, author)
    const users = await Promise.all(Array.from({ length: 6 }, () => registerUser(app)))
    await Promise.all(users.flatMap(u => Array.from({ length: 8 }, (_, i) => like(u, fresh.id, i % 2 === 0 ? 'POST' : 'DELETE'))))
    const [{ rows, count }] = await app.sql`select (select count(*)::int from likes where recipe_id = ${fresh.id}) as rows,
      (select like_count from recipes where id = ${fresh.id}) as count`
    t.equal(count, rows, `counter ${count} = rows ${rows}`)
  })
})

t.test('follows', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const bob = await registerUser(app)
  const follow = (user: TestUser, target: string, method: 'POST' | 'DELETE' = 'POST') =>
    app.inject({ method, url: `/api/social/users/${target}/follow`, headers: bearer(user) })

  t.same(json(await follow(ann, bob.id)), { following: true, followerCount: 1 })
  t.same(json(await follow(ann, bob.id)), { following: true, followerCount: 1 }, 'idempotent')
  t.equal(json(await app.inject({ url: `/api/users/${bob.username}`, headers: bearer(ann) })).user.isFollowing, true)
  const self = await follow(ann, ann.id)
  t.equal(self.statusCode, 400)
  t.same(json(self), { error: 'You cannot follow yourself' })
  t.equal((await follow(ann, 'nobody')).statusCode, 404)
  await eventually(async () => (await notificationsOf(app, bob, 'follow')).length === 1)

  const results = await Promise.all(Array.from({ length: 10 }, () => follow(bob, ann.id)))
  t.same([...new Set(results.map(r => r.statusCode))], [200], 'concurrent follows: no 500')
  t.equal((await app.sql`select count(*)::int as n from follows where follower_id = ${bob.id}`)[0].n, 1)

  t.same(json(await follow(ann, bob.id, 'DELETE')), { following: false, followerCount: 0 })
  t.same(json(await follow(ann, bob.id, 'DELETE')), { following: false, followerCount: 0 })
})
