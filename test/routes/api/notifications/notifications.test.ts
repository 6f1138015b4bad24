import t from 'tap'
import { befriend, bearer, build, createRecipe, eventually, follow, json, registerUser, type TestUser } from '../../../helper.js'

t.test('notifications', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const fan = await registerUser(app)
  const other = await registerUser(app)
  const recipe = await createRecipe(app, author, { title: 'Lasagne' })
  await app.inject({ method: 'POST', url: `/api/social/recipes/${recipe.id}/like`, headers: bearer(fan) })
  await app.inject({ method: 'POST', url: `/api/social/users/${author.id}/follow`, headers: bearer(fan) })
  await app.inject({ method: 'POST', url: `/api/ratings/recipes/${recipe.id}`, headers: bearer(fan), payload: { rating: 4 } })
  // Written in the same transaction as the like, follow and rating: there when the responses arrive.

  const list = json(await app.inject({ url: '/api/notifications', headers: bearer(author) }))
  t.equal(list.unreadCount, 3)
  t.equal(list.pagination.total, 3)
  t.same(list.notifications.map((n: { type: string }) => n.type).sort(), ['follow', 'like', 'rating'])
  const like = list.notifications.find((n: { type: string }) => n.type === 'like')
  t.match(like, { read: false, recipeId: recipe.id, actor: { id: fan.id, username: fan.username }, message: `${fan.username} liked your recipe "Lasagne"` })
  t.same(json(await app.inject({ url: '/api/notifications/unread-count', headers: bearer(author) })), { unreadCount: 3 })

  t.test('another user cannot read, mark or delete them', async t => {
    t.equal(json(await app.inject({ url: '/api/notifications', headers: bearer(other) })).pagination.total, 0)
    for (const [method, url] of [['PUT', `/api/notifications/${like.id}/read`], ['PATCH', `/api/notifications/${like.id}/read`], ['DELETE', `/api/notifications/${like.id}`]] as const) {
      const res = await app.inject({ method, url, headers: bearer(other) })
      t.equal(res.statusCode, 404, `${method} ${url}`)
    }
    t.equal(json(await app.inject({ url: '/api/notifications/unread-count', headers: bearer(author) })).unreadCount, 3, 'untouched')
    t.equal((await app.inject('/api/notifications')).statusCode, 401)
  })

  t.test('mark read with PUT or PATCH, one or all', async t => {
    const put = await app.inject({ method: 'PUT', url: `/api/notifications/${like.id}/read`, headers: bearer(author) })
    t.equal(put.statusCode, 200)
    t.equal(json(put).notification.read, true)
    const patch = await app.inject({ method: 'PATCH', url: `/api/notifications/${like.id}/read`, headers: bearer(author) })
    t.equal(patch.statusCode, 200, 'PATCH does the same')
    const unread = json(await app.inject({ url: '/api/notifications?unreadOnly=true', headers: bearer(author) }))
    t.equal(unread.notifications.length, 2)
    t.equal(unread.unreadCount, 2)
    t.same(json(await app.inject({ method: 'PATCH', url: '/api/notifications/read-all', headers: bearer(author) })), { success: true, updated: 2 })
    t.same(json(await app.inject({ method: 'PUT', url: '/api/notifications/read-all', headers: bearer(author) })), { success: true, updated: 0 })
    t.equal(json(await app.inject({ url: '/api/notifications/unread-count', headers: bearer(author) })).unreadCount, 0)
  })

  t.test('delete', async t => {
    const res = await app.inject({ method: 'DELETE', url: `/api/notifications/${like.id}`, headers: bearer(author) })
    t.equal(res.statusCode, 200)
    t.same(json(res), { success: true, message: 'Notification deleted' })
    t.equal((await app.inject({ method: 'DELETE', url: `/api/notifications/${like.id}`, headers: bearer(author) })).statusCode, 404)
  })
})

t.test('followers who may see a new recipe hear of it once', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const fan = await registerUser(app)
  const friend = await registerUser(app)
  const stranger = await registerUser(app)
  await follow(app, fan, author)
  await befriend(app, friend, author)
  const unread = async (user: TestUser) => json(await app.inject({ url: '/api/notifications?unreadOnly=true', headers: bearer(user) })).notifications as Array<{ type: string, recipeId: string }>

  const mates = await createRecipe(app, author, { title: 'For friends', visibility: 'friends' })
  const open = await createRecipe(app, author, { title: 'For everyone' })
  await createRecipe(app, author, { title: 'Secret', visibility: 'private' })
  // Both jobs have run once the friend has heard of both recipes.
  const friendHeard = await eventually(async () => (await unread(friend)).filter(n => n.type === 'new_recipe').length === 2 && await unread(friend))
  t.same(friendHeard.filter(n => n.type === 'new_recipe').map(n => n.recipeId).sort(), [mates.id, open.id].sort(), 'a friend hears of both')
  t.same((await unread(fan)).filter(n => n.type === 'new_recipe').map(n => n.recipeId), [open.id], 'a one-way follower hears of the public recipe only')
  t.same(await unread(stranger), [], 'someone who does not follow hears nothing')
  t.equal((await unread(author)).filter(n => n.type === 'new_recipe').length, 0, 'never of one\'s own recipe')
})
