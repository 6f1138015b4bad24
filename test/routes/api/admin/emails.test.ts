// The email log for admins: a failed email stays listed and can be resent, once, however old its delivery job is.
// A real SMTP server (test/helpers/smtp.ts) refuses or accepts; counting its messages proves what was delivered.
import type { FastifyInstance } from 'fastify'
import t, { type Test } from 'tap'
import {
  adminBearer, bearer, build, createAdmin, drainJobs, eventually, expectValidationError, json, registerUser, type TestAdmin
} from '../../../helper.js'
import { smtpServer, type TestSmtp } from '../../../helpers/smtp.js'

const UNKNOWN_ID = 'zz0000000000000000000000'

interface EmailView { id: string, to: string, status: string, attempts: number, error: string | null, [key: string]: unknown }

async function withSmtp (t: Test, smtp: TestSmtp): Promise<FastifyInstance> {
  return await build(t, { env: { SMTP_URL: smtp.url, MAIL_FROM: 'Recipes <no-reply@recipes.test>' } })
}

/** The emails to `to` on the admin list of `status` (this file's database holds few emails: one page of 50). */
async function listed (app: FastifyInstance, admin: TestAdmin, to: string, status = 'failed'): Promise<EmailView[]> {
  const res = await app.inject({ url: `/api/admin/emails?status=${status}&limit=50`, headers: adminBearer(admin) })
  if (res.statusCode !== 200) throw new Error(`list: ${res.statusCode} ${res.body}`)
  return (json(res).emails as EmailView[]).filter(e => e.to === to)
}

/** Registers a user whose welcome email the SMTP server refuses for good (550), and waits for it to be `failed`. */
async function failedWelcome (app: FastifyInstance, admin: TestAdmin, smtp: TestSmtp) {
  smtp.reject(1, 550)
  const user = await registerUser(app)
  const [email] = await eventually(async () => { const found = await listed(app, admin, user.email); return found.length > 0 && found }, 15_000)
  return { user, email }
}

const resend = async (app: FastifyInstance, admin: TestAdmin, id: string) =>
  await app.inject({ method: 'POST', url: `/api/admin/emails/${id}/resend`, headers: adminBearer(admin) })

/** Delivery jobs ever queued for an email (pg-boss keeps finished jobs in pgboss.job for an hour, then archives them). */
async function jobsFor (app: FastifyInstance, id: string): Promise<number> {
  const [{ n }] = await app.db<Array<{ n: number }>>`select (
    (select count(*) from pgboss.job where name = 'email.send' and data ->> 'id' = ${id}) +
    (select count(*) from pgboss.archive where name = 'email.send' and data ->> 'id' = ${id}))::int as n`
  return n
}

t.test('a refused email is failed and listed; resent after its job is gone, it is delivered once', async t => {
  const smtp = await smtpServer(t)
  const app = await withSmtp(t, smtp)
  const admin = await createAdmin(app)
  const { user, email } = await failedWelcome(app, admin, smtp)

  t.match(email, { to: user.email, userId: user.id, kind: 'welcome', subject: /Welcome/, status: 'failed', attempts: 1, error: /550|Try again/, sentAt: null })
  t.ok(Date.parse(email.lastAttemptAt as string) >= Date.parse(email.createdAt as string), 'lastAttemptAt and createdAt are times')
  for (const hidden of ['text', 'html', 'headers', 'providerId']) t.notOk(hidden in email, `no ${hidden}`)
  await drainJobs(app, ['email.send'])
  t.equal(smtp.sentTo(user.email).length, 0, 'not delivered, not retried')
  t.equal((await listed(app, admin, user.email))[0].attempts, 1)

  // Long after the outage pg-boss has dropped the job: the resend does not need it.
  await app.db`delete from pgboss.job where name = 'email.send' and data ->> 'id' = ${email.id}`
  await app.db`delete from pgboss.archive where name = 'email.send' and data ->> 'id' = ${email.id}`
  t.equal(await jobsFor(app, email.id), 0, 'no job left for the email')

  const res = await resend(app, admin, email.id)
  t.equal(res.statusCode, 200)
  t.match(json(res).email, { id: email.id, to: user.email, status: 'queued', attempts: 0 })
  await smtp.waitFor(user.email, /Welcome/, 15_000)
  await drainJobs(app, ['email.send'])
  t.equal(smtp.sentTo(user.email).length, 1, 'delivered exactly once')
  t.match(await listed(app, admin, user.email, 'sent'), [{ id: email.id, status: 'sent', attempts: 1, error: null }])
  t.same(await listed(app, admin, user.email), [], 'no longer on the failed list')

  const again = await resend(app, admin, email.id)
  t.equal(again.statusCode, 409, 'a sent email is not resent')
  t.equal(json(again).error, 'Only a failed email can be resent')
  // An entry is written once its answer is sent: the next request waits for it, so the log's order is the requests'.
  const resendsAudited = async () => json(await app.inject({ url: `/api/admin/audit-logs?action=admin.emails.resend&adminId=${admin.id}`, headers: adminBearer(admin) })).auditLogs.length as number
  await eventually(async () => await resendsAudited() === 2)
  const unknown = await resend(app, admin, UNKNOWN_ID)
  t.equal(unknown.statusCode, 404)
  t.equal(json(unknown).error, 'Email not found')
  await drainJobs(app, ['email.send'])
  t.equal(smtp.sentTo(user.email).length, 1, 'still one copy')
  t.equal(await jobsFor(app, email.id), 1, 'one job: the resend\'s')

  // The audit log has the resends, answered and refused.
  const audited = await eventually(async () => {
    const entries = json(await app.inject({ url: `/api/admin/audit-logs?action=admin.emails.resend&adminId=${admin.id}`, headers: adminBearer(admin) })).auditLogs
    return entries.length === 3 && entries as Array<{ method: string, path: string, status: number }>
  })
  t.same(audited.map(e => e.status), [404, 409, 200], 'newest first: unknown, not failed, resent')
  t.match(audited[2], { method: 'POST', path: `/api/admin/emails/${email.id}/resend` })
})

