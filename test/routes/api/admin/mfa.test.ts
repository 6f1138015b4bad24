// TOTP MFA for admins: set-up and enabling (with the current password, counted like a sign-in), the two-step sign-in
// (also right after four failures), a code accepted once (sequential and concurrent), backup codes single use,
// disabling, wrong codes against the lockout (also forty at once) and the guess limit, the secret sealed at rest.
import { generate } from 'otplib'
import t from 'tap'
import { adminBearer, build, createAdmin, expectValidationError, json, type TestAdmin } from '../../../helper.js'

type App = Awaited<ReturnType<typeof build>>

const post = async (app: App, admin: { token: string }, url: string, payload?: Record<string, unknown>) =>
  await app.inject({ method: 'POST', url: `/api/admin/auth/${url}`, headers: adminBearer(admin), payload })
const login = async (app: App, payload: Record<string, unknown>) =>
  await app.inject({ method: 'POST', url: '/api/admin/auth/login', payload })

/** The code of the time step `offset` steps after the last one the admin used (or after now). */
async function codeAfterLastStep (app: App, admin: { id: string }, secret: string, offset = 1): Promise<string> {
  const [row] = await app.db`select mfa_last_step from admin_users where id = ${admin.id}`
  const step = Number(row.mfaLastStep ?? Math.floor(Date.now() / 30_000))
  return await generate({ secret, epoch: (step + offset) * 30 })
}

/** An admin with MFA on: the secret and the backup codes. */
async function withMfa (app: App): Promise<{ admin: TestAdmin, secret: string, backupCodes: string[] }> {
  const admin = await createAdmin(app)
  const setup = json(await post(app, admin, 'mfa/setup', { password: admin.password }))
  const enabled = await post(app, admin, 'mfa/enable', { password: admin.password, code: await generate({ secret: setup.secret }) })
  if (enabled.statusCode !== 200) throw new Error(`enable failed: ${enabled.body}`)
  return { admin, secret: setup.secret, backupCodes: json(enabled).backupCodes }
}

t.test('set-up gives a pending secret; a wrong code does not enable it; the right one answers 10 backup codes once', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  const setup = await post(app, admin, 'mfa/setup', { password: admin.password })
  t.equal(setup.statusCode, 200)
  const { secret, otpauthUrl } = json(setup)
  t.match(secret, /^[A-Z2-7]{16,}$/)
  const uri = new URL(otpauthUrl)
  t.equal(uri.protocol, 'otpauth:')
  t.equal(uri.searchParams.get('secret'), secret)
  t.equal(uri.searchParams.get('issuer'), 'Recipe Platform Admin')

  const { password } = admin
  t.equal((await post(app, admin, 'mfa/enable', { password, code: await generate({ secret }) === '000000' ? '111111' : '000000' })).statusCode, 401)
  t.equal(json(await app.inject({ method: 'GET', url: '/api/admin/auth/me', headers: adminBearer(admin) })).mfaEnabled, false, 'still off')
  t.equal((await post(app, admin, 'mfa/enable', { password, code: '12345' })).statusCode, 400, 'a code is six digits')

  const enabled = await post(app, admin, 'mfa/enable', { password, code: await generate({ secret }) })
  t.equal(enabled.statusCode, 200)
  const { backupCodes } = json(enabled)
  t.equal(backupCodes.length, 10)
  t.equal(new Set(backupCodes).size, 10)
  for (const code of backupCodes) t.match(code, /^[a-z2-9]{5}-[a-z2-9]{5}$/)
  t.match(json(await app.inject({ method: 'GET', url: '/api/admin/auth/me', headers: adminBearer(admin) })), { mfaEnabled: true, backupCodesLeft: 10 })

  t.equal((await post(app, admin, 'mfa/setup', { password })).statusCode, 409, 'set-up again while enabled: 409')
  t.equal((await post(app, admin, 'mfa/enable', { password, code: await generate({ secret }) })).statusCode, 409)

  const [row] = await app.db`select mfa_secret, mfa_pending_secret from admin_users where id = ${admin.id}`
  t.equal(row.mfaPendingSecret, null)
  t.notOk(row.mfaSecret.includes(secret), 'the secret is not stored in the clear')
  t.match(row.mfaSecret, /^v1\./)
  const hashes = await app.db`select code_hash from admin_backup_codes where admin_id = ${admin.id}`
  t.equal(hashes.length, 10)
  t.notOk(hashes.some(h => backupCodes.some((c: string) => h.codeHash.includes(c.replace('-', '')))), 'backup codes are stored hashed')
})

