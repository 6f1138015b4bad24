import type { LightMyRequestResponse } from 'fastify'
import t, { type Test } from 'tap'
import { json, registerUser } from '../helper.js'
import { issueSignInCode, ORIGIN, startBff, startProxy } from './helpers.js'

/** The session cookie a response sets, checked for the options decisions.md section 5 asks for. */
function sessionCookie (t: Test, res: LightMyRequestResponse, name = 'auth_token'): string {
  const cookie = res.cookies.find(c => c.name === name)
  t.ok(cookie, `${name} cookie set`)
  t.equal(cookie?.httpOnly, true)
  t.equal(cookie?.secure, true)
  t.equal(String(cookie?.sameSite).toLowerCase(), 'lax')
  t.equal(cookie?.path, '/')
  t.equal(cookie?.maxAge, 86_400)
  return cookie?.value ?? ''
}

/** The response body has no token and its length header matches it. */
function noToken (t: Test, res: LightMyRequestResponse): Record<string, any> {
  const body = json(res)
  t.notOk('token' in body, 'the token never reaches page scripts')
  t.notMatch(res.body, /eyJ/, 'no JWT anywhere in the body')
  t.equal(res.headers['content-length'], String(Buffer.byteLength(res.body)), 'content-length matches the body')
  return body
}

t.test('browser session through the web proxy', async t => {
  const { api, proxy } = await startBff(t)
  const user = await registerUser(api)

  const login = await proxy.inject({ method: 'POST', url: '/bff/auth/login', headers: { origin: ORIGIN }, payload: { identifier: user.username, password: user.password } })
  t.equal(login.statusCode, 200)
  t.equal(noToken(t, login).user.id, user.id)
  const token = sessionCookie(t, login)

  const me = await proxy.inject({ url: '/bff/api/auth/me', cookies: { auth_token: token } })
  t.equal(me.statusCode, 200, 'the cookie authenticates proxied calls')
  t.equal(json(me).user.id, user.id)

  const wrong = await proxy.inject({ method: 'POST', url: '/bff/auth/login', payload: { identifier: user.username, password: 'nope' } })
  t.equal(wrong.statusCode, 401)
  t.same(json(wrong), { error: 'Invalid credentials' })
  t.notOk(wrong.cookies.some(c => c.name === 'auth_token'), 'no cookie on failure')

  const foreign = await proxy.inject({ method: 'POST', url: '/bff/auth/login', headers: { origin: 'https://evil.example' }, payload: { identifier: user.username, password: user.password } })
  t.equal(foreign.statusCode, 403, 'login is behind the origin check too')

  const logout = await proxy.inject({ method: 'POST', url: '/bff/auth/logout', cookies: { auth_token: token } })
  t.equal(logout.statusCode, 200)
  const cleared = logout.cookies.find(c => c.name === 'auth_token')!
  t.ok(cleared.expires != null && cleared.expires.getTime() < Date.now(), 'cookie cleared')
  t.equal((await api.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } })).statusCode, 401, 'and the token revoked')
  t.equal((await proxy.inject({ method: 'POST', url: '/bff/auth/logout' })).statusCode, 200, 'logging out without a session is fine')
  const emptyJson = await proxy.inject({ method: 'POST', url: '/bff/auth/logout', headers: { 'content-type': 'application/json' }, payload: '' })
  t.equal(emptyJson.statusCode, 200, 'an empty JSON body is no body, as on the API')
  const emptyLogin = await proxy.inject({ method: 'POST', url: '/bff/auth/login', headers: { 'content-type': 'application/json' }, payload: '' })
  t.equal(emptyLogin.statusCode, 400)
  t.match(json(emptyLogin), { error: 'Validation error' }, 'the API says what is missing')

  const exchange = await proxy.inject({ method: 'POST', url: '/bff/auth/oauth/exchange', payload: { code: 'not-a-code' } })
  t.equal(exchange.statusCode, 400)
  t.same(json(exchange), { error: 'Invalid or expired code' })
  const code = await issueSignInCode(api, user.id)
  const exchanged = await proxy.inject({ method: 'POST', url: '/bff/auth/oauth/exchange', payload: { code } })
  t.equal(exchanged.statusCode, 200)
  noToken(t, exchanged)
  t.ok(exchanged.cookies.some(c => c.name === 'auth_token' && c.httpOnly), 'a one-time code becomes a session cookie')
})