t.test('concurrent resends of one failed email: one wins, one job, one delivery', async t => {
  const smtp = await smtpServer(t)
  const app = await withSmtp(t, smtp)
  const admin = await createAdmin(app)
  const other = await createAdmin(app)
  const { user, email } = await failedWelcome(app, admin, smtp)
  await drainJobs(app, ['email.send'])
  const before = await jobsFor(app, email.id)

  const answers = await Promise.all(Array.from({ length: 8 }, async (_, i) => await resend(app, i % 2 === 0 ? admin : other, email.id)))
  t.same(answers.map(r => r.statusCode).sort(), [200, 409, 409, 409, 409, 409, 409, 409], 'one 200, the rest 409')
  await smtp.waitFor(user.email, /Welcome/, 15_000)
  await drainJobs(app, ['email.send'])
  t.equal(smtp.sentTo(user.email).length, 1, 'delivered once')
  t.equal(await jobsFor(app, email.id) - before, 1, 'only the winner queued a job')
})

t.test('resend all: every failed email is queued again in one request and delivered once', async t => {
  const smtp = await smtpServer(t)
  const app = await withSmtp(t, smtp)
  const admin = await createAdmin(app)
  const failed = [await failedWelcome(app, admin, smtp), await failedWelcome(app, admin, smtp), await failedWelcome(app, admin, smtp)]
  await drainJobs(app, ['email.send'])
  const sent = await registerUser(app)
  await smtp.waitFor(sent.email, /Welcome/)

  const res = await app.inject({ method: 'POST', url: '/api/admin/emails/resend', headers: adminBearer(admin) })
  t.equal(res.statusCode, 200)
  t.same(json(res), { resent: 3, hasMore: false })
  for (const { user } of failed) await smtp.waitFor(user.email, /Welcome/, 15_000)
  await drainJobs(app, ['email.send'])
  for (const { user, email } of failed) {
    t.equal(smtp.sentTo(user.email).length, 1, `${user.username}: delivered once`)
    t.match(await listed(app, admin, user.email, 'sent'), [{ id: email.id, attempts: 1 }])
  }
  t.equal(smtp.sentTo(sent.email).length, 1, 'an email already sent is left alone')
  t.same(json(await app.inject({ method: 'POST', url: '/api/admin/emails/resend', headers: adminBearer(admin) })), { resent: 0, hasMore: false },
    'nothing failed is left')
})