t.test('enabling needs set-up first', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  const res = await post(app, admin, 'mfa/enable', { password: admin.password, code: '123456' })
  t.equal(res.statusCode, 409)
  t.equal(json(res).error, 'Start with POST /api/admin/auth/mfa/setup')
})

t.test('with MFA on, the password alone answers { mfaRequired: true } and nothing else, without counting as a failure', async t => {
  const app = await build(t)
  const { admin, secret } = await withMfa(app)
  for (let i = 0; i < 6; i++) {
    const res = await login(app, { identifier: admin.username, password: admin.password })
    t.equal(res.statusCode, 200)
    t.same(json(res), { mfaRequired: true })
  }
  t.equal((await login(app, { identifier: admin.username, password: 'wrong password!', totpCode: '123456' })).statusCode, 401,
    'a wrong password with a code is a plain failure')
  const res = await login(app, { identifier: admin.username, password: admin.password, totpCode: await codeAfterLastStep(app, admin, secret) })
  t.equal(res.statusCode, 200, 'six password-only answers did not lock the account')
  t.type(json(res).token, 'string')
  t.equal((await app.inject({ method: 'GET', url: '/api/admin/test', headers: { authorization: `Bearer ${json(res).token}` } })).statusCode, 200)
})

t.test('a TOTP code is accepted once: a replay, an older code and a far-off code are refused', async t => {
  const app = await build(t)
  const { admin, secret } = await withMfa(app)
  const next = await codeAfterLastStep(app, admin, secret)
  t.equal((await login(app, { identifier: admin.username, password: admin.password, totpCode: next })).statusCode, 200)
  const replay = await login(app, { identifier: admin.username, password: admin.password, totpCode: next })
  t.equal(replay.statusCode, 401)
  t.equal(json(replay).error, 'Invalid authentication code')
  t.equal((await login(app, { identifier: admin.username, password: admin.password, totpCode: await codeAfterLastStep(app, admin, secret, 0) })).statusCode, 401,
    'the code of a step already used')
  const farOff = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 5 * 60 })
  t.equal((await login(app, { identifier: admin.username, password: admin.password, totpCode: farOff })).statusCode, 401, 'five minutes ahead is outside one step of drift')
})

t.test('two simultaneous sign-ins with the same code: at most one succeeds', async t => {
  const app = await build(t)
  const { admin, secret } = await withMfa(app)
  const code = await codeAfterLastStep(app, admin, secret)
  const answers = await Promise.all([1, 2, 3].map(async () =>
    (await login(app, { identifier: admin.email, password: admin.password, totpCode: code })).statusCode))
  t.same(answers.sort(), [200, 401, 401])
})

t.test('backup codes: any case and spacing, each once, also under concurrency; the count goes down', async t => {
  const app = await build(t)
  const { admin, backupCodes } = await withMfa(app)
  const first = await login(app, { identifier: admin.username, password: admin.password, backupCode: ` ${backupCodes[0].toUpperCase()} ` })
  t.equal(first.statusCode, 200)
  t.equal((await login(app, { identifier: admin.username, password: admin.password, backupCode: backupCodes[0] })).statusCode, 401, 'used once')
  t.equal((await login(app, { identifier: admin.username, password: admin.password, backupCode: 'aaaaa-bbbbb' })).statusCode, 401)

  const answers = await Promise.all([1, 2, 3].map(async () =>
    (await login(app, { identifier: admin.username, password: admin.password, backupCode: backupCodes[1] })).statusCode))
  t.same(answers.sort(), [200, 401, 401], 'one of three simultaneous uses succeeds')
  const me = json(await app.inject({ method: 'GET', url: '/api/admin/auth/me', headers: { authorization: `Bearer ${json(first).token}` } }))
  t.equal(me.backupCodesLeft, 8)
})

