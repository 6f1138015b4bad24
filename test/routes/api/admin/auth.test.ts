// Admin sign-in and sessions: identifiers, lockout (sequential and concurrent), the auth limit, logout, idle and
// absolute expiry, sessions and their revocation, password change, deactivated admins, other admins.
import { createSigner } from 'fast-jwt'
import t from 'tap'
import {
  adminBearer, adminLogin, bearer, build, createAdmin, eventually, expectValidationError, json, PUBLIC_IP, registerUser
} from '../../../helper.js'

const login = async (app: Awaited<ReturnType<typeof build>>, payload: Record<string, unknown>, remoteAddress?: string) =>
  await app.inject({ method: 'POST', url: '/api/admin/auth/login', payload, remoteAddress })
const get = async (app: Awaited<ReturnType<typeof build>>, url: string, token?: string) =>
  await app.inject({ method: 'GET', url, headers: token == null ? {} : { authorization: `Bearer ${token}` } })

t.test('sign-in by email in any case or by username in its exact case; the answer never holds a secret', async t => {
  const app = await build(t)
  const admin = await createAdmin(app, { username: 'OpsLead', email: 'ops.lead@example.com' })

  const byEmail = await login(app, { identifier: 'OPS.Lead@Example.COM', password: admin.password })
  t.equal(byEmail.statusCode, 200)
  const body = json(byEmail)
  t.same(Object.keys(body).sort(), ['admin', 'expiresAt', 'token'])
  t.same(Object.keys(body.admin).sort(), ['active', 'createdAt', 'email', 'id', 'lastLoginAt', 'lockedUntil', 'mfaEnabled', 'username'])
  t.match(body.admin, { id: admin.id, email: 'ops.lead@example.com', username: 'OpsLead', mfaEnabled: false })
  const hours = (Date.parse(body.expiresAt) - Date.now()) / 3_600_000
  t.ok(hours > 7.9 && hours <= 8, `the session lasts 8 hours (${hours})`)

  t.equal((await login(app, { identifier: 'OpsLead', password: admin.password })).statusCode, 200)
  t.equal((await login(app, { identifier: 'opslead', password: admin.password })).statusCode, 401, 'the username is matched in its exact case')
  t.equal((await login(app, { identifier: 'OpsLead', password: 'wrong password!' })).statusCode, 401)
  const unknown = await login(app, { identifier: 'nobody@example.com', password: admin.password })
  t.equal(unknown.statusCode, 401)
  t.same(json(unknown), { error: 'Invalid credentials' }, 'an unknown admin and a wrong password look alike')
  expectValidationError(t, await login(app, { identifier: 'OpsLead' }), 'password')

  const me = await get(app, '/api/admin/auth/me', body.token)
  t.equal(me.statusCode, 200)
  t.match(json(me), { id: admin.id, backupCodesLeft: 0 })
  t.ok(json(me).lastLoginAt != null, 'the last sign-in is recorded')
})

t.test('five wrong passwords lock the admin for 15 minutes, even against the right password; the lock ends by itself', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  for (let i = 0; i < 5; i++) t.equal((await login(app, { identifier: admin.username, password: `wrong-${i}` })).statusCode, 401)
  const locked = await login(app, { identifier: admin.username, password: admin.password })
  t.equal(locked.statusCode, 423)
  t.equal(json(locked).error, 'Account temporarily locked')
  t.ok(json(locked).retryAfter > 14 * 60 && json(locked).retryAfter <= 15 * 60, 'retryAfter says how long the lock lasts')

  await app.db`update admin_users set locked_at = now() - interval '16 minutes' where id = ${admin.id}`
  t.equal((await login(app, { identifier: admin.username, password: admin.password })).statusCode, 200, 'an expired lock lets the admin in')
  const [row] = await app.db`select failed_login_attempts, locked_at from admin_users where id = ${admin.id}`
  t.same(row, { failedLoginAttempts: 0, lockedAt: null }, 'a successful sign-in resets the count')
})

