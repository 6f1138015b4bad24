// Web Push end to end: browsers subscribe like real ones (their own P-256 key pair and auth secret), and a real HTTP
// server on 127.0.0.1 plays the push service: it checks the VAPID JWT and the headers as push services do, then
// decrypts the aes128gcm body with the browser's private key.
import { createECDH, randomBytes } from 'node:crypto'
import t, { type Test } from 'tap'
import webPush from 'web-push'
import { pushServer } from '../../../helpers/push.js'
import { bearer, build, expectValidationError, json, registerUser, type TestUser } from '../../../helper.js'

const ENV = { PUSH_SERVICE_ORIGINS: 'http://127.0.0.1:*' }
const BASE = '/api/push-notifications'
const DAY_SECONDS = 24 * 3600

async function setup (t: Test) {
  const app = await build(t, { env: ENV })
  const service = await pushServer(t, { publicKey: () => app.config.vapid.publicKey!, subject: () => app.config.vapid.subject })
  const subscribe = async (user: TestUser, body: unknown) => await app.inject({
    method: 'POST', url: `${BASE}/subscribe`, headers: { ...bearer(user), 'user-agent': 'TestBrowser/1.0' }, payload: body as Record<string, unknown>
  })
  const list = async (user: TestUser, query = '') => json(await app.inject({ url: `${BASE}/subscriptions${query}`, headers: bearer(user) }))
  return { app, service, subscribe, list }
}

t.test('VAPID key, subscribe and unsubscribe', async t => {
  const { app, service, subscribe, list } = await setup(t)
  const ann = await registerUser(app)

  const key = await app.inject(`${BASE}/vapid-public-key`)
  t.equal(key.statusCode, 200, 'public, no sign-in')
  const { publicKey } = json(key)
  const point = Buffer.from(publicKey, 'base64url')
  t.equal(point.length, 65)
  t.equal(point[0], 4, 'an uncompressed P-256 point')
  t.equal(publicKey, app.config.vapid.publicKey)

  const browser = service.browser()
  t.equal((await app.inject({ method: 'POST', url: `${BASE}/subscribe`, payload: browser.subscription })).statusCode, 401)
  const first = await subscribe(ann, browser.subscription)
  t.equal(first.statusCode, 201, 'new')
  const { subscription } = json(first)
  t.match(subscription, { origin: service.origin, userAgent: 'TestBrowser/1.0', lastSuccessAt: null })
  t.same(Object.keys(subscription).sort(), ['createdAt', 'id', 'lastSuccessAt', 'origin', 'userAgent'], 'no endpoint, no keys')
  t.notOk(first.body.includes(browser.path) || first.body.includes(browser.subscription.keys.auth), 'the capability URL and secrets stay hidden')

  const again = await subscribe(ann, browser.subscription)
  t.equal(again.statusCode, 200, 'the same endpoint again')
  t.equal(json(again).subscription.id, subscription.id)
  const listed = await list(ann)
  t.equal(listed.pagination.total, 1, 'no duplicate row')
  t.same(listed.subscriptions, [subscription])

  t.test('unsubscribe by endpoint, then nothing is left to push to', async t => {
    const res = await app.inject({ method: 'DELETE', url: `${BASE}/subscribe`, headers: bearer(ann), payload: { endpoint: browser.endpoint } })
    t.equal(res.statusCode, 200)
    t.ok(json(res).message)
    t.equal((await app.inject({ method: 'DELETE', url: `${BASE}/subscribe`, headers: bearer(ann), payload: { endpoint: browser.endpoint } })).statusCode, 404)
    t.same(await app.pushService.send(ann.id, 'like', { title: 'x', body: 'y' }), { sent: 0, removed: 0, failed: 0 })
    t.equal(service.received.length, 0)
  })
})

