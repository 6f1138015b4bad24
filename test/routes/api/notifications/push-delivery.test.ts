// Notifications reach subscribed browsers: the delivery job sent with the notification pushes through a real
// stand-in push service (test/helpers/push.ts), under the recipient's per-type preferences.
import t from 'tap'
import { bearer, build, createRecipe, eventually, follow, registerUser } from '../../../helper.js'
import { pushServer } from '../../../helpers/push.js'

t.test('a like, a comment and a new recipe are pushed; a type switched off is not', async t => {
  const app = await build(t, { env: { PUSH_SERVICE_ORIGINS: 'http://127.0.0.1:*' } })
  const service = await pushServer(t, { publicKey: () => app.config.vapid.publicKey!, subject: () => app.config.vapid.subject })
  const author = await registerUser(app)
  const fan = await registerUser(app)
  const browser = service.browser()
  const subscribed = await app.inject({ method: 'POST', url: '/api/push-notifications/subscribe', headers: bearer(author), payload: browser.subscription })
  t.equal(subscribed.statusCode, 201)
  const recipe = await createRecipe(app, author, { title: 'Ratatouille' })

  await app.inject({ method: 'POST', url: `/api/social/recipes/${recipe.id}/like`, headers: bearer(fan) })
  const [like] = await eventually(async () => { const got = service.to(browser); return got.length > 0 && got })
  t.same(like.problems, [], 'VAPID, encryption and headers as a push service expects')
  t.match(like.payload, { title: 'New like', body: `${fan.username} liked your recipe "Ratatouille"`, tag: 'like' })
  t.match(like.payload!.url, `/recipes/${recipe.id}`)
  t.notMatch(like.rawPayload, author.email, 'no address in the payload')

  // Comments off: the comment is in the app, not on the device.
  await app.inject({ method: 'PUT', url: '/api/push-notifications/preferences', headers: bearer(author), payload: { comment: false } })
  await app.inject({ method: 'POST', url: `/api/comments/recipe/${recipe.id}`, headers: bearer(fan), payload: { content: 'Lovely' } })
  await follow(app, fan, author)
  const pushed = await eventually(async () => { const got = service.to(browser); return got.length >= 2 && got })
  t.same(pushed.map(p => p.payload?.tag), ['like', 'follow'], 'the follow arrives, the comment does not')

  // Followers with a subscription hear of a new recipe by push too.
  const followerBrowser = service.browser()
  await app.inject({ method: 'POST', url: '/api/push-notifications/subscribe', headers: bearer(fan), payload: followerBrowser.subscription })
  await follow(app, fan, author)
  await createRecipe(app, author, { title: 'Pissaladière' })
  // (The first recipe's fan-out may also reach the fan, if its job ran after the follow: followers are read then.)
  const news = await eventually(async () => service.to(followerBrowser).find(p => String(p.payload?.body).includes('Pissaladière')))
  t.match(news.payload, { title: 'New recipe', tag: 'new_recipe' })
  t.same(news.problems, [])
})

t.test('a subscription the push service says is gone is removed on the next notification', async t => {
  const app = await build(t, { env: { PUSH_SERVICE_ORIGINS: 'http://127.0.0.1:*' } })
  const service = await pushServer(t, { publicKey: () => app.config.vapid.publicKey!, subject: () => app.config.vapid.subject })
  const author = await registerUser(app)
  const fan = await registerUser(app)
  const gone = service.browser(410)
  await app.inject({ method: 'POST', url: '/api/push-notifications/subscribe', headers: bearer(author), payload: gone.subscription })
  await follow(app, fan, author)
  await eventually(async () => (await app.db`select 1 from push_subscriptions where user_id = ${author.id}`).length === 0)
  t.equal(service.to(gone).length, 1, 'tried once, then removed')
})