t.test('the API auth routes through /bff/api keep the token in the cookie', async t => {
  const { api, proxy, port } = await startBff(t)
  const post = async (url: string, payload: unknown, token?: string) => await proxy.inject({
    method: 'POST', url, headers: { origin: ORIGIN }, payload: payload as object, ...(token != null && { cookies: { auth_token: token } })
  })
  const meWith = async (token: string) => (await proxy.inject({ url: '/bff/api/auth/me', cookies: { auth_token: token } })).statusCode

  const username = `bff${process.pid}`
  const registered = await post('/bff/api/auth/register', { username, email: `${username}@example.com`, password: 'Sup3rSecret!' })
  t.equal(registered.statusCode, 201)
  const userId = noToken(t, registered).user.id
  const afterRegister = sessionCookie(t, registered)
  t.equal(await meWith(afterRegister), 200, 'registration signs the browser in')

  const login = await post('/bff/api/auth/login', { identifier: username, password: 'Sup3rSecret!' })
  t.equal(login.statusCode, 200)
  t.equal(noToken(t, login).user.id, userId)
  const afterLogin = sessionCookie(t, login)

  const refreshed = await post('/bff/api/auth/refresh', {}, afterLogin)
  t.equal(refreshed.statusCode, 200)
  t.same(noToken(t, refreshed), { expiresIn: 86_400 })
  const afterRefresh = sessionCookie(t, refreshed)
  t.equal(await meWith(afterLogin), 401, 'refresh revoked the old token')
  t.equal(await meWith(afterRefresh), 200, 'the cookie holds the new one')

  const changed = await post('/bff/api/auth/change-password', { currentPassword: 'Sup3rSecret!', newPassword: 'N3wSecret!!' }, afterRefresh)
  t.equal(changed.statusCode, 200)
  t.same(noToken(t, changed), { message: 'Password changed' })
  const afterChange = sessionCookie(t, changed)
  t.equal(await meWith(afterRefresh), 401, 'older tokens stop working')
  t.equal(await meWith(afterChange), 200, 'the browser stays signed in')

  const code = await issueSignInCode(api, userId)
  const exchanged = await post('/bff/api/auth/oauth/exchange', { code })
  t.equal(exchanged.statusCode, 200)
  t.equal(noToken(t, exchanged).user.id, userId)
  const afterExchange = sessionCookie(t, exchanged)

  // A real client too: the shortened body must match its length header on the wire.
  const viaHttp = await fetch(`http://127.0.0.1:${port}/bff/api/auth/refresh`, { method: 'POST', headers: { origin: ORIGIN, cookie: `auth_token=${afterExchange}` } })
  t.equal(viaHttp.status, 200)
  t.same(await viaHttp.json(), { expiresIn: 86_400 })
  const fromHttp = viaHttp.headers.getSetCookie().find(c => c.startsWith('auth_token='))!
  t.match(fromHttp, /HttpOnly/)
  const current = fromHttp.slice('auth_token='.length).split(';')[0]

  const failed = await post('/bff/api/auth/login', { identifier: username, password: 'wrong' })
  t.equal(failed.statusCode, 401)
  t.same(json(failed), { error: 'Invalid credentials' })
  t.equal(failed.headers['set-cookie'], undefined, 'no cookie on failure')

  const logout = await post('/bff/api/auth/logout', {}, current)
  t.equal(logout.statusCode, 200)
  const cleared = logout.cookies.find(c => c.name === 'auth_token')
  t.ok(cleared?.expires != null && cleared.expires.getTime() < Date.now(), 'proxied logout clears the cookie')
  t.equal(await meWith(current), 401, 'and the token is revoked')
})

t.test('the cookie name comes from the validated configuration (AUTH_COOKIE)', async t => {
  const { api, apiUrl } = await startBff(t)
  const { proxy } = await startProxy(t, apiUrl, { env: { AUTH_COOKIE: 'sid' } })
  const user = await registerUser(api)
  const login = await proxy.inject({ method: 'POST', url: '/bff/auth/login', payload: { identifier: user.username, password: user.password } })
  t.equal(login.statusCode, 200)
  t.notOk(login.cookies.some(c => c.name === 'auth_token'))
  const sid = sessionCookie(t, login, 'sid')
  t.equal((await proxy.inject({ url: '/bff/api/auth/me', cookies: { sid } })).statusCode, 200, 'sid authenticates proxied calls')
  t.equal((await proxy.inject({ url: '/bff/api/auth/me', cookies: { auth_token: sid } })).statusCode, 401, 'the default name is not read')
  const logout = await proxy.inject({ method: 'POST', url: '/bff/auth/logout', cookies: { sid } })
  t.ok(logout.cookies.some(c => c.name === 'sid' && c.expires != null && c.expires.getTime() < Date.now()), 'sid cleared')
})