t.test('resend all is bounded: 500 a request, hasMore says to call again', async t => {
  const smtp = await smtpServer(t)
  const app = await withSmtp(t, smtp)
  const admin = await createAdmin(app)
  const domain = `bulk${process.pid}.example.com`
  // A backlog as an outage leaves it (fixture rows: there is no API that fails 501 emails faster).
  await app.db`insert into email_outbox (id, "to", kind, subject, text, status, attempts, error, last_attempt_at)
    select 'bulk' || n, 'r' || n || ${`@${domain}`}, 'welcome', 'Welcome back', 'Hello', 'failed', 11, 'connect ECONNREFUSED', now()
    from generate_series(1, 501) n`
  const call = async () => json(await app.inject({ method: 'POST', url: '/api/admin/emails/resend', headers: adminBearer(admin) }))
  t.same(await call(), { resent: 500, hasMore: true })
  t.same(await call(), { resent: 1, hasMore: false })
  t.same(await call(), { resent: 0, hasMore: false })
  await eventually(async () => smtp.messages.filter(m => m.to.endsWith(domain)).length >= 501, 120_000)
  await drainJobs(app, ['email.send'], 60_000)
  const received = smtp.messages.filter(m => m.to.endsWith(domain)).map(m => m.to)
  t.equal(received.length, 501, 'each delivered')
  t.equal(new Set(received).size, 501, 'once')
})

t.test('the list: status filter (failed by default), kind, newest first, pages, validation', async t => {
  const smtp = await smtpServer(t)
  const app = await withSmtp(t, smtp)
  const admin = await createAdmin(app)
  const first = await failedWelcome(app, admin, smtp)
  const second = await failedWelcome(app, admin, smtp)
  const page = async (qs: string) => {
    const res = await app.inject({ url: `/api/admin/emails?${qs}`, headers: adminBearer(admin) })
    t.equal(res.statusCode, 200, qs)
    return json(res)
  }
  const ids = (body: Record<string, any>) => (body.emails as EmailView[]).map(e => e.id).filter(id => [first.email.id, second.email.id].includes(id))
  t.same(ids(await page('limit=50')), [second.email.id, first.email.id], 'failed by default, newest first')
  t.same(ids(await page('status=failed&kind=welcome&limit=50')), [second.email.id, first.email.id])
  t.same(ids(await page('status=failed&kind=digest')), [])
  t.same(ids(await page('status=sent&limit=50')), [])
  const one = await page('status=failed&limit=1')
  t.equal(one.emails.length, 1)
  t.match(one.pagination, { page: 1, limit: 1, hasNext: true, hasPrev: false, totalExact: true })
  t.ok(one.pagination.total >= 2)
  expectValidationError(t, await app.inject({ url: '/api/admin/emails?status=lost', headers: adminBearer(admin) }), 'status')
  t.equal((await app.inject({ url: '/api/admin/emails?limit=51', headers: adminBearer(admin) })).statusCode, 400)
  t.equal((await app.inject({ url: '/api/admin/emails?page=0', headers: adminBearer(admin) })).statusCode, 400)
})

t.test('only a signed-in admin: no token, a user token and a signed-out admin get 401 and change nothing', async t => {
  const smtp = await smtpServer(t)
  const app = await withSmtp(t, smtp)
  const admin = await createAdmin(app)
  const { user, email } = await failedWelcome(app, admin, smtp)
  const gone = await createAdmin(app)
  t.equal((await app.inject({ method: 'POST', url: '/api/admin/auth/logout', headers: adminBearer(gone) })).statusCode, 200)

  const routes = [
    ['GET', '/api/admin/emails'],
    ['POST', `/api/admin/emails/${email.id}/resend`],
    ['POST', '/api/admin/emails/resend']
  ] as const
  for (const [method, url] of routes) {
    for (const [who, headers] of [['no token', {}], ['user token', bearer(user)], ['signed-out admin', adminBearer(gone)]] as const) {
      const res = await app.inject({ method, url, headers })
      t.equal(res.statusCode, 401, `${who}: ${method} ${url}`)
      t.notOk(res.body.includes(user.email), 'no email shown')
    }
  }
  await drainJobs(app, ['email.send'])
  t.match(await listed(app, admin, user.email), [{ id: email.id, status: 'failed', attempts: 1 }], 'still failed')
  t.equal(smtp.sentTo(user.email).length, 0, 'nothing sent')
})

t.test('without SMTP a resend answers 503 and leaves the email failed', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  const user = await registerUser(app)
  // An email that failed while SMTP was still configured.
  const [{ id }] = await app.db<Array<{ id: string }>>`update email_outbox set status = 'failed', attempts = 11, error = 'connect ECONNREFUSED'
    where "to" = ${user.email} and kind = 'welcome' returning id`
  for (const url of [`/api/admin/emails/${id}/resend`, '/api/admin/emails/resend']) {
    const res = await app.inject({ method: 'POST', url, headers: adminBearer(admin) })
    t.equal(res.statusCode, 503, url)
    t.equal(json(res).error, 'Email delivery is not configured: emails are only recorded')
  }
  t.match(await listed(app, admin, user.email), [{ id, status: 'failed', attempts: 11 }])
  t.equal(await jobsFor(app, id), 0, 'no job queued')
})