t.test('the stand-in push service refuses what a real one refuses', async t => {
  const { app, service } = await setup(t)
  const b = service.browser()
  const { vapid } = app.config
  const post = async (details: webPush.RequestDetails, headers: Record<string, string> = {}) =>
    await fetch(details.endpoint, { method: 'POST', headers: { ...details.headers, ...headers }, body: details.body })
  const ours = { subject: vapid.subject, publicKey: vapid.publicKey!, privateKey: vapid.privateKey! }
  const good = webPush.generateRequestDetails(b.subscription, '{"title":"t","body":"b"}', { vapidDetails: ours, TTL: 60 })
  t.equal((await post(good)).status, 201, 'a correct push is accepted')

  const other = webPush.generateVAPIDKeys()
  const forged = webPush.generateRequestDetails(b.subscription, 'x', { vapidDetails: { ...ours, privateKey: other.privateKey }, TTL: 60 })
  t.equal((await post(forged)).status, 400, 'a JWT signed by another key')
  const elsewhere = webPush.generateRequestDetails({ ...b.subscription, endpoint: 'https://push.example/x' }, 'x', { vapidDetails: ours, TTL: 60 })
  t.equal((await post({ ...elsewhere, endpoint: b.endpoint })).status, 400, 'a JWT for another audience')
  t.equal((await post(good, { 'content-encoding': 'aesgcm' })).status, 400, 'another encoding')
  t.match(service.received.slice(1).map(r => r.problems.join('; ')), [/jwt/, /jwt/, /content-encoding/])
})

t.test('subscriptions are validated like a push service would need them', async t => {
  const { app, service, subscribe, list } = await setup(t)
  const ann = await registerUser(app)
  const good = service.browser().subscription
  const withEndpoint = (endpoint: string) => ({ ...good, endpoint })

  for (const endpoint of [
    'https://evil.example/push/1',
    'http://169.254.169.254/latest/meta-data/',
    `http://user:secret@${service.origin.slice('http://'.length)}/push/1`,
    `https://${service.origin.slice('http://'.length)}/push/1`,
    'http://localhost:80/push/1',
    `${service.origin}/${'x'.repeat(2048)}`
  ]) expectValidationError(t, await subscribe(ann, withEndpoint(endpoint)), 'endpoint')

  const ecdh = createECDH('prime256v1')
  const point = ecdh.generateKeys()
  const offCurve = Buffer.from(point)
  offCurve[64] ^= 1
  const badKeys: Array<[string, Record<string, string>]> = [
    ['keys.p256dh', { p256dh: point.subarray(0, 64).toString('base64url') }],
    ['keys.p256dh', { p256dh: ecdh.getPublicKey(null, 'compressed').toString('base64url') }],
    ['keys.p256dh', { p256dh: Buffer.concat([Buffer.from([2]), point.subarray(1)]).toString('base64url') }],
    ['keys.p256dh', { p256dh: offCurve.toString('base64url') }],
    ['keys.p256dh', { p256dh: point.toString('base64') }],
    ['keys.auth', { auth: randomBytes(15).toString('base64url') }],
    ['keys.auth', { auth: randomBytes(32).toString('base64url') }],
    ['keys.auth', { auth: 'not base64url!' }]
  ]
  for (const [field, keys] of badKeys) expectValidationError(t, await subscribe(ann, { ...good, keys: { ...good.keys, ...keys } }), field)
  expectValidationError(t, await subscribe(ann, { endpoint: good.endpoint }), 'keys')
  t.equal((await list(ann)).pagination.total, 0, 'nothing was stored')
  t.equal((await subscribe(ann, good)).statusCode, 201, 'while a good one is taken')
})

