// Digest emails driven by the tests' own clock: `digestService.runDue(now)` is what the minute job calls.
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { bearer, build, createRecipe, follow, json, registerUser, type TestUser } from '../../../helper.js'
import { smtpServer } from '../../../helpers/smtp.js'

const at = (iso: string) => new Date(iso)

async function settings (app: FastifyInstance, user: TestUser, payload: Record<string, unknown>): Promise<void> {
  const res = await app.inject({ method: 'PUT', url: '/api/users/notification-settings', headers: bearer(user), payload })
  if (res.statusCode !== 200) throw new Error(`settings: ${res.statusCode} ${res.body}`)
}

/**
 * A notification for `user` created at `when`: a real follow by a new user, dated by the test (the clock the
 * scheduler sees is the test's; notifications have no API that sets their time).
 */
async function notificationAt (app: FastifyInstance, user: TestUser, when: string): Promise<void> {
  const fan = await registerUser(app)
  await follow(app, fan, user)
  await app.db`update notifications set created_at = ${at(when)} where user_id = ${user.id} and actor_id = ${fan.id}`
}

async function digestsOf (app: FastifyInstance, user: TestUser): Promise<Array<{ subject: string, text: string }>> {
  return await app.db`select subject, text from email_outbox where user_id = ${user.id} and kind = 'digest' order by created_at`
}

t.test('daily digest in Europe/Paris follows the local clock across the spring DST change', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  await settings(app, user, { digestFrequency: 'daily', digestTime: '09:00', digestTimezone: 'Europe/Paris' })
  await notificationAt(app, user, '2027-03-27T06:00:00Z')

  t.same(await app.digestService.runDue(at('2027-03-27T07:59:00Z')), { sent: 0 }, '08:59 CET: not yet')
  t.same(await app.digestService.runDue(at('2027-03-27T08:00:00Z')), { sent: 1 }, '09:00 CET: sent')
  t.same(await app.digestService.runDue(at('2027-03-27T08:01:00Z')), { sent: 0 }, 'once per day')
  t.same(await app.digestService.runDue(at('2027-03-27T20:00:00Z')), { sent: 0 }, 'nothing new')
  const [first] = await digestsOf(app, user)
  t.match(first.subject, /daily.*1 new notification/)
  t.match(first.text, 'started following you')

  // Clocks go forward on 28 March 2027: 09:00 is now 07:00 UTC, not 08:00.
  await notificationAt(app, user, '2027-03-27T21:00:00Z')
  t.same(await app.digestService.runDue(at('2027-03-28T06:59:00Z')), { sent: 0 }, '08:59 CEST: not yet')
  t.same(await app.digestService.runDue(at('2027-03-28T07:00:00Z')), { sent: 1 }, '09:00 CEST: sent')
  const digests = await digestsOf(app, user)
  t.equal(digests.length, 2)
  t.match(digests[1].subject, /1 new notification/, 'only what is new since the previous digest')
})

t.test('weekly digest on the chosen day, across the US DST change, in New York', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  await settings(app, user, { digestFrequency: 'weekly', digestDay: 'monday', digestTime: '09:00', digestTimezone: 'America/New_York' })
  await notificationAt(app, user, '2027-03-10T15:00:00Z')
  t.same(await app.digestService.runDue(at('2027-03-12T14:00:00Z')), { sent: 0 }, 'Friday: not the day')
  // DST began on Sunday 14 March: Monday 09:00 EDT is 13:00 UTC.
  t.same(await app.digestService.runDue(at('2027-03-15T12:59:00Z')), { sent: 0 }, 'Monday 08:59: not yet')
  t.same(await app.digestService.runDue(at('2027-03-15T13:00:00Z')), { sent: 1 }, 'Monday 09:00 EDT: sent')
  t.same(await app.digestService.runDue(at('2027-03-18T13:00:00Z')), { sent: 0 }, 'not again that week')
  await notificationAt(app, user, '2027-03-16T15:00:00Z')
  t.same(await app.digestService.runDue(at('2027-03-21T13:00:00Z')), { sent: 0 }, 'Sunday: waits for Monday')
  t.same(await app.digestService.runDue(at('2027-03-22T13:00:00Z')), { sent: 1 }, 'next Monday')
  t.match((await digestsOf(app, user))[0].subject, /weekly/)
})

