import Fastify from 'fastify'
import fp from 'fastify-plugin'
import t from 'tap'
import bff from '../../bff/app.js'
import { serverOptions } from '../../server-options.js'
import { build, json, registerUser, testConfig } from '../helper.js'

const ORIGIN = 'https://app.example.com'

t.test('browser session through the web proxy', async t => {
  const api = await build(t)
  await api.listen({ port: 0, host: '127.0.0.1' })
  const config = await testConfig({ ALLOWED_ORIGINS: ORIGIN })
  const proxy = Fastify(serverOptions(config))
  await proxy.register(fp(bff), { config, apiUrl: `http://127.0.0.1:${(api.server.address() as { port: number }).port}` })
  t.teardown(async () => await proxy.close())
  await proxy.ready()
  const user = await registerUser(api)

  const login = await proxy.inject({ method: 'POST', url: '/bff/auth/login', headers: { origin: ORIGIN }, payload: { identifier: user.username, password: user.password } })
  t.equal(login.statusCode, 200)
  const body = json(login)
  t.equal(body.user.id, user.id)
  t.notOk('token' in body, 'the token never reaches page scripts')
  const cookie = login.cookies.find(c => c.name === 'auth_token')!
  t.ok(cookie, 'session cookie set')
  t.equal(cookie.httpOnly, true)
  t.equal(cookie.secure, true)
  t.equal(String(cookie.sameSite).toLowerCase(), 'lax')
  t.equal(cookie.maxAge, 86_400)

  const me = await proxy.inject({ url: '/bff/api/auth/me', cookies: { auth_token: cookie.value } })
  t.equal(me.statusCode, 200, 'the cookie authenticates proxied calls')
  t.equal(json(me).user.id, user.id)

  const wrong = await proxy.inject({ method: 'POST', url: '/bff/auth/login', payload: { identifier: user.username, password: 'nope' } })
  t.equal(wrong.statusCode, 401)
  t.same(json(wrong), { error: 'Invalid credentials' })
  t.notOk(wrong.cookies.some(c => c.name === 'auth_token'), 'no cookie on failure')

  const foreign = await proxy.inject({ method: 'POST', url: '/bff/auth/login', headers: { origin: 'https://evil.example' }, payload: { identifier: user.username, password: user.password } })
  t.equal(foreign.statusCode, 403, 'login is behind the origin check too')

  const logout = await proxy.inject({ method: 'POST', url: '/bff/auth/logout', cookies: { auth_token: cookie.value } })
  t.equal(logout.statusCode, 200)
  const cleared = logout.cookies.find(c => c.name === 'auth_token')!
  t.ok(cleared.expires != null && cleared.expires.getTime() < Date.now(), 'cookie cleared')
  t.equal((await api.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${cookie.value}` } })).statusCode, 401, 'and the token revoked')
  t.equal((await proxy.inject({ method: 'POST', url: '/bff/auth/logout' })).statusCode, 200, 'logging out without a session is fine')

  const exchange = await proxy.inject({ method: 'POST', url: '/bff/auth/oauth/exchange', payload: { code: 'not-a-code' } })
  t.equal(exchange.statusCode, 400)
  t.same(json(exchange), { error: 'Invalid or expired code' })
  const { code } = await api.accounts.issueCode(user.id)
  const exchanged = await proxy.inject({ method: 'POST', url: '/bff/auth/oauth/exchange', payload: { code } })
  t.equal(exchanged.statusCode, 200)
  t.notOk('token' in json(exchanged))
  t.ok(exchanged.cookies.some(c => c.name === 'auth_token' && c.httpOnly), 'a one-time code becomes a session cookie')
})