t.test('send: delivered, encrypted, small, and only for types the user wants pushed', async t => {
  const { app, service, subscribe, list } = await setup(t)
  const ann = await registerUser(app)
  const bob = await registerUser(app)
  const phone = service.browser()
  const laptop = service.browser()
  t.equal((await subscribe(ann, phone.subscription)).statusCode, 201)
  t.equal((await subscribe(ann, laptop.subscription)).statusCode, 201)

  const payload = { title: 'New like', body: `${bob.username} liked your recipe "Lasagne"`, url: '/recipes/lasagne', notificationId: 'n1' }
  t.same(await app.pushService.send(ann.id, 'like', payload), { sent: 2, removed: 0, failed: 0 })
  for (const browser of [phone, laptop]) {
    const [got] = service.to(browser)
    t.same(got.problems, [], 'the push service accepts it')
    t.equal(got.ttl, String(DAY_SECONDS), 'kept for a day when the browser is offline')
    t.same(got.payload, payload, 'decrypted by the browser\'s own key')
    t.notOk(got.rawPayload.includes(ann.email) || got.rawPayload.includes(bob.email), 'no email address')
  }
  const subs = (await list(ann)).subscriptions as Array<{ lastSuccessAt: string | null }>
  t.ok(subs.every(s => s.lastSuccessAt != null), 'successes are recorded')

  t.test('long or odd payloads are cut to fit', async t => {
    const from = service.received.length
    await app.pushService.send(ann.id, 'comment', {
      title: '🍝'.repeat(500),
      body: `Write to ${bob.email} about it ${'é'.repeat(1000)}`,
      url: `/${'ü'.repeat(2000)}`,
      tag: 'comment-1'
    })
    const [got] = service.to(phone, from)
    t.same(got.problems, [], 'under 4096 bytes encrypted, and valid')
    t.equal([...(got.payload!.title as string)].length, 100, 'title cut to 100 characters')
    t.equal([...(got.payload!.body as string)].length, 300, 'body cut to 300 characters')
    t.notOk(got.rawPayload.includes(bob.email), 'an email address in the text is hidden')
    t.equal(got.payload!.url, undefined, 'a url that would not fit is dropped')
    t.equal(got.payload!.tag, 'comment-1')
    const extra = { ...payload, userId: bob.id, email: bob.email, token: bob.token } as typeof payload
    const next = service.received.length
    await app.pushService.send(ann.id, 'like', extra)
    t.same(service.to(phone, next)[0].payload, payload, 'fields beyond title, body, url, tag and notificationId are never sent')
  })

  t.test('a type turned off is not pushed; the others still are', async t => {
    const prefs = json(await app.inject({ url: `${BASE}/preferences`, headers: bearer(ann) })).preferences
    t.same(prefs, { like: true, comment: true, reply: true, follow: true, rating: true, new_recipe: true, family_invite: true, meal_plan_shared: true, system: true })
    const off = await app.inject({ method: 'PUT', url: `${BASE}/preferences`, headers: bearer(ann), payload: { like: false, system: true, bogus: false } })
    t.equal(off.statusCode, 200)
    t.same(json(off).preferences, { ...prefs, like: false }, 'unknown keys are dropped')
    expectValidationError(t, await app.inject({ method: 'PUT', url: `${BASE}/preferences`, headers: bearer(ann), payload: { follow: 'no' } }), 'follow')
    t.equal((await app.inject({ url: `${BASE}/preferences` })).statusCode, 401)

    const from = service.received.length
    t.same(await app.pushService.send(ann.id, 'like', payload), { sent: 0, removed: 0, failed: 0 }, 'like is off')
    t.equal(service.received.length, from, 'nothing reached the push service')
    t.same(await app.pushService.send(ann.id, 'follow', { title: 'New follower', body: 'x' }), { sent: 2, removed: 0, failed: 0 }, 'follow is on')
    t.same(json(await app.inject({ url: `${BASE}/preferences`, headers: bearer(bob) })).preferences.like, true, 'another user\'s switch is theirs')
  })
})

