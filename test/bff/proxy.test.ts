import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { apiTarget } from '../../bff/app.js'
import { json, testConfig } from '../helper.js'
import { captureLogs, ORIGIN, rawRequest, refusingApiUrl, silentApiUrl, startBff, startProxy } from './helpers.js'

/** Request targets the API received, as sent on the wire. */
const seen: string[] = []

async function echo (app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', async request => { seen.push(request.raw.url!) })
  for (const url of ['/api/echo', '/api/admin/echo']) {
    app.all(url, async request => ({
      authorization: request.headers.authorization ?? null,
      cookie: request.headers.cookie ?? null,
      ip: request.ip,
      requestId: request.headers['x-request-id'] ?? null,
      method: request.method
    }))
  }
  app.get('/api/echo/token', async () => ({ token: 'leaked.jwt.token', kept: true }))
  app.get('/api/echo/text', async (_request, reply) => await reply.type('text/plain').send('{"token":"stays in text"}'))
}

const NOT_FOUND = { error: 'Not found' }
const FORBIDDEN = { error: 'Forbidden' }

t.test('web proxy', async t => {
  const { proxy, port } = await startBff(t, { api: { extend: echo } })

  t.test('the session cookie becomes a Bearer header; the cookie stays in the browser', async t => {
    const res = await proxy.inject({ url: '/bff/api/echo', cookies: { auth_token: 'the.jwt.token', other: 'x' } })
    t.equal(res.statusCode, 200)
    const seen = json(res)
    t.equal(seen.authorization, 'Bearer the.jwt.token')
    t.equal(seen.cookie, null, 'cookies are not forwarded')
    t.ok(seen.requestId, 'request id forwarded')
  })

  t.test('without a cookie, an explicit Authorization header passes through', async t => {
    const seen = json(await proxy.inject({ url: '/bff/api/echo', headers: { authorization: 'Bearer other' } }))
    t.equal(seen.authorization, 'Bearer other')
    t.equal(json(await proxy.inject('/bff/api/echo')).authorization, null)
  })

  t.test('the API sees the browser address, not a spoofed one', async t => {
    const seen = json(await proxy.inject({ url: '/bff/api/echo', remoteAddress: '203.0.113.77', headers: { 'x-forwarded-for': '1.1.1.1' } }))
    t.equal(seen.ip, '203.0.113.77')
  })

  t.test('origin check on state-changing requests', async t => {
    const post = async (headers: Record<string, string>) => await proxy.inject({ method: 'POST', url: '/bff/api/echo', headers, payload: {} })
    const foreign = await post({ origin: 'https://evil.example' })
    t.equal(foreign.statusCode, 403)
    t.same(json(foreign), FORBIDDEN)
    t.equal((await post({ origin: ORIGIN })).statusCode, 200, 'allowed origin passes')
    t.equal((await post({})).statusCode, 200, 'absent origin passes')
    t.equal((await post({ origin: ORIGIN, 'sec-fetch-site': 'cross-site' })).statusCode, 403, 'cross-site fetch refused')
    t.equal((await post({ 'sec-fetch-site': 'same-origin' })).statusCode, 200)
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      t.equal((await proxy.inject({ method, url: '/bff/api/echo', headers: { origin: 'https://evil.example' } })).statusCode, 403, method)
    }
    t.equal((await proxy.inject({ url: '/bff/api/echo', headers: { origin: 'https://evil.example' } })).statusCode, 200, 'GET is not checked')
  })

  t.test('admin, docs and the unsubscribe preview are not reachable', async t => {
    const blocked = [
      '/bff/api/admin/echo', '/bff/api/ADMIN/echo', '/bff/api/%61dmin/echo', '/bff/api//admin/echo', '/bff/api/./admin/echo',
      '/bff/api/admin', '/bff/api/admin/', '/bff/api/admin%2Fecho', '/bff/api/docs', '/bff/api/docs/json',
      '/bff/api/unsubscribe/preview/u1'
    ]
    for (const url of blocked) {
      const res = await proxy.inject(url)
      t.equal(res.statusCode, 404, url)
      t.same(json(res), NOT_FOUND, url)
    }
    // The request line exactly as sent, without the normalisation inject applies.
    for (const url of [...blocked, '/bff/api/admin?x=1', '/bff/api/./docs/json']) {
      const res = await rawRequest(port, 'GET', url)
      t.equal(res.statusCode, 404, `raw ${url}`)
      t.same(JSON.parse(res.body), NOT_FOUND, `raw ${url}`)
    }
    t.equal((await proxy.inject('/bff/api/echo/../admin/echo')).statusCode, 404, 'dot segments resolve to the blocked path')
    for (const url of ['/bff/api/echo/../admin/echo', '/bff/api/%2e%2e/api/admin/echo', '/bff/api/echo/..%2Fadmin/echo', '/bff/api/echo/..%2Fhealthz', '/bff/api/a%5Cb']) {
      const res = await rawRequest(port, 'GET', url)
      t.equal(res.statusCode, 404, `raw ${url} (curl --path-as-is): dot segments and backslashes are never forwarded`)
      t.same(JSON.parse(res.body), NOT_FOUND, url)
    }
    const malformed = await rawRequest(port, 'GET', '/bff/api/%E0%A4%A')
    t.equal(malformed.statusCode, 400, 'a malformed escape')
    t.match(JSON.parse(malformed.body), { error: 'Validation error', details: [/^path: /] })
    t.equal((await proxy.inject('/bff/api/administrators')).statusCode, 404, 'only the admin family itself is blocked')
    t.notOk(seen.some(url => /^\/api\/(admin|docs|unsubscribe\/preview)(\/|\?|#|$)/i.test(url)), `the API never saw a blocked path: ${seen.join(' ')}`)
  })

  t.test('a fragment in the request target is refused, not forwarded', async t => {
    const before = seen.length
    const refused = { error: 'Validation error', details: ['path: must not contain a fragment'] }
    for (const url of ['/bff/api/docs#x', '/bff/api/admin#?q=1', '/bff/api/echo#x', '/bff/api/echo?q=1#x', '/bff/auth/login#x']) {
      const res = await rawRequest(port, 'GET', url)
      t.equal(res.statusCode, 400, url)
      t.same(JSON.parse(res.body), refused, url)
      t.equal(res.headers['x-content-type-options'], 'nosniff', 'with the usual security headers')
    }
    t.same(seen.slice(before), [], 'nothing reached the API')
    // inject parses its URL and drops the fragment, so it can only show that the bare path is still blocked.
    t.equal((await proxy.inject('/bff/api/docs#x')).statusCode, 404)
    t.equal((await proxy.inject('/bff/api/admin#?q=1')).statusCode, 404)

    const res = await rawRequest(port, 'GET', '/bff/api/echo?q=1')
    t.equal(res.statusCode, 200)
    t.equal(seen.at(-1), '/api/echo?q=1', 'the upstream target is the path and query, nothing else')
    t.equal((await rawRequest(port, 'GET', '/bff/api/docs%23x')).statusCode, 404, 'an encoded # is a path character: no such route')
  })

  t.test('a token in any proxied JSON body is removed; no cookie is set outside /api/auth', async t => {
    const res = await proxy.inject('/bff/api/echo/token')
    t.equal(res.statusCode, 200)
    t.same(json(res), { kept: true })
    t.equal(res.headers['content-length'], String(Buffer.byteLength(res.body)), 'length of the new body')
    t.equal(res.headers['set-cookie'], undefined)
    const viaHttp = await fetch(`http://127.0.0.1:${port}/bff/api/echo/token`)
    t.same(await viaHttp.json(), { kept: true }, 'a real client reads the shortened body')
    const text = await proxy.inject('/bff/api/echo/text')
    t.equal(text.body, '{"token":"stays in text"}', 'non-JSON bodies stream through untouched')
  })

  t.test('paths outside the proxy: JSON 404', async t => {
    const res = await proxy.inject('/elsewhere')
    t.equal(res.statusCode, 404)
    t.same(json(res), { error: 'Not found' })
  })

  t.test('the BFF validates its own bodies like the API', async t => {
    const res = await proxy.inject({ method: 'POST', url: '/bff/auth/login', headers: { 'content-type': 'application/json' }, payload: '{"identifier":' })
    t.equal(res.statusCode, 400)
    t.same(json(res), { error: 'Validation error', details: ['body: malformed JSON'] })
  })
})

t.test('API unreachable: 502 with nothing internal in the body, and logged', async t => {
  const apiUrl = await refusingApiUrl()
  const logs = captureLogs()
  const { proxy, port } = await startProxy(t, apiUrl, { logs })
  const unavailable = { error: 'Service unavailable' }
  const requests = [
    { url: '/bff/api/recipes' },
    { method: 'POST' as const, url: '/bff/api/auth/login', payload: { identifier: 'a', password: 'b' } },
    { method: 'POST' as const, url: '/bff/auth/login', payload: { identifier: 'a', password: 'b' } },
    { method: 'POST' as const, url: '/bff/auth/oauth/exchange', payload: { code: 'c' } }
  ]
  for (const request of requests) {
    const res = await proxy.inject(request)
    t.equal(res.statusCode, 502, request.url)
    t.same(json(res), unavailable, request.url)
    t.notMatch(res.body, /127\.0\.0\.1|ECONN|FST_|fetch failed/, 'no address, code or driver text')
  }
  // Over a real connection too: a failed upload to the API must not reset the browser's connection.
  const viaHttp = await fetch(`http://127.0.0.1:${port}/bff/api/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier: 'a', password: 'b' })
  })
  t.equal(viaHttp.status, 502)
  t.same(await viaHttp.json(), unavailable)
  const logout = await proxy.inject({ method: 'POST', url: '/bff/auth/logout', cookies: { auth_token: 'the.jwt.token' } })
  t.equal(logout.statusCode, 502, 'logout could not revoke the token')
  t.same(json(logout), unavailable)
  t.equal(logout.headers['set-cookie'], undefined, 'the cookie stays so the page can retry')

  const failures = logs.lines.filter(line => line.level >= 50 && line.msg === 'request failed')
  t.equal(failures.length, requests.length + 2, 'every 502 is logged as an error')
  t.match(failures[0].err.message, /ECONNREFUSED/, 'the log keeps the cause')
})

t.test('API hangs: 502 after the upstream timeout', async t => {
  const { proxy } = await startProxy(t, await silentApiUrl(t), { upstreamTimeoutMs: 200 })
  for (const request of [{ url: '/bff/api/recipes' }, { method: 'POST' as const, url: '/bff/auth/login', payload: {} }]) {
    const res = await proxy.inject(request)
    t.equal(res.statusCode, 502, request.url)
    t.same(json(res), { error: 'Service unavailable' }, request.url)
  }
})

t.test('AUTH_COOKIE must be a cookie name', async t => {
  t.equal((await testConfig()).authCookie, 'auth_token', 'default')
  t.equal((await testConfig({ AUTH_COOKIE: '__Host-sid' })).authCookie, '__Host-sid')
  for (const bad of ['a b', 'a;b', 'a=b', 'sid"']) {
    await t.rejects(testConfig({ AUTH_COOKIE: bad }), { name: 'ConfigError', message: /AUTH_COOKIE/ }, bad)
  }
})

t.test('apiTarget normalises what the API router will see and refuses the blocked and the ambiguous', async t => {
  t.same(apiTarget('/bff/api/Recipes//X/./y;v=1?y=1'), { path: '/api/recipes/x/y' })
  t.same(apiTarget('/bff/api/Recipes/x'), { path: '/api/recipes/x' })
  t.same(apiTarget('/bff/api/Admin/x?y=1'), { refused: 404 }, 'blocked, whatever the case')
  t.same(apiTarget('/bff/api//docs/'), { refused: 404 })
  t.same(apiTarget('/bff/api/%2e%2e/admin'), { refused: 404 }, 'encoded dot segments')
  t.same(apiTarget('/bff/api/x/../healthz'), { refused: 404 }, 'raw dot segments (curl --path-as-is)')
  t.same(apiTarget('/bff/api/a%5Cb'), { refused: 404 }, 'backslashes')
  t.same(apiTarget('/bff/api/%E0%A4%A'), { refused: 400 }, 'malformed escapes')
  t.same(apiTarget('/bff/api/a%00b'), { refused: 400 }, 'NUL')
  t.same(apiTarget('/bff/api/admin'), { refused: 404 })
})
