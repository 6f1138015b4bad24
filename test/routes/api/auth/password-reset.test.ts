import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { bearer, build, eventually, json, login, registerUser } from '../../../helper.js'

const MESSAGE = 'If an account exists for this email, a password reset link has been sent'

interface OutboxRow { to: string, status: string, text: string }

/** The reset emails sent to `to` (no API reads the outbox), once there are `count` of them. */
async function resetEmails (app: FastifyInstance, to: string, count = 1): Promise<OutboxRow[]> {
  // The email is prepared in the background (so timing reveals nothing): wait for it.
  return await eventually(async () => {
    const rows = await app.db<OutboxRow[]>`
      select "to", status, text from email_outbox where "to" = ${to} and kind = 'password-reset' order by created_at`
    return rows.length >= count ? rows : null
  })
}

const tokenIn = (email: OutboxRow) => /token=([A-Za-z0-9_-]+)/.exec(email.text)![1]

t.test('password reset', async t => {
  const app = await build(t, { env: { PUBLIC_URL: 'https://recipes.example.com' } })
  const user = await registerUser(app)

  const forgot = async (email: string) => await app.inject({
    method: 'POST', url: '/api/auth/forgot-password', headers: { host: 'evil.example' }, payload: { email }
  })

  const unknown = await forgot('nobody@example.com')
  t.equal(unknown.statusCode, 200)
  t.same(json(unknown), { message: MESSAGE })

  const known = await forgot(user.email.toUpperCase())
  t.same(json(known), json(unknown), 'the same answer whether or not the account exists')
  const [email] = await resetEmails(app, user.email)
  t.equal(email.status, 'recorded', 'recorded, not sent (no SMTP configured)')
  const link = /https:\/\/recipes\.example\.com\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(email.text)
  t.ok(link, 'link built from PUBLIC_URL, never the Host header')
  t.notMatch(email.text, /evil\.example/)
  const token = link![1]
  t.equal(Buffer.from(token, 'base64url').length, 32, '32 random bytes')
  const [row] = await app.db<Array<{ resetToken: string, resetTokenExpiry: Date }>>`
    select reset_token, reset_token_expiry from users where id = ${user.id}`
  t.equal(row.resetToken, createHash('sha256').update(token).digest('hex'), 'stored as its SHA-256 only')
  t.ok(row.resetTokenExpiry.getTime() - Date.now() > 59 * 60 * 1000, 'valid one hour')
  // The known address's email has landed, and the unknown one was requested first: none will come for it.
  const [{ n }] = await app.db<Array<{ n: number }>>`select count(*)::int as n from email_outbox where "to" = 'nobody@example.com'`
  t.equal(n, 0, 'no email for unknown addresses')

  const reset = async (body: Record<string, string>) => await app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: body })
  const weak = await reset({ token, password: 'short1A' })
  t.equal(weak.statusCode, 400, 'registration policy applies (not just 6 characters)')
  t.equal((await reset({ token, password: 'abcdefgh' })).statusCode, 400)
  const bad = await reset({ token: 'wrong-token', password: 'Brand-N3w-pass' })
  t.equal(bad.statusCode, 400)
  t.same(json(bad), { error: 'Invalid or expired reset token' })

  const done = await reset({ token, password: 'Brand-N3w-pass' })
  t.equal(done.statusCode, 200)
  t.same(json(done), { message: 'Password has been reset' })
  t.equal((await app.inject({ url: '/api/auth/me', headers: bearer(user) })).statusCode, 401, 'older tokens stop working')
  t.equal((await login(app, user.email, 'Brand-N3w-pass')).statusCode, 200)
  t.equal((await login(app, user.email, user.password)).statusCode, 401, 'the old password does not')
  t.equal((await reset({ token, password: 'Another-N3w-pass' })).statusCode, 400, 'single use')

  // An expired token: an hour later (no API moves the clock).
  await forgot(user.email)
  const [, second] = await resetEmails(app, user.email, 2)
  await app.db`update users set reset_token_expiry = now() - interval '1 second' where id = ${user.id}`
  t.equal((await reset({ token: tokenIn(second), password: 'Expired-N3w-pass' })).statusCode, 400, 'expired after an hour')
})

t.test('a reset ends a lockout', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  for (let i = 0; i < 5; i++) await login(app, user.username, 'Wrong-guess-1')
  t.equal((await login(app, user.username, user.password)).statusCode, 423, 'locked')
  await app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: user.email } })
  const [email] = await resetEmails(app, user.email)
  const reset = await app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token: tokenIn(email), password: 'Unl0cked-pass' } })
  t.equal(reset.statusCode, 200)
  t.equal((await login(app, user.username, 'Unl0cked-pass')).statusCode, 200, 'the new password works at once')
})

t.test('two concurrent resets with one token: one wins', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  await app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: user.email } })
  const [email] = await resetEmails(app, user.email)
  const results = await Promise.all(['First-Pass-1', 'Second-Pass-2'].map(password =>
    app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token: tokenIn(email), password } })))
  t.same(results.map(r => r.statusCode).sort(), [200, 400])
})
