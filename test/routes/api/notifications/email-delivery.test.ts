// Emails as a mail client receives them: a real SMTP server on 127.0.0.1 gets every message the service sends.
import type { FastifyInstance } from 'fastify'
import t, { type Test } from 'tap'
import { bearer, build, createRecipe, drainJobs, eventually, follow, json, registerUser } from '../../../helper.js'
import { smtpServer, type TestSmtp } from '../../../helpers/smtp.js'

interface LogRow { id: string, kind: string, status: string, attempts: number, error: string | null, providerId: string | null }

/** The email log (no API reads it; admins will). */
async function emailLog (app: FastifyInstance, to: string, kind?: string): Promise<LogRow[]> {
  return await app.db<LogRow[]>`select id, kind, status, attempts, error, provider_id from email_outbox
    where "to" = ${to} and (${kind ?? null}::text is null or kind = ${kind ?? null}) order by created_at`
}

/** Waits for a log row of `kind` to `to` that satisfies `test`. */
async function logged (app: FastifyInstance, to: string, kind: string, test: (row: LogRow) => boolean): Promise<LogRow> {
  return await eventually(async () => (await emailLog(app, to, kind)).find(test), 15_000)
}

async function withSmtp (t: Test, smtp: TestSmtp, env: Record<string, string> = {}) {
  return await build(t, { env: { SMTP_URL: smtp.url, MAIL_FROM: 'Recipes <no-reply@recipes.test>', API_PUBLIC_URL: 'http://api.recipes.test', ...env } })
}

t.test('welcome email on registration, logged with the server\'s message id', async t => {
  const smtp = await smtpServer(t)
  const app = await withSmtp(t, smtp)
  const user = await registerUser(app)
  const mail = await smtp.waitFor(user.email, /Welcome/)
  t.match(mail.subject, user.username)
  t.match(mail.text, user.username)
  t.equal(mail.header('list-unsubscribe'), undefined, 'account email: no unsubscribe header')
  const row = await logged(app, user.email, 'welcome', r => r.status === 'sent')
  t.match(row, { status: 'sent', attempts: 1, error: null })
  t.ok(row.providerId, 'provider id recorded')
  t.match(mail.messageId, `${row.id}@recipes.test`, 'Message-ID derives from the log row')
})

t.test('without SMTP every message is recorded, never sent', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  const [row] = await emailLog(app, user.email, 'welcome')
  t.match(row, { kind: 'welcome', status: 'recorded', attempts: 0 })
})

