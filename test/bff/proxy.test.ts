import Fastify, { type FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import t from 'tap'
import bff, { apiPath } from '../../bff/app.js'
import { serverOptions } from '../../server-options.js'
import { build, json, testConfig } from '../helper.js'

const ORIGIN = 'https://app.example.com'

async function echo (app: FastifyInstance): Promise<void> {
  for (const url of ['/api/echo', '/api/admin/echo']) {
    app.all(url, async request => ({
      authorization: request.headers.authorization ?? null,
      cookie: request.headers.cookie ?? null,
      ip: request.ip,
      requestId: request.headers['x-request-id'] ?? null,
      method: request.method
    }))
  }
}

t.test('web proxy', async t => {
  const api = await build(t, { extend: echo })
  await api.listen({ port: 0, host: '127.0.0.1' })
  const config = await testConfig({ ALLOWED_ORIGINS: ORIGIN })
  const proxy = Fastify(serverOptions(config))
  await proxy.register(fp(bff), { config, apiUrl: `http://127.0.0.1:${(api.server.address() as { port: number }).port}` })
  t.teardown(async () => await proxy.close())
  await proxy.ready()

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
    t.same(json(foreign), { error: 'Forbidden' })
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
    for (const url of [
      '/bff/api/admin/echo', '/bff/api/ADMIN/echo', '/bff/api/%61dmin/echo', '/bff/api//admin/echo', '/bff/api/./admin/echo',
      '/bff/api/admin', '/bff/api/docs', '/bff/api/docs/json', '/bff/api/unsubscribe/preview/u1'
    ]) {
      const res = await proxy.inject(url)
      t.equal(res.statusCode, 403, url)
      t.same(json(res), { error: 'Forbidden' }, url)
    }
    t.equal((await proxy.inject('/bff/api/echo/../admin/echo')).statusCode, 403, 'dot segments resolve to the blocked path')
    t.equal((await proxy.inject('/bff/api/administrators')).statusCode, 404, 'only the admin family itself is blocked')
  })

  t.test('paths outside the proxy: JSON 404', async t => {
    const res = await proxy.inject('/elsewhere')
    t.equal(res.statusCode, 404)
    t.same(json(res), { error: 'Not found' })
  })
})

t.test('apiPath normalises what the API router will see', async t => {
  t.equal(apiPath('/bff/api/Admin/x?y=1'), '/api/admin/x')
  t.equal(apiPath('/bff/api//docs/'), '/api/docs')
  t.equal(apiPath('/bff/api/%2e%2e/admin'), null, 'encoded dot segments refused')
  t.equal(apiPath('/bff/api/x/../admin'), null, 'raw dot segments refused (curl --path-as-is)')
  t.equal(apiPath('/bff/api/%E0%A4%A'), null, 'malformed escapes refused')
  t.equal(apiPath('/bff/api/a%5Cb'), null, 'backslashes refused')
})