t.test('wrong codes count against the account: five lock it', async t => {
  const app = await build(t)
  const { admin, secret } = await withMfa(app)
  const right = await codeAfterLastStep(app, admin, secret)
  const wrong = right === '000000' ? '000001' : '000000'
  for (let i = 0; i < 5; i++) t.equal((await login(app, { identifier: admin.username, password: admin.password, totpCode: wrong })).statusCode, 401)
  t.equal((await login(app, { identifier: admin.username, password: admin.password, totpCode: right })).statusCode, 423)
})

t.test('disabling needs the password and a current code; afterwards the password alone signs in', async t => {
  const app = await build(t)
  const { admin, secret, backupCodes } = await withMfa(app)
  const disable = async (payload: Record<string, unknown>) => await post(app, admin, 'mfa/disable', payload)
  t.equal((await disable({ password: 'wrong password', code: backupCodes[0] })).statusCode, 400, 'wrong password')
  t.equal((await disable({ password: admin.password, code: await codeAfterLastStep(app, admin, secret) === '000000' ? '111111' : '000000' })).statusCode, 401, 'wrong code')
  t.equal((await disable({ password: admin.password, code: backupCodes[2] })).statusCode, 200, 'a backup code will do')
  t.equal((await disable({ password: admin.password, code: backupCodes[3] })).statusCode, 409, 'already off')
  t.equal((await app.db`select count(*)::int as n from admin_backup_codes where admin_id = ${admin.id}`)[0].n, 0, 'the backup codes are gone')
  const res = await login(app, { identifier: admin.username, password: admin.password })
  t.type(json(res).token, 'string')
})

t.test('disabling with a TOTP code', async t => {
  const app = await build(t)
  const { admin, secret } = await withMfa(app)
  const res = await post(app, admin, 'mfa/disable', { password: admin.password, code: await codeAfterLastStep(app, admin, secret) })
  t.equal(res.statusCode, 200)
  t.equal(json(await app.inject({ method: 'GET', url: '/api/admin/auth/me', headers: adminBearer(admin) })).mfaEnabled, false)
})

t.test('code guesses on mfa/enable are limited per admin (10 per 15 minutes)', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  const { password } = admin
  const { secret } = json(await post(app, admin, 'mfa/setup', { password }))
  const right = await generate({ secret })
  const wrong = right === '000000' ? '000001' : '000000'
  for (let i = 0; i < 10; i++) t.equal((await post(app, admin, 'mfa/enable', { password, code: wrong })).statusCode, 401)
  const limited = await post(app, admin, 'mfa/enable', { password, code: right })
  t.equal(limited.statusCode, 429)
  t.equal(json(limited).limit, 'router')
})

t.test('four wrong passwords, then the two-step sign-in with the right password and a valid code: signed in', async t => {
  // The password-only step makes the fifth reservation, which sets the lock; giving that reservation back must lift it.
  const app = await build(t)
  const { admin, secret } = await withMfa(app)
  for (let i = 0; i < 4; i++) t.equal((await login(app, { identifier: admin.username, password: `wrong-${i}` })).statusCode, 401)
  const step1 = await login(app, { identifier: admin.username, password: admin.password })
  t.same([step1.statusCode, json(step1)], [200, { mfaRequired: true }])
  const [row] = await app.db`select failed_login_attempts, locked_at from admin_users where id = ${admin.id}`
  t.same(row, { failedLoginAttempts: 4, lockedAt: null }, 'the right password took back its attempt and its lock')
  const step2 = await login(app, { identifier: admin.username, password: admin.password, totpCode: await codeAfterLastStep(app, admin, secret) })
  t.equal(step2.statusCode, 200, 'the right password with a valid code signs in')
  t.type(json(step2).token, 'string')
})

t.test('four wrong passwords, the password-only step, then a fifth wrong one: locked as before', async t => {
  const app = await build(t)
  const { admin, secret } = await withMfa(app)
  for (let i = 0; i < 4; i++) t.equal((await login(app, { identifier: admin.username, password: `wrong-${i}` })).statusCode, 401)
  t.same(json(await login(app, { identifier: admin.username, password: admin.password })), { mfaRequired: true })
  t.equal((await login(app, { identifier: admin.username, password: 'wrong-5' })).statusCode, 401, 'the fifth failure')
  const locked = await login(app, { identifier: admin.username, password: admin.password, totpCode: await codeAfterLastStep(app, admin, secret) })
  t.equal(locked.statusCode, 423)
  t.equal(json(locked).error, 'Account temporarily locked')
})