t.test('another admin ends a lock (and its series of failures); nobody ends their own; others get 401, unknown 404', async t => {
  const app = await build(t)
  const locked = await createAdmin(app)
  const helper = await createAdmin(app)
  for (let i = 0; i < 5; i++) await login(app, { identifier: locked.username, password: 'wrong password!' })
  t.equal((await login(app, { identifier: locked.username, password: locked.password })).statusCode, 423, 'locked')

  const listed = json(await get(app, '/api/admin/admins', helper.token)).admins as Array<{ id: string, lockedUntil: string | null }>
  const until = Date.parse(listed.find(a => a.id === locked.id)?.lockedUntil ?? '')
  t.ok(until - Date.now() > 14 * 60_000 && until - Date.now() <= 15 * 60_000, 'the list shows when the lock ends')
  t.equal(listed.find(a => a.id === helper.id)?.lockedUntil, null, 'and null for an admin who is not locked')

  const unlock = async (id: string, token?: string) =>
    await app.inject({ method: 'POST', url: `/api/admin/admins/${id}/unlock`, headers: token == null ? {} : { authorization: `Bearer ${token}` } })
  t.equal((await unlock(locked.id)).statusCode, 401, 'no token')
  const user = await registerUser(app)
  t.equal((await unlock(locked.id, user.token)).statusCode, 401, 'a user token')
  const own = await unlock(helper.id, helper.token)
  t.equal(own.statusCode, 403, 'an admin cannot reset their own lockout (a stolen session would guess on)')
  t.equal(json(own).error, 'An admin cannot unlock their own account; ask another admin')
  t.equal((await unlock('nobody1234', helper.token)).statusCode, 404)

  const done = await unlock(locked.id, helper.token)
  t.equal(done.statusCode, 200)
  t.match(json(done).admin, { id: locked.id, lockedUntil: null })
  const [row] = await app.db`select failed_login_attempts, locked_at from admin_users where id = ${locked.id}`
  t.same(row, { failedLoginAttempts: 0, lockedAt: null }, 'the lock and its series are gone')
  t.equal((await login(app, { identifier: locked.username, password: locked.password })).statusCode, 200, 'the admin signs in again')
  await eventually(async () => (await app.db`select 1 from admin_audit_logs where action = 'admin.admins.unlock' and admin_id = ${helper.id} and status = 200`).length > 0)
  t.pass('the unlock is audited with the admin who did it')
})

t.test('only failures within the lock period count: older ones age out one by one', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  const wrong = async () => (await login(app, { identifier: admin.username, password: 'wrong password!' })).statusCode
  // Moves the `count` oldest failures of the series `minutes` into the past (no API moves the clock).
  const age = async (count: number, minutes: number) => await app.db`
    update admin_users set failed_login_times = array(
      select case when f.n <= ${count} then f.at - make_interval(mins => ${minutes}) else f.at end
      from unnest(failed_login_times) with ordinality as f(at, n) order by f.n)
    where id = ${admin.id}`

  for (let i = 0; i < 4; i++) t.equal(await wrong(), 401)
  await age(4, 14)
  t.equal(await wrong(), 401)
  t.equal(await wrong(), 423, 'failures 14 minutes old still count: five lock the account')

  await app.db`update admin_users set locked_at = now() - interval '16 minutes' where id = ${admin.id}`
  for (let i = 0; i < 4; i++) t.equal(await wrong(), 401, 'a new series after the lock')
  await age(2, 16)
  t.equal(await wrong(), 401, 'two of four are older than 15 minutes: this is the third that counts')
  t.equal(await wrong(), 401, 'the fourth')
  const [row] = await app.db`select failed_login_attempts, locked_at from admin_users where id = ${admin.id}`
  t.same(row, { failedLoginAttempts: 4, lockedAt: null }, 'four recent failures: not locked')
  t.equal(await wrong(), 401, 'the fifth recent failure')
  t.equal((await login(app, { identifier: admin.username, password: admin.password })).statusCode, 423, 'locks the account')
})

t.test('concurrent wrong passwords: at most five are compared and the account ends locked', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  const answers = await Promise.all(Array.from({ length: 12 }, async (_, i) =>
    (await login(app, { identifier: admin.email, password: `guess-${i}` })).statusCode))
  t.equal(answers.filter(s => s === 401).length, 5, 'five guesses were compared')
  t.equal(answers.filter(s => s === 423).length, 7, 'the rest were refused without comparing')
  t.equal((await login(app, { identifier: admin.email, password: admin.password })).statusCode, 423)
})

t.test('failed admin sign-ins count against the auth limit (15 per 15 minutes per client, no address exempt)', async t => {
  const app = await build(t, { env: { RATE_LIMIT_AUTH_MAX: '3' } })
  const admin = await createAdmin(app)
  t.equal((await login(app, { identifier: admin.username, password: admin.password }, PUBLIC_IP)).statusCode, 200, 'successes do not count')
  for (let i = 0; i < 3; i++) t.equal((await login(app, { identifier: `ghost${i}`, password: 'nope-nope' }, PUBLIC_IP)).statusCode, 401)
  // A failure is counted once its answer is sent (onResponse), so the count may land just after the response.
  const limited = await eventually(async () => {
    const res = await login(app, { identifier: admin.username, password: admin.password }, PUBLIC_IP)
    return res.statusCode === 429 ? res : null
  })
  t.equal(json(limited).limit, 'auth')
  t.equal(limited.headers['x-ratelimit-limit'], '3')
  t.equal((await login(app, { identifier: admin.username, password: admin.password }, '198.51.100.7')).statusCode, 200, 'another client is not limited')
})

