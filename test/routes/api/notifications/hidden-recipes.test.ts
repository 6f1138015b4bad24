// Notifications about a recipe their reader may no longer see are hidden (routes/api/notifications: list, total,
// unread count, mark read, delete, delivery jobs, digests) and come back when the recipe is shown again; the author's
// own notifications about it stay.
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { bearer, build, createRecipe, drainJobs, eventually, follow, json, patchRecipe, registerUser, type TestUser } from '../../../helper.js'

interface Listed { id: string, type: string, recipeId: string | null, message: string }

async function listOf (app: FastifyInstance, user: TestUser, query = '') {
  const res = await app.inject({ url: `/api/notifications?limit=50${query}`, headers: bearer(user) })
  if (res.statusCode !== 200) throw new Error(`list: ${res.statusCode} ${res.body}`)
  return { body: res.body, ...json<{ notifications: Listed[], unreadCount: number, pagination: { total: number } }>(res) }
}

async function unreadCount (app: FastifyInstance, user: TestUser): Promise<number> {
  return json(await app.inject({ url: '/api/notifications/unread-count', headers: bearer(user) })).unreadCount
}

/** The follower's `new_recipe` notification of `recipe`, once the fan-out job has written it. */
async function heardOf (app: FastifyInstance, follower: TestUser, recipe: Record<string, any>): Promise<Listed> {
  return await eventually(async () => (await listOf(app, follower)).notifications.find(n => n.type === 'new_recipe' && n.recipeId === recipe.id), 15_000)
}

async function comment (app: FastifyInstance, user: TestUser, url: string, content: string): Promise<{ id: string }> {
  const res = await app.inject({ method: 'POST', url, headers: bearer(user), payload: { content } })
  if (res.statusCode !== 201) throw new Error(`comment: ${res.statusCode} ${res.body}`)
  return json(res).comment
}

t.test('a recipe made private leaves its followers\' notifications, shown again it is back; the author keeps theirs', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const fan = await registerUser(app)
  const admirer = await registerUser(app)
  const stranger = await registerUser(app)
  await follow(app, fan, author)
  await follow(app, admirer, fan)
  const secret = await createRecipe(app, author, { title: 'Secret Souffle' })
  const open = await createRecipe(app, author, { title: 'Open Tart' })
  await heardOf(app, fan, secret)
  await heardOf(app, fan, open)
  // The fan's comment answered by the author: a reply notification about the recipe for the fan; the comment, a like
  // and a rating: the author's own notifications about it.
  const fanComment = await comment(app, fan, `/api/comments/recipe/${secret.id}`, 'Rises well')
  await comment(app, author, `/api/comments/${fanComment.id}/reply`, 'Thanks')
  await app.inject({ method: 'POST', url: `/api/social/recipes/${secret.id}/like`, headers: bearer(fan) })
  await app.inject({ method: 'POST', url: `/api/ratings/recipes/${secret.id}`, headers: bearer(fan), payload: { rating: 5 } })

  const before = await listOf(app, fan)
  const aboutSecret = before.notifications.filter(n => n.recipeId === secret.id)
  t.same(aboutSecret.map(n => n.type).sort(), ['new_recipe', 'reply'], 'the fan hears of the recipe and of the reply')
  t.match(before.body, 'Secret Souffle')
  t.equal(before.pagination.total, 4, 'two new recipes, the reply and a follow')
  t.equal(before.unreadCount, 4)
  const authorBefore = await listOf(app, author)
  t.same(authorBefore.notifications.filter(n => n.recipeId === secret.id).map(n => n.type).sort(), ['comment', 'like', 'rating'])

  await patchRecipe(app, author, secret.id, { visibility: 'private' })

  t.test('the fan: not in the list, the total or any count', async t => {
    const hidden = await listOf(app, fan)
    t.same(hidden.notifications.filter(n => n.recipeId === secret.id), [], 'hidden')
    t.notMatch(hidden.body, 'Secret Souffle', 'the title appears nowhere in the answer')
    t.same(hidden.notifications.map(n => n.type).sort(), ['follow', 'new_recipe'], 'the rest stays')
    t.equal(hidden.pagination.total, 2)
    t.equal(hidden.unreadCount, 2)
    t.equal(await unreadCount(app, fan), 2, 'the polled count too')
    const unread = await listOf(app, fan, '&unreadOnly=true')
    t.equal(unread.notifications.length, 2)
    t.equal(unread.pagination.total, 2)
    t.notMatch(unread.body, 'Secret Souffle')
    const past = await listOf(app, fan, '&page=9')
    t.same(past.notifications, [], 'a page past the end is empty...')
    t.match(past, { unreadCount: 2, pagination: { total: 2 } }, '... and still counted')
    for (const n of aboutSecret) {
      for (const [method, url] of [['PUT', `/api/notifications/${n.id}/read`], ['PATCH', `/api/notifications/${n.id}/read`], ['DELETE', `/api/notifications/${n.id}`]] as const) {
        const res = await app.inject({ method, url, headers: bearer(fan) })
        t.equal(res.statusCode, 404, `${method} of the hidden ${n.type}: not found`)
        t.notMatch(res.body, 'Secret Souffle')
      }
    }
  })

  t.test('the author\'s own notifications about it are unaffected', async t => {
    const own = await listOf(app, author)
    t.same(own.notifications.filter(n => n.recipeId === secret.id).map(n => n.type).sort(), ['comment', 'like', 'rating'])
    t.match(own.body, 'Secret Souffle')
    t.equal(own.pagination.total, authorBefore.pagination.total)
    t.equal(await unreadCount(app, author), authorBefore.unreadCount)
  })

  t.test('other users see none of it', async t => {
    const theirs = await listOf(app, stranger)
    t.same(theirs.notifications, [])
    t.equal(await unreadCount(app, stranger), 0)
    for (const n of authorBefore.notifications) {
      t.equal((await app.inject({ method: 'PUT', url: `/api/notifications/${n.id}/read`, headers: bearer(fan) })).statusCode, 404)
    }
  })

  t.test('shown again (friends, and the fan becomes a friend): back as it was, title and all', async t => {
    await patchRecipe(app, author, secret.id, { visibility: 'friends' })
    t.equal(await unreadCount(app, fan), 2, 'friends only: still hidden from a one-way follower')
    await follow(app, author, fan) // (a follow notification for the fan too)
    const back = await listOf(app, fan)
    t.same(back.notifications.filter(n => n.recipeId === secret.id).map(n => n.id).sort(), aboutSecret.map(n => n.id).sort())
    t.match(back.notifications.find(n => n.type === 'new_recipe' && n.recipeId === secret.id)?.message, 'Secret Souffle')
    t.equal(back.pagination.total, 5)
    t.equal(back.unreadCount, 5)
    t.equal(await unreadCount(app, fan), 5)
  })

  t.test('mark all read touches only what is shown', async t => {
    await patchRecipe(app, author, secret.id, { visibility: 'private' })
    t.same(json(await app.inject({ method: 'PUT', url: '/api/notifications/read-all', headers: bearer(fan) })), { success: true, updated: 3 })
    t.equal(await unreadCount(app, fan), 0)
    await patchRecipe(app, author, secret.id, { visibility: 'public' })
    t.equal(await unreadCount(app, fan), 2, 'the hidden two come back unread')
  })

  t.test('deleted: gone for everyone', async t => {
    const res = await app.inject({ method: 'DELETE', url: `/api/recipes/${secret.id}`, headers: bearer(author) })
    t.equal(res.statusCode, 200)
    const after = await listOf(app, fan)
    t.notMatch(after.body, 'Secret Souffle')
    t.equal(after.pagination.total, 3)
    t.equal(await unreadCount(app, fan), 0)
    t.notMatch((await listOf(app, author)).body, 'Secret Souffle')
  })
})

