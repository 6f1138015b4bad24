import t from 'tap'
import { bearer, build, expectValidationError, json, login as signIn, registerUser, setAccountStatus } from '../../../helper.js'

const DUPLICATE = 'An account with these details already exists'

t.test('register', async t => {
  const app = await build(t)

  t.test('201 with the user and a working token', async t => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: 'Ada@Example.COM', username: 'Ada_L', password: 'Analytical1', firstName: 'Ada', lastName: 'Lovelace' }
    })
    t.equal(res.statusCode, 201)
    const body = json(res)
    t.equal(body.message, 'Registration successful')
    t.equal(body.user.email, 'ada@example.com', 'email lower-cased')
    t.equal(body.user.username, 'Ada_L')
    t.equal(body.user.firstName, 'Ada')
    t.equal(body.user.plan, 'free')
    t.notOk('password' in body.user, 'no password hash in the response')
    t.notMatch(res.body, /\$2[aby]\$/, 'no bcrypt hash anywhere')
    const me = await app.inject({ url: '/api/auth/me', headers: bearer(body) })
    t.equal(me.statusCode, 200)
    t.equal(json(me).user.id, body.user.id)
    // No API shows a password hash: read the row.
    const [row] = await app.db<Array<{ password: string }>>`select password from users where id = ${body.user.id}`
    // The suite's BCRYPT_COST (test/app/passwords.test.ts proves production's 12).
    t.match(row.password, new RegExp(`^\\$2b\\$${String(app.passwords.cost).padStart(2, '0')}\\$`), `bcrypt, cost ${app.passwords.cost}`)
  })

  t.test('validation', async t => {
    const ok = { email: 'v@example.com', username: 'valid_user', password: 'Passw0rdOk' }
    expectValidationError(t, await app.inject({ method: 'POST', url: '/api/auth/register', payload: { ...ok, email: 'not-an-email' } }), 'email')
    expectValidationError(t, await app.inject({ method: 'POST', url: '/api/auth/register', payload: { ...ok, username: 'ab' } }), 'username')
    expectValidationError(t, await app.inject({ method: 'POST', url: '/api/auth/register', payload: { ...ok, username: 'has space' } }), 'username')
    expectValidationError(t, await app.inject({ method: 'POST', url: '/api/auth/register', payload: { ...ok, username: 'evil\u202Eadmin' } }), 'username')
    expectValidationError(t, await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email: ok.email, password: ok.password } }), 'username')
    for (const [password, rule] of [['Sh0rt', '8 characters'], ['alllower1', 'uppercase'], ['ALLUPPER1', 'lowercase'], ['NoDigitsHere', 'digit']]) {
      const res = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { ...ok, password } })
      expectValidationError(t, res, 'password')
      t.ok(json(res).details.some((d: string) => d.includes(rule)), `${password}: ${rule}`)
    }
    // Every broken rule of every field in one answer, not one field per attempt.
    const all = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email: 'not-an-email', username: 'ab', password: 'short' } })
    t.equal(all.statusCode, 400)
    t.same(json(all).details.map((d: string) => d.split(':')[0]).sort(), ['email', 'password', 'password', 'password', 'username'])
    t.same(json(all).details.filter((d: string) => d.startsWith('password')), [
      'password: must be at least 8 characters', 'password: must contain an uppercase letter', 'password: must contain a digit'
    ])
    const reset = await app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token: 'x', password: 'short' } })
    t.same(json(reset).details, ['password: must be at least 8 characters', 'password: must contain an uppercase letter', 'password: must contain a digit'], 'the same rule where a password is set')
  })

  t.test('duplicate email or username: the same 409, whichever exists', async t => {
    await registerUser(app, { username: 'taken_name', email: 'taken@example.com' })
    const byEmail = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email: 'TAKEN@example.com', username: 'other_name', password: 'Passw0rdOk' } })
    const byName = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email: 'other@example.com', username: 'Taken_Name', password: 'Passw0rdOk' } })
    t.equal(byEmail.statusCode, 409)
    t.equal(byName.statusCode, 409)
    t.same(json(byEmail), { error: DUPLICATE })
    t.same(json(byName), { error: DUPLICATE })
    const fullwidth = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email: 'fw@example.com', username: 'ｔａｋｅｎ_name', password: 'Passw0rdOk' } })
    t.equal(fullwidth.statusCode, 400, 'non-ASCII lookalikes are not valid usernames')
    const reserved = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email: 'p@example.com', username: 'profile', password: 'Passw0rdOk' } })
    t.equal(reserved.statusCode, 409, 'route names are reserved')
  })

  t.test('server-owned fields in the body are ignored', async t => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: 'mass@example.com', username: 'mass_assign', password: 'Passw0rdOk', verified: true, active: false, planId: 'premium', role: 'admin', id: 'chosen-id', passwordChangedAt: '2000-01-01T00:00:00Z' }
    })
    t.equal(res.statusCode, 201)
    const me = await app.inject({ url: '/api/auth/me', headers: bearer(json(res)) })
    t.equal(me.statusCode, 200, 'active (the strict check passes)')
    const { user } = json(me)
    t.not(user.id, 'chosen-id')
    t.equal(user.verified, false)
    t.equal(user.plan, 'free')
    // Not shown by any API.
    const [row] = await app.db<Array<{ passwordChangedAt: Date | null }>>`select password_changed_at from users where id = ${user.id}`
    t.equal(row.passwordChangedAt, null)
  })

  t.test('10 simultaneous registrations of one username: exactly one succeeds', async t => {
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => app.inject({
      method: 'POST', url: '/api/auth/register', payload: { email: `race${i}@example.com`, username: 'racer', password: 'Passw0rdOk' }
    })))
    const codes = results.map(r => r.statusCode).sort()
    t.same(codes, [201, ...Array(9).fill(409)])
    for (const r of results.filter(r => r.statusCode === 409)) t.same(json(r), { error: DUPLICATE })
    const [{ n }] = await app.db<Array<{ n: number }>>`select count(*)::int as n from users where username_key = 'racer'`
    t.equal(n, 1)
    const winner = results.find(r => r.statusCode === 201)!
    t.equal((await signIn(app, 'racer', 'Passw0rdOk')).statusCode, 200, 'the account that won works')
    t.equal(json(await app.inject({ url: '/api/users/racer' })).user.id, json(winner).user.id)
  })
})