t.test('gone and failing subscriptions', async t => {
  const { app, service, subscribe, list } = await setup(t)
  const ann = await registerUser(app)
  const ok = service.browser()
  const gone = service.browser(410)
  const unknown = service.browser(404)
  const broken = service.browser(500)
  for (const b of [ok, gone, unknown, broken]) t.equal((await subscribe(ann, b.subscription)).statusCode, 201)

  t.same(await app.pushService.send(ann.id, 'system', { title: 'Hello', body: 'World' }), { sent: 1, removed: 2, failed: 1 })
  t.same(service.received.map(r => r.problems).flat(), [], 'every request was well formed')
  const left = await list(ann)
  t.equal(left.pagination.total, 2, '410 and 404 are deleted at once, the 500 is kept')
  const failures = async () => (await app.db<Array<{ failures: number }>>`select failures from push_subscriptions where endpoint = ${broken.endpoint}`)[0]?.failures
  t.equal(await failures(), 1, 'the failure is counted')

  // Five consecutive failures drop it; a success in between would reset the count.
  for (let i = 2; i <= 4; i++) t.same(await app.pushService.send(ann.id, 'system', { title: 'Hello', body: 'World' }), { sent: 1, removed: 0, failed: 1 })
  t.equal(await failures(), 4)
  t.equal((await list(ann)).pagination.total, 2)
  t.same(await app.pushService.send(ann.id, 'system', { title: 'Hello', body: 'World' }), { sent: 1, removed: 0, failed: 1 })
  t.equal(await failures(), undefined, 'the fifth failure deleted it')
  t.equal((await list(ann)).pagination.total, 1)

  t.test('a push service that does not answer counts as failed, and send does not throw', async t => {
    const dead = `http://127.0.0.1:1/push/${randomBytes(4).toString('hex')}`
    t.equal((await subscribe(ann, { ...ok.subscription, endpoint: dead })).statusCode, 201)
    t.same(await app.pushService.send(ann.id, 'system', { title: 'Hello', body: 'World' }), { sent: 1, removed: 0, failed: 1 })
  })
})

t.test('one user never reaches another\'s subscriptions', async t => {
  const { app, service, subscribe, list } = await setup(t)
  const ann = await registerUser(app)
  const bob = await registerUser(app)
  const bobs = service.browser()
  const bobSub = json(await subscribe(bob, bobs.subscription)).subscription

  t.equal((await list(ann)).pagination.total, 0, 'not in another user\'s list')
  t.equal((await app.inject({ method: 'DELETE', url: `${BASE}/subscriptions/${bobSub.id}`, headers: bearer(ann) })).statusCode, 404)
  t.equal((await app.inject({ method: 'DELETE', url: `${BASE}/subscribe`, headers: bearer(ann), payload: { endpoint: bobs.endpoint } })).statusCode, 404)
  t.equal((await app.inject({ method: 'DELETE', url: `${BASE}/subscriptions/${bobSub.id}` })).statusCode, 401)
  t.same((await list(bob)).subscriptions.map((s: { id: string }) => s.id), [bobSub.id], 'still there')
  t.same(await app.pushService.send(bob.id, 'follow', { title: 'Still', body: 'works' }), { sent: 1, removed: 0, failed: 0 })
  t.same(service.to(bobs).map(r => r.payload), [{ title: 'Still', body: 'works' }])
  t.same(await app.pushService.send(ann.id, 'follow', { title: 'Not', body: 'for Bob' }), { sent: 0, removed: 0, failed: 0 })

  t.test('a browser subscribed by another user moves to them', async t => {
    const from = service.received.length
    const moved = await subscribe(ann, bobs.subscription)
    t.equal(moved.statusCode, 201, 'new to Ann')
    t.equal((await list(bob)).pagination.total, 0, 'gone from Bob')
    t.equal((await list(ann)).pagination.total, 1)
    t.same(await app.pushService.send(bob.id, 'follow', { title: 'x', body: 'y' }), { sent: 0, removed: 0, failed: 0 })
    t.same(await app.pushService.send(ann.id, 'follow', { title: 'For', body: 'Ann' }), { sent: 1, removed: 0, failed: 0 })
    t.same(service.to(bobs, from).map(r => r.payload), [{ title: 'For', body: 'Ann' }])
  })

  t.test('deleting one\'s own by id', async t => {
    const annSub = (await list(ann)).subscriptions[0]
    const res = await app.inject({ method: 'DELETE', url: `${BASE}/subscriptions/${annSub.id}`, headers: bearer(ann) })
    t.equal(res.statusCode, 200)
    t.ok(json(res).message)
    t.equal((await app.inject({ method: 'DELETE', url: `${BASE}/subscriptions/${annSub.id}`, headers: bearer(ann) })).statusCode, 404)
  })
})