t.test('a delivery job that runs once the recipe is hidden sends no email; shown again, it does', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const fan = await registerUser(app)
  await follow(app, fan, author)
  // New-recipe emails off while the notification is written: it gets no delivery job of its own.
  await app.inject({ method: 'POST', url: '/api/users/email-preferences', headers: bearer(fan), payload: { emailNewRecipes: false } })
  const recipe = await createRecipe(app, author, { title: 'Quiet Quiche' })
  const notification = await heardOf(app, fan, recipe)
  await app.inject({ method: 'POST', url: '/api/users/email-preferences', headers: bearer(fan), payload: { emailNewRecipes: true } })
  const emails = async () => await app.db<Array<{ subject: string, text: string }>>`
    select subject, text from email_outbox where user_id = ${fan.id} and kind = 'new_recipe'`

  await patchRecipe(app, author, recipe.id, { visibility: 'private' })
  await app.queue.send('notification.deliver', { id: notification.id })
  await drainJobs(app)
  t.same(await emails(), [], 'hidden: no email written')

  await patchRecipe(app, author, recipe.id, { visibility: 'public' })
  await app.queue.send('notification.deliver', { id: notification.id })
  await drainJobs(app)
  const [email] = await emails()
  t.match(email, { subject: /Quiet Quiche/ }, 'the same job writes it once the recipe is shown')
})

t.test('digests leave out what their reader may no longer see', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const fan = await registerUser(app)
  const onlyThis = await registerUser(app)
  const admirer = await registerUser(app)
  for (const user of [fan, onlyThis]) {
    const res = await app.inject({ method: 'PUT', url: '/api/users/notification-settings', headers: bearer(user), payload: { digestFrequency: 'daily', digestTime: '09:00', digestTimezone: 'UTC' } })
    t.equal(res.statusCode, 200)
    await follow(app, user, author)
  }
  await follow(app, admirer, fan)
  const recipe = await createRecipe(app, author, { title: 'Hidden Haggis' })
  await heardOf(app, fan, recipe)
  await heardOf(app, onlyThis, recipe)
  await app.db`update notifications set created_at = '2027-06-01T08:00:00Z' where user_id in (${fan.id}, ${onlyThis.id})`
  const digestsOf = async (user: TestUser) => await app.db<Array<{ subject: string, text: string }>>`
    select subject, text from email_outbox where user_id = ${user.id} and kind = 'digest' order by created_at`

  await patchRecipe(app, author, recipe.id, { visibility: 'private' })
  await app.digestService.runDue(new Date('2027-06-01T09:00:00Z'))
  const [digest] = await digestsOf(fan)
  t.match(digest, { subject: /1 new notification/, text: /started following you/ }, 'the follow is listed')
  t.notMatch(digest.text, 'Hidden Haggis', 'the hidden recipe is not')
  t.same(await digestsOf(onlyThis), [], 'nothing shown: no digest at all')

  await patchRecipe(app, author, recipe.id, { visibility: 'public' })
  await app.digestService.runDue(new Date('2027-06-02T09:00:00Z'))
  const [back] = await digestsOf(onlyThis)
  t.match(back, { subject: /1 new notification/, text: /Hidden Haggis/ }, 'shown again: in the next digest')
})