t.test('each user on their own zone; none, nothing new and read notifications send nothing', async t => {
  const app = await build(t)
  const tokyo = await registerUser(app)
  const losAngeles = await registerUser(app)
  const none = await registerUser(app)
  const allRead = await registerUser(app)
  await settings(app, tokyo, { digestFrequency: 'daily', digestTime: '08:00', digestTimezone: 'Asia/Tokyo' })
  await settings(app, losAngeles, { digestFrequency: 'daily', digestTime: '08:00', digestTimezone: 'America/Los_Angeles' })
  await settings(app, none, { digestFrequency: 'none' })
  await settings(app, allRead, { digestFrequency: 'daily', digestTime: '08:00', digestTimezone: 'UTC' })
  for (const user of [tokyo, losAngeles, none, allRead]) await notificationAt(app, user, '2027-01-10T20:00:00Z')
  await app.inject({ method: 'PUT', url: '/api/notifications/read-all', headers: bearer(allRead) })

  // The notifications came at 20:00 UTC on 10 January: after that day's 08:00 in Los Angeles (16:00 UTC), before
  // Tokyo's 08:00 on 11 January (23:00 UTC on the 10th).
  t.same(await app.digestService.runDue(at('2027-01-10T23:00:00Z')), { sent: 1 })
  t.equal((await digestsOf(app, tokyo)).length, 1, 'Tokyo at its 08:00')
  t.equal((await digestsOf(app, losAngeles)).length, 0, 'Los Angeles not yet')
  t.same(await app.digestService.runDue(at('2027-01-11T16:00:00Z')), { sent: 1 }, 'Los Angeles at its 08:00')
  t.equal((await digestsOf(app, none)).length, 0, 'frequency none')
  t.equal((await digestsOf(app, allRead)).length, 0, 'all read: nothing new')
})

t.test('two workers racing for the same digests send each one once', async t => {
  const first = await build(t, { fresh: true })
  const second = await build(t, { fresh: true })
  const users: TestUser[] = []
  for (let i = 0; i < 12; i++) {
    const user = await registerUser(first)
    await settings(first, user, { digestFrequency: 'daily', digestTime: '07:30', digestTimezone: 'Europe/Berlin' })
    await notificationAt(first, user, '2027-02-01T05:00:00Z')
    users.push(user)
  }
  const now = at('2027-02-01T06:30:00Z')
  const results = await Promise.all([first.digestService.runDue(now), second.digestService.runDue(now), first.digestService.runDue(now)])
  t.equal(results.reduce((sum, r) => sum + r.sent, 0), 12, 'twelve digests in all')
  for (const user of users) t.equal((await digestsOf(first, user)).length, 1, `one for ${user.username}`)

  // A restart (a new instance) within the same slot sends nothing again.
  const restarted = await build(t, { fresh: true })
  t.same(await restarted.digestService.runDue(at('2027-02-01T09:00:00Z')), { sent: 0 })
})

t.test('the digest email: notifications listed, escaped, with unsubscribe headers', async t => {
  const smtp = await smtpServer(t)
  const app = await build(t, { env: { SMTP_URL: smtp.url, API_PUBLIC_URL: 'http://api.recipes.test' } })
  const author = await registerUser(app)
  const fan = await registerUser(app)
  await settings(app, author, { digestFrequency: 'daily', digestTime: '09:00', digestTimezone: 'UTC', emailLikes: false })
  const recipe = await createRecipe(app, author, { title: 'Pie <i>& "Mash"</i>' })
  await app.inject({ method: 'POST', url: `/api/social/recipes/${recipe.id}/like`, headers: bearer(fan) })
  await app.db`update notifications set created_at = ${at('2027-05-01T08:00:00Z')} where user_id = ${author.id}`
  t.same(await app.digestService.runDue(at('2027-05-01T09:00:00Z')), { sent: 1 })
  const mail = await smtp.waitFor(author.email, /digest/)
  t.match(mail.text, 'Pie <i>& "Mash"</i>', 'text keeps the title')
  t.notMatch(mail.html, '<i>&', 'HTML escapes it')
  t.match(mail.html, 'Pie &lt;i&gt;&amp;')
  t.match(mail.header('list-unsubscribe'), /^<http:\/\/api\.recipes\.test\/api\/unsubscribe\?token=/)
  t.equal(mail.header('list-unsubscribe-post'), 'List-Unsubscribe=One-Click')
  const link = mail.links.find(l => l.startsWith('http://api.recipes.test/api/unsubscribe'))!
  const url = new URL(link)
  t.equal(url.searchParams.get('scope'), 'digest', 'the footer suggests stopping the digest')
  const res = await app.inject({ method: 'POST', url: '/api/unsubscribe', payload: { token: url.searchParams.get('token'), scope: 'digest' } })
  t.equal(res.statusCode, 200)
  t.equal(json(await app.inject({ url: '/api/users/notification-settings', headers: bearer(author) })).settings.digestFrequency, 'none')
})