t.test('logout ends the session at once; the admin\'s other sessions keep working', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  const second = await adminLogin(app, admin.username, admin.password)
  const out = await app.inject({ method: 'POST', url: '/api/admin/auth/logout', headers: adminBearer(admin) })
  t.equal(out.statusCode, 200)
  t.same(json(out), { message: 'Logged out' })
  const after = await get(app, '/api/admin/test', admin.token)
  t.equal(after.statusCode, 401)
  t.equal(json(after).error, 'Invalid or expired admin session')
  t.equal((await get(app, '/api/admin/test', second)).statusCode, 200)
})

t.test('a session ends after 30 minutes unused or 8 hours in all; using it keeps it alive', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  const idle = await adminLogin(app, admin.username, admin.password)
  const old = await adminLogin(app, admin.username, admin.password)
  const active = await adminLogin(app, admin.username, admin.password)
  const sessionOf = async (token: string) => json(await get(app, '/api/admin/auth/sessions', token)).sessions.find((s: { current: boolean }) => s.current).id

  const [idleId, oldId, activeId] = [await sessionOf(idle), await sessionOf(old), await sessionOf(active)]
  await app.db`update admin_sessions set last_seen_at = now() - interval '31 minutes' where id = ${idleId}`
  await app.db`update admin_sessions set expires_at = now() - interval '1 second' where id = ${oldId}`
  await app.db`update admin_sessions set last_seen_at = now() - interval '29 minutes' where id = ${activeId}`
  t.equal((await get(app, '/api/admin/test', idle)).statusCode, 401, 'idle for 31 minutes')
  t.equal((await get(app, '/api/admin/test', old)).statusCode, 401, 'past its 8 hours')
  t.equal((await get(app, '/api/admin/test', active)).statusCode, 200, 'used within 30 minutes')
  const [row] = await app.db`select last_seen_at > now() - interval '1 minute' as touched from admin_sessions where id = ${activeId}`
  t.equal(row.touched, true, 'each request moves last_seen_at')
})

t.test('sessions: your live ones, the current one marked; revoking one ends it; another admin\'s session is 404', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  const other = await adminLogin(app, admin.username, admin.password)
  const stranger = await createAdmin(app)

  const list = json(await app.inject({ method: 'GET', url: '/api/admin/auth/sessions', headers: { ...adminBearer(admin), 'user-agent': 'Console/2.0' } }))
  t.equal(list.sessions.length, 2)
  t.equal(list.sessions.filter((s: { current: boolean }) => s.current).length, 1)
  const otherSession = list.sessions.find((s: { current: boolean }) => !s.current)
  t.match(otherSession, { ip: '127.0.0.1', userAgent: 'lightMyRequest' })

  const strangersSession = json(await get(app, '/api/admin/auth/sessions', stranger.token)).sessions[0].id
  const foreign = await app.inject({ method: 'DELETE', url: `/api/admin/auth/sessions/${strangersSession}`, headers: adminBearer(admin) })
  t.equal(foreign.statusCode, 404)
  t.equal((await get(app, '/api/admin/test', stranger.token)).statusCode, 200, 'the stranger\'s session is untouched')

  t.equal((await app.inject({ method: 'DELETE', url: `/api/admin/auth/sessions/${otherSession.id}`, headers: adminBearer(admin) })).statusCode, 200)
  t.equal((await get(app, '/api/admin/test', other)).statusCode, 401, 'the revoked session\'s token stops working')
  t.equal((await app.inject({ method: 'DELETE', url: `/api/admin/auth/sessions/${otherSession.id}`, headers: adminBearer(admin) })).statusCode, 404, 'revoking twice: 404')
  t.equal(json(await get(app, '/api/admin/auth/sessions', admin.token)).sessions.length, 1)
})

t.test('change password: 12+ characters, the current one checked; other sessions end, this one stays', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  const other = await adminLogin(app, admin.username, admin.password)
  const change = async (currentPassword: string, newPassword: string) => await app.inject({
    method: 'POST', url: '/api/admin/auth/change-password', headers: adminBearer(admin), payload: { currentPassword, newPassword }
  })
  expectValidationError(t, await change(admin.password, 'elevenchars'), 'newPassword')
  expectValidationError(t, await change(admin.password, '€'.repeat(25)), 'newPassword')
  const wrong = await change('not my password', 'a much longer passphrase')
  t.equal(wrong.statusCode, 400)
  t.equal(json(wrong).error, 'Current password is incorrect')

  t.equal((await change(admin.password, 'a much longer passphrase')).statusCode, 200)
  t.equal((await get(app, '/api/admin/test', admin.token)).statusCode, 200, 'the session that changed it stays')
  t.equal((await get(app, '/api/admin/test', other)).statusCode, 401, 'other sessions end')
  t.equal((await login(app, { identifier: admin.username, password: admin.password })).statusCode, 401, 'the old password no longer works')
  t.equal((await login(app, { identifier: admin.username, password: 'a much longer passphrase' })).statusCode, 200)
})