t.test('forty simultaneous wrong codes: five are evaluated and the account ends locked', async t => {
  const app = await build(t)
  const { admin, secret } = await withMfa(app)
  const right = await codeAfterLastStep(app, admin, secret)
  const wrong = right === '000000' ? '000001' : '000000'
  const answers = await Promise.all(Array.from({ length: 40 }, async () =>
    (await login(app, { identifier: admin.username, password: admin.password, totpCode: wrong })).statusCode))
  t.equal(answers.filter(s => s === 401).length, 5, `five codes were checked: ${answers.join(' ')}`)
  t.equal(answers.filter(s => s === 423).length, 35, 'the rest were refused without checking')
  t.equal((await login(app, { identifier: admin.username, password: admin.password, totpCode: right })).statusCode, 423)
})

t.test('set-up and enabling need the current password: missing is 400, wrong is 401 and counts like a failed sign-in', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  const stolenSession = { token: admin.token }
  expectValidationError(t, await post(app, stolenSession, 'mfa/setup'), 'body')
  expectValidationError(t, await post(app, stolenSession, 'mfa/setup', {}), 'password')
  const wrongSetup = await post(app, stolenSession, 'mfa/setup', { password: 'not the password' })
  t.equal(wrongSetup.statusCode, 401)
  t.same(json(wrongSetup), { error: 'Invalid credentials' }, 'as a sign-in answers a wrong password')
  const [pending] = await app.db`select mfa_pending_secret from admin_users where id = ${admin.id}`
  t.equal(pending.mfaPendingSecret, null, 'no secret was made')

  const { secret } = json(await post(app, admin, 'mfa/setup', { password: admin.password }))
  const code = await generate({ secret })
  expectValidationError(t, await post(app, stolenSession, 'mfa/enable', { code }), 'password')
  const wrongEnable = await post(app, stolenSession, 'mfa/enable', { password: 'not the password', code })
  t.equal(wrongEnable.statusCode, 401)
  t.same(json(wrongEnable), { error: 'Invalid credentials' })
  t.equal(json(await app.inject({ method: 'GET', url: '/api/admin/auth/me', headers: adminBearer(admin) })).mfaEnabled, false, 'still off')

  const [row] = await app.db`select failed_login_attempts from admin_users where id = ${admin.id}`
  t.equal(row.failedLoginAttempts, 2, 'both wrong passwords counted; the right one did not')
  for (let i = 0; i < 3; i++) t.equal((await post(app, stolenSession, 'mfa/setup', { password: `guess-${i}` })).statusCode, 401)
  const locked = await post(app, stolenSession, 'mfa/enable', { password: admin.password, code })
  t.equal(locked.statusCode, 423, 'five wrong passwords lock the account: even the right one is refused')
  t.equal(json(locked).error, 'Account temporarily locked')
  t.equal((await login(app, { identifier: admin.username, password: admin.password })).statusCode, 423, 'and so is sign-in')
})

t.test('with the current password, set-up and enabling work and leave no failure counted', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  for (let i = 0; i < 4; i++) t.equal((await login(app, { identifier: admin.username, password: `wrong-${i}` })).statusCode, 401)
  const setup = await post(app, admin, 'mfa/setup', { password: admin.password })
  t.equal(setup.statusCode, 200, 'the fifth reservation is the right password: not refused')
  const enabled = await post(app, admin, 'mfa/enable', { password: admin.password, code: await generate({ secret: json(setup).secret }) })
  t.equal(enabled.statusCode, 200)
  t.equal(json(enabled).backupCodes.length, 10)
  const [row] = await app.db`select failed_login_attempts, locked_at from admin_users where id = ${admin.id}`
  t.same(row, { failedLoginAttempts: 4, lockedAt: null }, 'the earlier failures stay; the right passwords added none')
})