t.test('login', async t => {
  const app = await build(t)
  const user = await registerUser(app, { username: 'Grace', email: 'grace@example.com', password: 'C0mpilers!' })
  const login = async (payload: Record<string, unknown>) => await app.inject({ method: 'POST', url: '/api/auth/login', payload })
  /** Status codes of simultaneous sign-ins of `username` with each password. */
  const storm = async (username: string, passwords: string[]) =>
    (await Promise.all(passwords.map(password => signIn(app, username, password))))

  t.test('by username (any case), email, or the email/username fields', async t => {
    for (const payload of [
      { identifier: 'grace', password: user.password },
      { identifier: 'GRACE', password: user.password },
      { identifier: 'Grace@Example.com', password: user.password },
      { email: 'grace@example.com', password: user.password },
      { username: 'Grace', password: user.password }
    ]) {
      const res = await login(payload)
      t.equal(res.statusCode, 200, JSON.stringify(payload))
      const body = json(res)
      t.equal(body.message, 'Login successful')
      t.equal(body.user.id, user.id)
      t.equal(body.user.email, 'grace@example.com')
      t.type(body.token, 'string')
    }
  })

  t.test('wrong password and unknown user: same 401, one bcrypt comparison each', async t => {
    const wrong = await login({ identifier: 'grace', password: 'nope' })
    const unknown = await login({ identifier: 'nobody-here', password: 'nope' })
    t.equal(wrong.statusCode, 401)
    t.equal(unknown.statusCode, 401)
    t.same(json(wrong), { error: 'Invalid credentials' })
    t.same(json(unknown), json(wrong))
    // Both paths run one bcrypt comparison at the same cost (a dummy hash for the unknown user), so their times agree;
    // counted on the hashing pool rather than timed, which machine load would decide.
    const comparisons = async (identifier: string) => {
      const before = app.passwords.pool.completed
      await login({ identifier, password: 'nope' })
      return app.passwords.pool.completed - before
    }
    t.equal(await comparisons('grace'), 1, 'wrong password: one comparison')
    t.equal(await comparisons('ghost'), 1, 'unknown user: one comparison too')
  })

  t.test('validation', async t => {
    expectValidationError(t, await login({ identifier: 'grace' }), 'password')
    expectValidationError(t, await login({ password: 'x' }), 'identifier')
  })

  t.test('lockout after 5 failures, expiring by itself', async t => {
    const victim = await registerUser(app, { password: 'R1ghtPassword' })
    for (let i = 1; i <= 5; i++) t.equal((await login({ identifier: victim.username, password: 'bad' })).statusCode, 401, `failure ${i}`)
    const locked = await login({ identifier: victim.username, password: victim.password })
    t.equal(locked.statusCode, 423, 'even the right password is refused while locked')
    const body = json(locked)
    t.equal(body.error, 'Account temporarily locked')
    t.ok(body.retryAfter > 840 && body.retryAfter <= 900, `retryAfter ${body.retryAfter}`)
    t.equal(locked.headers['retry-after'], String(body.retryAfter))

    // 16 minutes later (no API moves the clock).
    await app.db`update users set locked_at = now() - interval '16 minutes' where id = ${victim.id}`
    t.equal((await login({ identifier: victim.username, password: victim.password })).statusCode, 200, 'the lock expired')

    for (let i = 0; i < 4; i++) await login({ identifier: victim.username, password: 'bad' })
    t.equal((await login({ identifier: victim.username, password: victim.password })).statusCode, 200)
    for (let i = 0; i < 4; i++) await login({ identifier: victim.username, password: 'bad' })
    t.equal((await login({ identifier: victim.username, password: victim.password })).statusCode, 200, 'a success resets the count')
  })

  t.test('40 simultaneous wrong sign-ins: at most 5 passwords are compared, then even the right one is refused', async t => {
    // Which five of the simultaneous requests reserve an attempt is the database's order of arrival; a right
    // password among them would be compared and succeed (as it should), so the storm is of wrong ones only.
    const victim = await registerUser(app, { password: 'R1ghtPassword' })
    const comparedBefore = app.passwords.pool.completed
    const results = await storm(victim.username, Array<string>(40).fill('Wrong-guess-1'))
    const codes = results.map(r => r.statusCode)
    t.equal(codes.filter(code => code !== 423).length, 5, `exactly 5 attempts evaluated: ${codes.join(' ')}`)
    t.same(codes.filter(code => code !== 423 && code !== 401), [], 'the others are refused without comparing')
    t.equal(app.passwords.pool.completed - comparedBefore, 5, 'five bcrypt comparisons in all')
    for (const locked of results.filter(r => r.statusCode === 423)) {
      t.equal(json(locked).error, 'Account temporarily locked')
      t.ok(json(locked).retryAfter > 0 && json(locked).retryAfter <= 900)
    }
    const right = await signIn(app, victim.username, victim.password)
    t.equal(right.statusCode, 423, 'the right password after the storm: refused, not compared')
    t.equal(app.passwords.pool.completed - comparedBefore, 5, 'still five comparisons')
  })

  t.test('wrong current passwords on change-password count like failed sign-ins', async t => {
    const victim = await registerUser(app)
    const change = async (currentPassword: string) => await app.inject({
      method: 'POST', url: '/api/auth/change-password', headers: bearer(victim), payload: { currentPassword, newPassword: 'N3w-Password' }
    })
    for (let i = 1; i <= 5; i++) {
      const wrong = await change('not-the-password')
      t.equal(wrong.statusCode, 400, `wrong current password ${i}`)
      t.same(json(wrong), { error: 'Current password is incorrect' })
    }
    const locked = await change(victim.password)
    t.equal(locked.statusCode, 423, 'then even the right one is refused')
    t.equal(json(locked).error, 'Account temporarily locked')
    t.equal((await signIn(app, victim.username, victim.password)).statusCode, 423, 'and sign-in is locked too')
    t.equal((await app.inject({ url: '/api/auth/me', headers: bearer(victim) })).statusCode, 200, 'the session itself stays valid')
  })

  t.test('deactivated and banned accounts', async t => {
    const inactive = await registerUser(app)
    const banned = await registerUser(app)
    await setAccountStatus(app, inactive, { active: false })
    await setAccountStatus(app, banned, { banned: true })
    const a = await login({ identifier: inactive.username, password: inactive.password })
    t.equal(a.statusCode, 403)
    t.same(json(a), { error: 'Account is deactivated' })
    const b = await login({ identifier: banned.username, password: banned.password })
    t.equal(b.statusCode, 403)
    t.same(json(b), { error: 'Account is banned' })
    t.equal((await login({ identifier: banned.username, password: 'wrong' })).statusCode, 401, 'status not revealed without the password')
  })
})

t.test('the auth limiter applies to credential routes from every address', async t => {
  const app = await build(t, { env: { RATE_LIMIT_AUTH_MAX: '3' } })
  for (let i = 0; i < 3; i++) {
    t.equal((await app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '127.0.0.1', payload: { identifier: 'x', password: 'y' } })).statusCode, 401)
  }
  const limited = await app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '127.0.0.1', payload: { identifier: 'x', password: 'y' } })
  t.equal(limited.statusCode, 429)
  t.equal(json(limited).error, 'Too many requests')
  t.equal((await app.inject({ method: 'POST', url: '/api/auth/register', remoteAddress: '127.0.0.1', payload: {} })).statusCode, 429, 'shared across auth routes')
  t.equal((await app.inject({ method: 'POST', url: '/api/auth/forgot-password', remoteAddress: '127.0.0.1', payload: { email: 'a@b.co' } })).statusCode, 429)
})