t.test('refresh and session: the signed-in browser, without ever seeing the token', async t => {
  const { api, proxy } = await startBff(t)
  const user = await registerUser(api)
  const meWith = async (token: string) => (await api.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } })).statusCode
  const login = await proxy.inject({ method: 'POST', url: '/bff/auth/login', headers: { origin: ORIGIN }, payload: { identifier: user.username, password: user.password } })
  const first = sessionCookie(t, login)

  const session = await proxy.inject({ url: '/bff/auth/session', cookies: { auth_token: first } })
  t.equal(session.statusCode, 200)
  t.equal(noToken(t, session).user.id, user.id, 'the signed-in account')
  t.equal(json(session).user.username, user.username)
  t.equal(session.headers['cache-control'], 'no-store', 'never cached')
  t.equal(session.headers['set-cookie'], undefined, 'reading the session changes no cookie')

  const refreshed = await proxy.inject({ method: 'POST', url: '/bff/auth/refresh', headers: { origin: ORIGIN }, cookies: { auth_token: first } })
  t.equal(refreshed.statusCode, 200)
  t.same(noToken(t, refreshed), { expiresIn: 86_400 }, 'how long the renewed session lasts, nothing token-like')
  const second = sessionCookie(t, refreshed)
  t.not(second, first, 'a new token in the cookie')
  t.equal(await meWith(first), 401, 'the old token is revoked')
  t.equal(await meWith(second), 200, 'the new one works')

  const stale = await proxy.inject({ method: 'POST', url: '/bff/auth/refresh', cookies: { auth_token: first } })
  t.equal(stale.statusCode, 401, 'a revoked token cannot be refreshed')
  t.same(json(stale), { error: 'Invalid or expired token' })
  t.equal(stale.headers['set-cookie'], undefined, 'the cookie is left alone: a concurrent refresh may just have replaced it')
  const staleSession = await proxy.inject({ url: '/bff/auth/session', cookies: { auth_token: first } })
  t.equal(staleSession.statusCode, 401)
  t.equal(staleSession.headers['set-cookie'], undefined)

  for (const cookies of [{}, { auth_token: '' }, { other: second }] as Array<Record<string, string>>) {
    const noSession = await proxy.inject({ url: '/bff/auth/session', cookies })
    t.equal(noSession.statusCode, 401, `session without a cookie: ${JSON.stringify(cookies)}`)
    t.same(json(noSession), { error: 'Authentication required' })
    const noRefresh = await proxy.inject({ method: 'POST', url: '/bff/auth/refresh', cookies })
    t.equal(noRefresh.statusCode, 401, `refresh without a cookie: ${JSON.stringify(cookies)}`)
    t.same(json(noRefresh), { error: 'Authentication required' })
  }
  const garbage = await proxy.inject({ url: '/bff/auth/session', cookies: { auth_token: 'not.a.jwt' } })
  t.equal(garbage.statusCode, 401)
  t.same(json(garbage), { error: 'Invalid or expired token' })

  const foreign = await proxy.inject({ method: 'POST', url: '/bff/auth/refresh', headers: { origin: 'https://evil.example' }, cookies: { auth_token: second } })
  t.equal(foreign.statusCode, 403, 'refresh is behind the origin check')
  t.equal(foreign.headers['set-cookie'], undefined)
  t.equal(await meWith(second), 200, 'and the refused refresh revoked nothing')
  const crossSite = await proxy.inject({ method: 'POST', url: '/bff/auth/refresh', headers: { 'sec-fetch-site': 'cross-site' }, cookies: { auth_token: second } })
  t.equal(crossSite.statusCode, 403)

  // Concurrent refreshes of one token (two tabs): one wins, the others get 401 and leave the winner's cookie alone.
  const racing = await Promise.all([1, 2, 3].map(async () => await proxy.inject({ method: 'POST', url: '/bff/auth/refresh', cookies: { auth_token: second } })))
  t.same(racing.map(r => r.statusCode).sort(), [200, 401, 401])
  t.same(racing.filter(r => r.statusCode === 401).map(r => r.headers['set-cookie']), [undefined, undefined], 'losers set no cookie')
  const winner = sessionCookie(t, racing.find(r => r.statusCode === 200)!)
  t.equal(await meWith(winner), 200)
})

t.test('the session cookie is Secure whatever the scheme the proxy sees', async t => {
  const { api, proxy } = await startBff(t)
  const user = await registerUser(api)
  // Behind a TLS-terminating proxy (trusted: loopback) and directly over http: Secure either way (decisions.md 5), so a
  // browser only ever sends it over https (or to localhost, a secure context).
  for (const headers of [{ 'x-forwarded-proto': 'https' }, { 'x-forwarded-proto': 'http' }, {}]) {
    const login = await proxy.inject({ method: 'POST', url: '/bff/auth/login', headers, payload: { identifier: user.username, password: user.password } })
    t.equal(login.statusCode, 200)
    sessionCookie(t, login)
    t.match(login.headers['set-cookie'], /; Secure/, `Secure with ${JSON.stringify(headers)}`)
  }
})