t.test('notification emails: like, comment, follower, with unsubscribe link and one-click headers', async t => {
  const smtp = await smtpServer(t)
  const app = await withSmtp(t, smtp)
  const author = await registerUser(app)
  const fan = await registerUser(app)
  const recipe = await createRecipe(app, author, { title: 'Salt & <b>Pepper</b> "Soup"' })

  await app.inject({ method: 'POST', url: `/api/social/recipes/${recipe.id}/like`, headers: bearer(fan) })
  const like = await smtp.waitFor(author.email, /liked your recipe/)
  t.match(like.text, 'Salt & <b>Pepper</b> "Soup"', 'plain text keeps the title byte for byte')
  t.notMatch(like.html, '<b>Pepper</b>', 'HTML escapes the title')
  t.match(like.html, 'Salt &amp; &lt;b&gt;Pepper&lt;/b&gt;')
  const header = like.header('list-unsubscribe') as string
  t.match(header, /^<http:\/\/api\.recipes\.test\/api\/unsubscribe\?token=[\w.-]+>$/)
  t.equal(like.header('list-unsubscribe-post'), 'List-Unsubscribe=One-Click')
  t.ok(like.links.some(link => link.startsWith('http://api.recipes.test/api/unsubscribe?token=')), 'unsubscribe link in the body')
  t.ok(like.links.some(link => link.includes(`/recipes/${recipe.id}`)), 'link to the recipe')
  t.notMatch(like.text, fan.email, 'no address of the actor')

  await app.inject({ method: 'POST', url: `/api/comments/recipe/${recipe.id}`, headers: bearer(fan), payload: { content: 'Needs <script>alert(1)</script> more salt' } })
  const comment = await smtp.waitFor(author.email, /comment/)
  t.match(comment.text, 'more salt')
  t.notMatch(comment.html, '<script>', 'comment text escaped')

  await follow(app, fan, author)
  const follower = await smtp.waitFor(author.email, /following you/)
  t.match(follower.subject, fan.username)

  t.test('the one-click unsubscribe from the header stops them', async t => {
    const url = new URL(header.slice(1, -1))
    const res = await app.inject({
      method: 'POST',
      url: `${url.pathname}${url.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click'
    })
    t.equal(res.statusCode, 200)
    const { settings } = json(await app.inject({ url: '/api/users/notification-settings', headers: bearer(author) }))
    t.match(settings, { emailLikes: false, emailComments: false, digestFrequency: 'none' })
    const other = await registerUser(app)
    const before = smtp.sentTo(author.email).length
    await app.inject({ method: 'POST', url: `/api/social/recipes/${recipe.id}/like`, headers: bearer(other) })
    await follow(app, other, author)
    // The like notification exists in the app; its email does not.
    t.equal((await app.db`select 1 from notifications where user_id = ${author.id} and actor_id = ${other.id}`).length, 2)
    await drainJobs(app)
    t.equal(smtp.sentTo(author.email).length, before, 'no email after unsubscribing')
  })
})

t.test('preferences: emailLikes off stops like emails only; unsubscribedAll stops all', async t => {
  const smtp = await smtpServer(t)
  const app = await withSmtp(t, smtp)
  const author = await registerUser(app)
  const fan = await registerUser(app)
  const recipe = await createRecipe(app, author, { title: 'Soup' })
  await app.inject({ method: 'PUT', url: '/api/users/notification-settings', headers: bearer(author), payload: { emailLikes: false } })
  await app.inject({ method: 'POST', url: `/api/social/recipes/${recipe.id}/like`, headers: bearer(fan) })
  await app.inject({ method: 'POST', url: `/api/comments/recipe/${recipe.id}`, headers: bearer(fan), payload: { content: 'Nice' } })
  await smtp.waitFor(author.email, /comment/)
  await drainJobs(app)
  t.notOk(smtp.sentTo(author.email).some(m => /liked/.test(m.subject)), 'no like email')
  t.equal((await emailLog(app, author.email, 'like')).length, 0, 'not even recorded')

  await app.inject({ method: 'POST', url: '/api/users/email-preferences', headers: bearer(author), payload: { emailFollows: false } })
  await follow(app, fan, author)
  await app.inject({ method: 'POST', url: '/api/users/email-preferences', headers: bearer(author), payload: { unsubscribedAll: true } })
  await app.inject({ method: 'POST', url: `/api/comments/recipe/${recipe.id}`, headers: bearer(fan), payload: { content: 'Again' } })
  await drainJobs(app)
  t.equal(smtp.sentTo(author.email).filter(m => /comment|following/.test(m.subject)).length, 1, 'only the first comment email')
})

t.test('followers hear of a new recipe by email (emailNewRecipes), once', async t => {
  const smtp = await smtpServer(t)
  const app = await withSmtp(t, smtp)
  const author = await registerUser(app)
  const [a, b] = [await registerUser(app), await registerUser(app)]
  await follow(app, a, author)
  await follow(app, b, author)
  await app.inject({ method: 'POST', url: '/api/users/email-preferences', headers: bearer(b), payload: { emailNewRecipes: false } })
  await createRecipe(app, author, { title: 'Tarte Tatin' })
  const mail = await smtp.waitFor(a.email, /published a new recipe/)
  t.match(mail.subject, 'Tarte Tatin')
  await drainJobs(app)
  t.equal(smtp.sentTo(a.email).filter(m => /new recipe/.test(m.subject)).length, 1)
  t.equal(smtp.sentTo(b.email).filter(m => /new recipe/.test(m.subject)).length, 0, 'switched off')
})

t.test('a rolled-back write sends nothing; a delivery job run twice sends one email', async t => {
  const smtp = await smtpServer(t)
  const app = await withSmtp(t, smtp)
  const author = await registerUser(app)
  const fan = await registerUser(app)
  const deliveries = async () => (await app.db`select 1 from pgboss.job where name = 'notification.deliver'`).length
  const before = await deliveries()
  await t.rejects(app.transaction(async tx => {
    await app.notificationService.notify(tx, { type: 'follow', recipientId: author.id, actorId: fan.id, message: 'rolled back' })
    throw new Error('the action failed')
  }))
  t.equal(await deliveries(), before, 'no delivery job')
  t.equal((await app.db`select 1 from notifications where message = 'rolled back'`).length, 0)

  await follow(app, fan, author)
  await smtp.waitFor(author.email, /following you/)
  const [n] = await app.db<Array<{ id: string }>>`select id from notifications where user_id = ${author.id} and type = 'follow'`
  await app.queue.send('notification.deliver', { id: n.id })
  await eventually(async () => (await app.db`select 1 from pgboss.job where name = 'notification.deliver' and data ->> 'id' = ${n.id} and state = 'completed'`).length === 2)
  t.equal(smtp.sentTo(author.email).filter(m => /following you/.test(m.subject)).length, 1, 'one email')
  t.equal((await emailLog(app, author.email, 'follow')).length, 1, 'one log row')
})

t.test('SMTP down: the message waits, is retried with backoff and arrives when the server is back', async t => {
  const smtp = await smtpServer(t, { listening: false })
  const app = await withSmtp(t, smtp)
  const user = await registerUser(app)
  const failed = await logged(app, user.email, 'welcome', r => r.attempts >= 1)
  t.match(failed, { status: 'queued', error: /ECONNREFUSED|connect/i }, 'the failure is logged, the message kept')
  await smtp.start()
  await smtp.waitFor(user.email, /Welcome/, 30_000)
  const sent = await logged(app, user.email, 'welcome', r => r.status === 'sent')
  t.ok(sent.attempts >= 2, `sent on attempt ${sent.attempts}`)
  t.equal(smtp.sentTo(user.email).length, 1, 'exactly one copy')
})

t.test('a temporary refusal (451) is retried; a permanent one (550) fails at once', async t => {
  const smtp = await smtpServer(t)
  const app = await withSmtp(t, smtp)
  smtp.reject(1, 451)
  const first = await registerUser(app)
  await smtp.waitFor(first.email, /Welcome/, 15_000)
  const retried = await logged(app, first.email, 'welcome', r => r.status === 'sent')
  t.equal(retried.attempts, 2)

  smtp.reject(1, 550)
  const second = await registerUser(app)
  const failed = await logged(app, second.email, 'welcome', r => r.status === 'failed')
  t.match(failed, { attempts: 1, error: /550|Try again/ })
  await drainJobs(app)
  t.equal(smtp.sentTo(second.email).length, 0, 'not sent')
  t.equal((await emailLog(app, second.email, 'welcome'))[0].attempts, 1, 'not retried')
})

t.test('password reset email goes through the log and the job', async t => {
  const smtp = await smtpServer(t)
  const app = await withSmtp(t, smtp)
  const user = await registerUser(app)
  const res = await app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: user.email.toUpperCase() } })
  t.equal(res.statusCode, 200)
  const mail = await smtp.waitFor(user.email, /password/i)
  const link = mail.links.find(l => l.includes('/reset-password?token='))
  t.ok(link, 'reset link')
  const token = new URL(link!).searchParams.get('token')!
  const reset = await app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password: 'N3wPassword!' } })
  t.equal(reset.statusCode, 200)
  t.equal(mail.header('list-unsubscribe'), undefined, 'account email: no unsubscribe header')
})

t.test('family invitations by email', async t => {
  const smtp = await smtpServer(t)
  const app = await withSmtp(t, smtp)
  const owner = await registerUser(app)
  const member = await registerUser(app)
  const stranger = await registerUser(app)
  const family = json(await app.inject({ method: 'POST', url: '/api/families', headers: bearer(owner), payload: { name: 'The <Smiths>' } })).family
  await app.inject({ method: 'POST', url: '/api/families/join', headers: bearer(member), payload: { inviteCode: family.inviteCode } })

  const res = await app.inject({ method: 'POST', url: `/api/families/${family.id}/invitations`, headers: bearer(owner), payload: { email: 'Friend@Example.com' } })
  t.equal(res.statusCode, 200)
  const mail = await smtp.waitFor('friend@example.com', /invited you/)
  t.match(mail.text, family.inviteCode)
  t.match(mail.text, 'The <Smiths>')
  t.notMatch(mail.html, '<Smiths>', 'family name escaped')

  const [again] = await Promise.all([1, 2, 3].map(async () => await app.inject({ method: 'POST', url: `/api/families/${family.id}/invitations`, headers: bearer(owner), payload: { email: 'friend@example.com' } })))
  t.equal(again.statusCode, 200, 'the same invitation again answers the same')
  await drainJobs(app)
  t.equal(smtp.sentTo('friend@example.com').length, 1, '... and sends nothing more')

  const asMember = await app.inject({ method: 'POST', url: `/api/families/${family.id}/invitations`, headers: bearer(member), payload: { email: 'x@example.com' } })
  t.equal(asMember.statusCode, 403, 'plain members may not invite')
  const asStranger = await app.inject({ method: 'POST', url: `/api/families/${family.id}/invitations`, headers: bearer(stranger), payload: { email: 'x@example.com' } })
  t.equal(asStranger.statusCode, 404, 'another user\'s family is 404')
  const bad = await app.inject({ method: 'POST', url: `/api/families/${family.id}/invitations`, headers: bearer(owner), payload: { email: 'not an address' } })
  t.equal(bad.statusCode, 400)

  for (let i = 1; i < 20; i++) {
    const ok = await app.inject({ method: 'POST', url: `/api/families/${family.id}/invitations`, headers: bearer(owner), payload: { email: `f${i}@example.com` } })
    t.equal(ok.statusCode, 200)
  }
  const over = await app.inject({ method: 'POST', url: `/api/families/${family.id}/invitations`, headers: bearer(owner), payload: { email: 'f21@example.com' } })
  t.equal(over.statusCode, 429, 'daily cap')
  t.match(json(over), { error: 'Too many requests', limit: 'router' })
  t.equal(over.headers['x-ratelimit-limit'], '20')
  t.equal((await app.db`select 1 from email_outbox where kind = 'family-invite'`).length, 20, 'only the allowed ones are written')
})