t.test('at most 20 subscriptions per user, exact under concurrency', async t => {
  const { app, service, subscribe, list } = await setup(t)
  const ann = await registerUser(app)
  const browsers = Array.from({ length: 21 }, () => service.browser())
  const ids: string[] = []
  for (const b of browsers) {
    const res = await subscribe(ann, b.subscription)
    t.equal(res.statusCode, 201)
    ids.push(json(res).subscription.id)
  }
  const all = await list(ann, '?limit=50')
  t.equal(all.pagination.total, 20)
  t.notOk(all.subscriptions.some((s: { id: string }) => s.id === ids[0]), 'the oldest was dropped')
  t.ok(all.subscriptions.some((s: { id: string }) => s.id === ids[20]), 'the newest is kept')
  t.same((await list(ann)).pagination, { page: 1, limit: 12, total: 20, totalPages: 2, hasNext: true, hasPrev: false, totalExact: true })
  t.same(await app.pushService.send(ann.id, 'system', { title: 'All', body: 'of them' }), { sent: 20, removed: 0, failed: 0 })
  t.ok(service.maxInFlight() <= 10, `at most 10 pushes in flight (saw ${service.maxInFlight()})`)
  t.equal(service.to(browsers[0]).length, 0, 'the dropped one gets nothing')

  t.test('five identical subscribes at once leave one row', async t => {
    const bob = await registerUser(app)
    const b = service.browser()
    const statuses = (await Promise.all(Array.from({ length: 5 }, async () => await subscribe(bob, b.subscription)))).map(r => r.statusCode)
    t.same(statuses.sort(), [200, 200, 200, 200, 201])
    t.equal((await list(bob)).pagination.total, 1)
  })

  t.test('25 different subscribes at once leave 20', async t => {
    const carl = await registerUser(app)
    const responses = await Promise.all(Array.from({ length: 25 }, async () => await subscribe(carl, service.browser().subscription)))
    t.ok(responses.every(r => r.statusCode === 201))
    t.equal((await list(carl)).pagination.total, 20)
  })
})

t.test('endpoints are checked again when sending: a push service no longer allowed is dropped', async t => {
  const { app, service, subscribe, list } = await setup(t)
  const ann = await registerUser(app)
  const b = service.browser()
  t.equal((await subscribe(ann, b.subscription)).statusCode, 201)
  // The same database and keys, restarted with a list that no longer has the test push service.
  const narrowed = await build(t, { env: { PUSH_SERVICE_ORIGINS: 'https://fcm.googleapis.com' } })
  t.same(await narrowed.pushService.send(ann.id, 'system', { title: 'x', body: 'y' }), { sent: 0, removed: 1, failed: 0 })
  t.equal(service.received.length, 0, 'never contacted')
  t.equal((await list(ann)).pagination.total, 0)
})

t.test('push turned off (production without VAPID keys)', async t => {
  const app = await build(t, { env: { ...ENV, NODE_ENV: 'production', STORAGE_PUBLIC_URL: 'http://127.0.0.1:1' } })
  t.equal(app.pushService.enabled, false)
  const key = await app.inject(`${BASE}/vapid-public-key`)
  t.equal(key.statusCode, 503)
  t.same(json(key), { error: 'Push notifications are not configured' })
  const ann = await registerUser(app)
  const service = await pushServer(t, { publicKey: () => '', subject: () => '' })
  const res = await app.inject({ method: 'POST', url: `${BASE}/subscribe`, headers: bearer(ann), payload: service.browser().subscription })
  t.equal(res.statusCode, 503)
  t.same(await app.pushService.send(ann.id, 'system', { title: 'x', body: 'y' }), { sent: 0, removed: 0, failed: 0 })
  t.equal(json(await app.inject({ url: `${BASE}/preferences`, headers: bearer(ann) })).preferences.like, true, 'preferences still work')
  t.equal(service.received.length, 0, 'nothing was sent')
})
