import { SignJWT } from 'jose'
import t from 'tap'
import { bearer, build, createRecipe, json, registerUser, setAccountStatus, type TestUser } from '../../../helper.js'

const key = (secret: string) => new TextEncoder().encode(secret)

t.test('token checks', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  const me = async (headers: Record<string, string>) => await app.inject({ url: '/api/auth/me', headers })
  const sign = async (payload: Record<string, unknown>, secret = app.config.jwtSecret, exp = Math.floor(Date.now() / 1000) + 3600) =>
    await new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime(exp).sign(key(secret))

  t.test('missing or malformed credentials: 401 Authentication required', async t => {
    for (const headers of [{}, { authorization: 'Basic dXNlcjpwYXNz' }, { authorization: 'Bearer' }, { authorization: 'Bearer a b' }] as Array<Record<string, string>>) {
      const res = await me(headers)
      t.equal(res.statusCode, 401, JSON.stringify(headers))
      t.same(json(res), { error: 'Authentication required' })
    }
  })

  t.test('forged, expired and foreign tokens: 401 Invalid or expired token', async t => {
    const claims = { userId: user.id, email: user.email, jti: 'forged-jti', ver: 0 }
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ ...claims, iat: 1, exp: 9999999999 })).toString('base64url')}.`
    const tokens: Record<string, string> = {
      'alg none': none,
      garbage: 'not.a.jwt',
      'wrong secret': await sign(claims, 'x'.repeat(40)),
      'admin secret': await sign(claims, app.config.adminJwtSecret),
      expired: await sign(claims, app.config.jwtSecret, Math.floor(Date.now() / 1000) - 10),
      'admin-typed': await sign({ ...claims, typ: 'admin' }),
      'unsubscribe-typed': await sign({ ...claims, typ: 'unsubscribe', aud: 'unsubscribe' }),
      'unknown user': await sign({ ...claims, userId: 'no-such-user' }),
      'missing claims': await sign({ userId: user.id }),
      'no token version': await sign({ userId: user.id, email: user.email, jti: 'no-ver' }),
      'another token version': await sign({ ...claims, ver: 1 }),
      'audience of another purpose': await sign({ ...claims, aud: 'recipes-api' }),
      tampered: user.token.slice(0, -3) + (user.token.endsWith('AAA') ? 'BBB' : 'AAA')
    }
    for (const [name, token] of Object.entries(tokens)) {
      const res = await me({ authorization: `Bearer ${token}` })
      t.equal(res.statusCode, 401, name)
      t.same(json(res), { error: 'Invalid or expired token' }, name)
    }
    const hs512 = await new SignJWT(claims).setProtectedHeader({ alg: 'HS512' }).setIssuedAt().setExpirationTime('1h').sign(key(app.config.jwtSecret))
    t.equal((await me({ authorization: `Bearer ${hs512}` })).statusCode, 401, 'verification is pinned to HS256')
    t.equal((await me(bearer(user))).statusCode, 200, 'the real token still works')
  })

  t.test('token payload', async t => {
    const payload = JSON.parse(Buffer.from(user.token.split('.')[1], 'base64url').toString())
    t.equal(payload.userId, user.id)
    t.equal(payload.email, user.email)
    t.type(payload.jti, 'string')
    t.equal(payload.exp - Math.floor(payload.iat), 86_400, 'valid 24 hours')
    t.ok(Number.isInteger(payload.iat), 'whole seconds: exactness comes from the token version')
    t.equal(payload.ver, 0, 'the account\'s token version')
    const header = JSON.parse(Buffer.from(user.token.split('.')[0], 'base64url').toString())
    t.equal(header.alg, 'HS256')
    t.notOk('typ' in payload || 'aud' in payload)
  })

  t.test('me answers the own profile behind the strict check, documented as a token route', async t => {
    const res = await me(bearer(user))
    t.equal(res.statusCode, 200)
    t.match(json(res).user, { id: user.id, email: user.email, username: user.username, _count: { recipes: 0, followers: 0, following: 0 } })
    const doc = app.swagger() as unknown as { paths: Record<string, Record<string, { security?: unknown, responses: Record<string, unknown> }>> }
    const operation = doc.paths['/api/auth/me'].get
    t.same(operation.security, [{ bearerAuth: [] }])
    t.ok('401' in operation.responses, '401 documented')
  })
})

// Routes whose session check reads their answer in the same statement (config.sessionRead) keep every check.
t.test('routes answering from the session statement refuse revoked, outdated, deactivated and banned tokens', async t => {
  const app = await build(t)
  const routes = ['/api/auth/me', '/api/notifications/unread-count', '/api/push-notifications/preferences']
  const statuses = async (u: { token: string }) => await Promise.all(routes.map(async url => (await app.inject({ url, headers: bearer(u) })).statusCode))
  const answers = async (u: { token: string }) => await Promise.all(routes.map(async url => json(await app.inject({ url, headers: bearer(u) }))))

  const user = await registerUser(app)
  const [self, unread, push] = await answers(user)
  t.equal(self.user.id, user.id)
  t.same(unread, { unreadCount: 0 })
  t.equal(push.preferences.like, true, 'a switch never set is on')
  await app.inject({ method: 'PUT', url: '/api/push-notifications/preferences', headers: bearer(user), payload: { like: false } })
  t.equal((await answers(user))[2].preferences.like, false, 'a stored switch is read')
  const other = await registerUser(app)
  t.same((await answers(other))[1], { unreadCount: 0 }, 'another user\'s answer is their own')

  t.same(await statuses({ token: 'not.a.jwt' }), [401, 401, 401], 'garbled')
  await app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(user) })
  t.same(await statuses(user), [401, 401, 401], 'revoked by logout')

  const changed = await registerUser(app)
  const changedRes = await app.inject({ method: 'POST', url: '/api/auth/change-password', headers: bearer(changed), payload: { currentPassword: changed.password, newPassword: 'N3wPassword!' } })
  t.equal(changedRes.statusCode, 200)
  t.same(await statuses(changed), [401, 401, 401], 'token version outdated by a password change')
  t.same(await statuses({ token: json(changedRes).token }), [200, 200, 200], 'the new token works')

  for (const [label, status] of [['deactivated', { active: false }], ['banned', { banned: true }]] as const) {
    const account = await registerUser(app)
    t.same(await statuses(account), [200, 200, 200])
    await setAccountStatus(app, account, status)
    t.same(await statuses(account), [401, 401, 401], label)
  }
})

t.test('simultaneous strict checks, read together, judge each token on its own', async t => {
  const app = await build(t)
  const profile = async (u: { token: string }) => await app.inject({ url: '/api/users/profile', headers: bearer(u) })
  const good = await Promise.all(Array.from({ length: 8 }, async () => await registerUser(app)))
  const revoked = await registerUser(app)
  await app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(revoked) })
  const outdated = await registerUser(app)
  const changed = await app.inject({ method: 'POST', url: '/api/auth/change-password', headers: bearer(outdated), payload: { currentPassword: outdated.password, newPassword: 'N3wPassword!' } })
  t.equal(changed.statusCode, 200)
  const deactivated = await registerUser(app)
  await setAccountStatus(app, deactivated, { active: false })
  const banned = await registerUser(app)
  await setAccountStatus(app, banned, { banned: true })
  const refused = [revoked, outdated, deactivated, banned]

  // Half the good users switched off one push notification: each answer must be its caller's own.
  await Promise.all(good.filter((_, i) => i % 2 === 1).map(async u =>
    await app.inject({ method: 'PUT', url: '/api/push-notifications/preferences', headers: bearer(u), payload: { like: false } })))

  // Each caller several times on the plain check and on each route whose statement reads its answer beside the check
  // (config.sessionRead), interleaved, all at once: the checks of one kind share statements.
  const own = {
    '/api/users/profile': (body: any, u: { id: string }) => body.user.id === u.id,
    '/api/auth/me': (body: any, u: { id: string, email: string }) => body.user.id === u.id && body.user.email === u.email,
    '/api/notifications/unread-count': (body: any) => body.unreadCount === 0,
    '/api/push-notifications/preferences': (body: any, u: { id: string }) => body.preferences.like === (good.indexOf(u as never) % 2 === 0)
  }
  const callers = Array.from({ length: 4 }, () => [...good, ...refused]).flat()
  const calls = Object.keys(own).flatMap(url => callers.map(u => ({ u, url: url as keyof typeof own })))
  const answers = await Promise.all(calls.map(async ({ u, url }) => ({ u, url, res: await app.inject({ url, headers: bearer(u) }) })))
  for (const { u, url, res } of answers) {
    if (refused.includes(u)) {
      t.equal(res.statusCode, 401, `${url}: refused`)
      t.same(json(res), { error: 'Invalid or expired token' })
    } else {
      t.equal(res.statusCode, 200, url)
      t.ok(own[url](json(res), u), `${url}: their own answer`)
    }
  }
  t.equal((await profile({ token: json(changed).token })).statusCode, 200, 'the new token of the password change works')
})

t.test('likes check the session in their own statement: refused tokens change nothing, even all at once', async t => {
  const app = await build(t)
  const author = await registerUser(app)
  const recipe = await createRecipe(app, author, { title: 'Contested' })
  const likeUrl = `/api/social/recipes/${recipe.id}/like`
  const send = async (u: { token: string }, method: 'POST' | 'DELETE', url = likeUrl) => await app.inject({ method, url, headers: bearer(u) })
  const good = await Promise.all(Array.from({ length: 4 }, async () => await registerUser(app)))
  // Each refused user liked the recipe while their token was still good: a refused unlike must leave that like.
  const [revoked, outdated, deactivated, banned] = await Promise.all(Array.from({ length: 4 }, async () => await registerUser(app)))
  for (const u of [revoked, outdated, deactivated, banned]) t.equal((await send(u, 'POST')).statusCode, 200, 'liked while signed in')
  await app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(revoked) })
  const changed = await app.inject({ method: 'POST', url: '/api/auth/change-password', headers: bearer(outdated), payload: { currentPassword: outdated.password, newPassword: 'N3wPassword!' } })
  t.equal(changed.statusCode, 200)
  await setAccountStatus(app, deactivated, { active: false })
  await setAccountStatus(app, banned, { banned: true })
  const { token: nobody } = await app.tokens.issue({ id: 'no-such-user', email: 'nobody@example.com', tokenVersion: 0 })
  const refused = [revoked, outdated, deactivated, banned, { token: nobody }]

  // Likes and unlikes of good and refused tokens, interleaved and all at once: they share statements.
  const callers = Array.from({ length: 3 }, () => [...good, ...refused]).flat()
  const answers = await Promise.all(callers.flatMap(u => [
    (async () => ({ u, res: await send(u, 'DELETE') }))(),
    (async () => ({ u, res: await send(u, 'POST') }))()
  ]))
  for (const { u, res } of answers) {
    if (refused.includes(u)) {
      t.equal(res.statusCode, 401, 'refused')
      t.same(json(res), { error: 'Invalid or expired token' })
    } else {
      t.equal(res.statusCode, 200, 'each good caller is answered for themselves')
    }
  }
  // The last word of each good caller was a like (one user's operations keep their order).
  const [row] = await app.db<Array<{ rows: string[], likeCount: number }>>`
    select array(select user_id from likes where recipe_id = ${recipe.id} order by user_id) as rows, like_count from recipes where id = ${recipe.id}`
  const expected = [...good, revoked, outdated, deactivated, banned].map(u => u.id).sort()
  t.same(row.rows, expected, 'the good callers like it; the refused users\' likes are untouched')
  t.equal(row.likeCount, expected.length, 'and the counter agrees')

  // A refused token learns nothing about recipes: 401 for an unknown one too, never 404.
  const unknown = '/api/social/recipes/no-such-recipe/like'
  for (const u of refused) {
    t.equal((await send(u, 'POST', unknown)).statusCode, 401)
    t.equal((await send(u, 'DELETE', unknown)).statusCode, 401)
  }
  t.equal((await send(good[0], 'POST', unknown)).statusCode, 404, 'a good token: the recipe is unknown')
  const missing = await app.inject({ method: 'POST', url: likeUrl })
  t.equal(missing.statusCode, 401)
  t.same(json(missing), { error: 'Authentication required' })
  t.equal((await app.inject({ method: 'POST', url: likeUrl, headers: { authorization: 'Bearer not.a.token' } })).statusCode, 401)
  t.equal((await send({ token: json(changed).token }, 'DELETE')).statusCode, 200, 'the new token of the password change works')
})

t.test('refresh rotates, logout revokes', async t => {
  const app = await build(t)
  const user = await registerUser(app)

  const refreshed = await app.inject({ method: 'POST', url: '/api/auth/refresh', headers: bearer(user) })
  t.equal(refreshed.statusCode, 200)
  const { token, expiresIn } = json(refreshed)
  t.equal(expiresIn, 86400)
  t.not(token, user.token)
  t.equal((await app.inject({ url: '/api/auth/me', headers: bearer(user) })).statusCode, 401, 'old token revoked')
  t.equal((await app.inject({ method: 'POST', url: '/api/auth/refresh', headers: bearer(user) })).statusCode, 401, 'and cannot refresh again')
  t.equal((await app.inject({ url: '/api/auth/me', headers: bearer({ token }) })).statusCode, 200, 'new token works')

  const out = await app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer({ token }) })
  t.equal(out.statusCode, 200)
  t.same(json(out), { message: 'Logged out' })
  t.equal((await app.inject({ url: '/api/auth/me', headers: bearer({ token }) })).statusCode, 401, 'logged-out token refused')
  t.equal((await app.inject({ method: 'POST', url: '/api/auth/logout' })).statusCode, 401, 'logout needs a token')
})

t.test('50 simultaneous refreshes of one token: exactly one succeeds', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  const results = await Promise.all(Array.from({ length: 50 }, async () =>
    await app.inject({ method: 'POST', url: '/api/auth/refresh', headers: bearer(user) })))
  const won = results.filter(r => r.statusCode === 200)
  t.equal(won.length, 1, `one new token, not ${won.length}`)
  for (const lost of results.filter(r => r.statusCode !== 200)) {
    t.equal(lost.statusCode, 401)
    t.same(json(lost), { error: 'Invalid or expired token' })
  }
  t.equal((await app.inject({ url: '/api/auth/me', headers: bearer(json(won[0])) })).statusCode, 200, 'the winner\'s token works')
  t.equal((await app.inject({ url: '/api/auth/me', headers: bearer(user) })).statusCode, 401, 'the old one is revoked')
})

t.test('revocation survives a restart without Redis (a new instance, an empty in-process cache)', async t => {
  const first = await build(t, { env: { REDIS_URL: undefined } })
  t.equal(first.cache.kind, 'memory')
  const user = await registerUser(first)
  const other = await registerUser(first)
  for (const owner of [user, other]) await createRecipe(first, owner, { title: 'Private', visibility: 'private' })
  const refreshed = json(await first.inject({ method: 'POST', url: '/api/auth/refresh', headers: bearer(user) }))
  t.equal((await first.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(refreshed) })).statusCode, 200)

  // Same database, nothing shared in memory.
  const second = await build(t, { env: { REDIS_URL: undefined } })
  const me = async (u: { token?: unknown }) => (await second.inject({ url: '/api/auth/me', headers: bearer(u) })).statusCode
  const ownRecipes = async (owner: TestUser, u: { token?: unknown }) =>
    json(await second.inject({ url: `/api/users/${owner.username}/recipes`, headers: bearer(u) })).pagination.total
  t.equal(await me(user), 401, 'the token replaced by refresh is still refused')
  t.equal(await me(refreshed), 401, 'the logged-out token is still refused')
  t.equal((await second.inject({ method: 'POST', url: '/api/auth/refresh', headers: bearer(refreshed) })).statusCode, 401, 'and cannot be refreshed')
  t.equal(await ownRecipes(user, refreshed), 0, 'optional routes treat it as anonymous')
  t.equal(await me(other), 200, 'a token never revoked still works there')
  t.equal(await ownRecipes(other, other), 1, 'and signs its owner in on optional routes')
})

t.test('a revoked token is refused by every instance sharing Redis', { skip: process.env.REDIS_URL == null ? 'REDIS_URL not set' : false }, async t => {
  const shared = { CACHE_PREFIX: `test:deny:${process.pid}:${Date.now()}:` }
  const a = await build(t, { env: shared })
  const b = await build(t, { env: shared })
  const user = await registerUser(a)
  t.equal((await b.inject({ url: '/api/auth/me', headers: bearer(user) })).statusCode, 200)
  await a.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(user) })
  t.equal((await b.inject({ url: '/api/auth/me', headers: bearer(user) })).statusCode, 401)
})

t.test('change password', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  const other = await registerUser(app)
  // A private recipe: its owner sees it in their list (optional auth), anyone else does not.
  await createRecipe(app, user, { title: 'Secret stew', visibility: 'private' })
  const ownRecipes = async (u: Pick<TestUser, 'token'>) =>
    json(await app.inject({ url: `/api/users/${user.username}/recipes`, headers: bearer(u) })).pagination.total
  t.equal(await ownRecipes(user), 1, 'owner sees the private recipe')
  t.equal(await ownRecipes(other), 0)

  const change = async (body: Record<string, string>, u: Pick<TestUser, 'token'> = user) =>
    await app.inject({ method: 'POST', url: '/api/auth/change-password', headers: bearer(u), payload: body })

  const wrong = await change({ currentPassword: 'not-it', newPassword: 'N3wPassword!' })
  t.equal(wrong.statusCode, 400)
  t.same(json(wrong), { error: 'Current password is incorrect' })
  const weak = await change({ currentPassword: user.password, newPassword: 'weak' })
  t.equal(weak.statusCode, 400)
  t.equal(json(weak).error, 'Validation error')

  const ok = await change({ currentPassword: user.password, newPassword: 'N3wPassword!' })
  t.equal(ok.statusCode, 200)
  const fresh = json(ok).token
  t.equal((await app.inject({ url: '/api/auth/me', headers: bearer(user) })).statusCode, 401, 'old token fails the strict check')
  t.equal(await ownRecipes(user), 0, 'old token is anonymous on optional routes')
  t.equal((await app.inject({ url: '/api/auth/me', headers: bearer({ token: fresh }) })).statusCode, 200, 'the returned token works')
  t.equal(await ownRecipes({ token: fresh }), 1)

  const login = async (password: string) => (await app.inject({ method: 'POST', url: '/api/auth/login', payload: { identifier: user.username, password } })).statusCode
  t.equal(await login(user.password), 401, 'old password no longer works')
  t.equal(await login('N3wPassword!'), 200)
  t.equal((await change({ currentPassword: 'x', newPassword: 'N3wPassword!' }, { token: 'garbage' })).statusCode, 401)
})

t.test('deactivated and banned users lose access at once', async t => {
  const app = await build(t)
  for (const [label, status] of [['deactivated', { active: false }], ['banned', { banned: true }]] as const) {
    const user = await registerUser(app)
    await createRecipe(app, user, { title: 'S', visibility: 'private' })
    const recipes = async () => json(await app.inject({ url: `/api/users/${user.username}/recipes`, headers: bearer(user) }))
    // Prime the optional route's auth cache, then change the account.
    t.equal((await recipes()).pagination.total, 1)
    await setAccountStatus(app, user, status)
    t.equal((await app.inject({ url: '/api/auth/me', headers: bearer(user) })).statusCode, 401, `${label}: strict check refuses`)
    const anonymous = await recipes()
    t.ok(anonymous.error === 'User not found' || anonymous.pagination?.total === 0, `${label}: optional check treats the token as anonymous`)
  }
})

t.test('with the database unreachable, strict checks (simultaneous ones too), likes and reads answer 503, never 401 or 500', async t => {
  const app = await build(t, { env: { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' } })
  const { token } = await app.tokens.issue({ id: 'someone', email: 'someone@example.com', tokenVersion: 0 })
  const answers = await Promise.all(Array.from({ length: 6 }, async () => await app.inject({ url: '/api/users/profile', headers: bearer({ token }) })))
  t.same(answers.map(res => res.statusCode), [503, 503, 503, 503, 503, 503])
  t.same(json(answers[0]), { error: 'Service temporarily unavailable' })
  // Likes check the session in their own statement, and other routes read the database directly: the same answer.
  for (const request of [
    { method: 'POST' as const, url: '/api/social/recipes/r1/like', headers: bearer({ token }) },
    { method: 'DELETE' as const, url: '/api/social/recipes/r1/like', headers: bearer({ token }) },
    { method: 'GET' as const, url: '/api/recipes/r1' }
  ]) {
    const res = await app.inject(request)
    t.equal(res.statusCode, 503, `${request.method} ${request.url}`)
    t.same(json(res), { error: 'Service temporarily unavailable' })
  }
})