t.test('a deactivated admin cannot sign in and their tokens stop working', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  await app.db`update admin_users set active = false where id = ${admin.id}`
  t.equal((await get(app, '/api/admin/test', admin.token)).statusCode, 401)
  const res = await login(app, { identifier: admin.username, password: admin.password })
  t.equal(res.statusCode, 403)
  t.equal((await login(app, { identifier: admin.username, password: 'wrong password' })).statusCode, 401, 'a wrong password does not reveal the state')
})

t.test('user and admin tokens never cross; forged and garbled admin tokens are refused', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  const user = await registerUser(app)
  t.equal((await app.inject({ method: 'GET', url: '/api/admin/test', headers: bearer(user) })).statusCode, 401, 'a user token is not an admin token')
  t.equal((await app.inject({ method: 'GET', url: '/api/auth/me', headers: adminBearer(admin) })).statusCode, 401, 'an admin token is not a user token')

  const claims = JSON.parse(Buffer.from(admin.token.split('.')[1], 'base64url').toString())
  const withUserSecret = createSigner({ key: app.config.jwtSecret, algorithm: 'HS256' })({ ...claims })
  t.equal((await get(app, '/api/admin/test', withUserSecret)).statusCode, 401, 'admin claims signed with the user secret')
  const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${admin.token.split('.')[1]}.`
  t.equal((await get(app, '/api/admin/test', unsigned)).statusCode, 401, 'alg none')
  const resigned = createSigner({ key: app.config.adminJwtSecret, algorithm: 'HS256' })({ ...claims, iat: claims.iat + 1 })
  t.equal((await get(app, '/api/admin/test', resigned)).statusCode, 401, 'a validly signed token that is not the session\'s token')
  const missing = await get(app, '/api/admin/test')
  t.equal(missing.statusCode, 401)
  t.equal(json(missing).error, 'Admin authentication required')
  const garbled = await app.inject({ method: 'GET', url: '/api/admin/test', headers: { authorization: 'Bearer a b c' } })
  t.equal(garbled.statusCode, 401)
  t.same(json(await get(app, '/api/admin/test', admin.token)), { message: 'Admin access granted', admin: admin.id })
})

t.test('admins: list every admin, create another (12+ characters, unique email and username) who can sign in', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  const create = async (payload: Record<string, unknown>) =>
    await app.inject({ method: 'POST', url: '/api/admin/admins', headers: adminBearer(admin), payload })
  const created = await create({ email: 'New.Admin@Example.com', username: 'newadmin', password: 'twelve chars!' })
  t.equal(created.statusCode, 201)
  t.match(json(created).admin, { email: 'new.admin@example.com', username: 'newadmin', mfaEnabled: false, active: true })
  t.notOk('password' in json(created).admin)
  t.equal((await create({ email: 'new.admin@example.com', username: 'another', password: 'twelve chars!' })).statusCode, 409)
  t.equal((await create({ email: 'x@example.com', username: 'newadmin', password: 'twelve chars!' })).statusCode, 409)
  expectValidationError(t, await create({ email: 'y@example.com', username: 'shorty', password: 'eleven char' }), 'password')
  expectValidationError(t, await create({ email: 'z@example.com', username: 'at@sign', password: 'twelve chars!' }), 'username')

  const [row] = await app.db`select created_by from admin_users where username = 'newadmin'`
  t.equal(row.createdBy, admin.id)
  t.equal((await login(app, { identifier: 'newadmin', password: 'twelve chars!' })).statusCode, 200)
  const names = json(await get(app, '/api/admin/admins?limit=50', admin.token)).admins.map((a: { username: string }) => a.username)
  t.ok(names.indexOf(admin.username) >= 0 && names.indexOf(admin.username) < names.indexOf('newadmin'), 'every admin, oldest first')
  const page = json(await get(app, '/api/admin/admins?limit=1&page=2', admin.token))
  t.equal(page.admins.length, 1)
  t.match(page.pagination, { page: 2, limit: 1, hasPrev: true, totalExact: true })
  t.equal(page.pagination.total, names.length)

  const twice = await Promise.all([1, 2, 3].map(async () => (await create({ email: 'race@example.com', username: 'racer', password: 'twelve chars!' })).statusCode))
  t.same(twice.sort(), [201, 409, 409], 'concurrent identical creations make one admin')
})
