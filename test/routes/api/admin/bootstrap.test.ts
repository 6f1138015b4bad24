// The first admin: from ADMIN_BOOTSTRAP_* at start-up (only while there is no admin), once under concurrency.
import t from 'tap'
import { build, json } from '../../../helper.js'

t.test('the first admin comes from ADMIN_BOOTSTRAP_* only while there is no admin', async t => {
  const app = await build(t, {
    env: { ADMIN_BOOTSTRAP_EMAIL: 'First@Example.com', ADMIN_BOOTSTRAP_USERNAME: 'first', ADMIN_BOOTSTRAP_PASSWORD: 'bootstrap passphrase' }
  })
  const rows = await app.db`select email, username from admin_users`
  t.same(rows, [{ email: 'first@example.com', username: 'first' }])
  const signIn = await app.inject({ method: 'POST', url: '/api/admin/auth/login', payload: { identifier: 'first', password: 'bootstrap passphrase' } })
  t.equal(signIn.statusCode, 200)
  t.equal(json(signIn).admin.username, 'first')

  const again = await Promise.all([1, 2, 3].map(async i =>
    await app.adminAuthService.createFirst({ email: `second${i}@example.com`, username: `second${i}`, password: 'another passphrase' })))
  t.same(again, [null, null, null], 'with an admin present nothing is created')
  t.equal((await app.db`select count(*)::int as n from admin_users`)[0].n, 1)
})

t.test('the first admin: concurrent start-ups with one setting create one admin', async t => {
  const app = await build(t)
  await app.db`delete from admin_users`
  const results = await Promise.all([1, 2, 3, 4].map(async () =>
    await app.adminAuthService.createFirst({ email: 'boot@example.com', username: 'boot', password: 'bootstrap passphrase' })))
  t.equal(results.filter(r => r != null).length, 1)
  t.equal((await app.db`select count(*)::int as n from admin_users`)[0].n, 1)
})
