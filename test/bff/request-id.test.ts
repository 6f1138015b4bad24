// One request id from the proxy to the API: the proxy's own id (server-options.ts `genReqId`: a well-formed
// X-Request-Id from a trusted peer, else a fresh UUID) goes to the API on proxied and session calls alike, and the API
// (which trusts the proxy on loopback) logs under the same id.
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { PUBLIC_IP, registerUser } from '../helper.js'
import { captureLogs, startBff } from './helpers.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

t.test('the proxy\'s request id is the API\'s request id', async t => {
  const apiIds: Array<{ url: string, id: string, header: unknown }> = []
  const record = (app: FastifyInstance): void => {
    app.addHook('onRequest', async request => { apiIds.push({ url: request.url, id: request.id, header: request.headers['x-request-id'] }) })
  }
  const logs = captureLogs()
  const { api, proxy } = await startBff(t, { logs, api: { extend: record } })
  const user = await registerUser(api)
  /** The id the proxy logged its request under, and the one the API handled `apiUrl` with. */
  const ids = (apiUrl: string): { proxy: string, api: string, header: unknown } => {
    const line = logs.lines.filter(line => line.reqId != null && line.statusCode != null).at(-1)!
    const seen = apiIds.filter(entry => entry.url === apiUrl).at(-1)!
    return { proxy: line.reqId, api: seen.id, header: seen.header }
  }

  const login = await proxy.inject({ method: 'POST', url: '/bff/auth/login', payload: { identifier: user.username, password: user.password } })
  const cookies = { auth_token: login.cookies.find(c => c.name === 'auth_token')!.value }
  const calls = [
    { name: 'session', request: { url: '/bff/auth/session', cookies }, apiUrl: '/api/auth/me' },
    { name: 'proxied', request: { url: '/bff/api/recipes?limit=1', cookies }, apiUrl: '/api/recipes?limit=1' },
    { name: 'refresh', request: { method: 'POST' as const, url: '/bff/auth/refresh', cookies }, apiUrl: '/api/auth/refresh' }
  ]
  for (const { name, request, apiUrl } of calls) {
    // A client without a well-formed id from a trusted peer: the proxy makes one, and the API keeps it.
    const fresh = await proxy.inject(request)
    t.ok(fresh.statusCode < 300, `${name}: ${fresh.statusCode}`)
    const made = ids(apiUrl)
    t.match(made.proxy, UUID, `${name}: the proxy made a UUID`)
    t.equal(made.header, made.proxy, `${name}: and sent it as X-Request-Id`)
    t.equal(made.api, made.proxy, `${name}: the API handled the request under the same id`)
    if (name === 'refresh') cookies.auth_token = fresh.cookies.find(c => c.name === 'auth_token')!.value

    // A well-formed id from a trusted peer (loopback: a load balancer in front of the proxy) is carried through.
    const traced = await proxy.inject({ ...request, headers: { 'x-request-id': `trace-${name}.1:a_b` } })
    t.equal(ids(apiUrl).api, `trace-${name}.1:a_b`, `${name}: a trusted caller's id reaches the API`)
    if (name === 'refresh') cookies.auth_token = traced.cookies.find(c => c.name === 'auth_token')!.value

    // Not from an untrusted address, and never unsafe text into the logs: a fresh UUID instead.
    for (const [given, remoteAddress] of [['from-the-internet', PUBLIC_IP], ['has spaces', '127.0.0.1'],
      ['x'.repeat(129), '127.0.0.1'], ['quote"}{', '127.0.0.1'], ['<script>', '127.0.0.1'], ['a/b', '127.0.0.1']] as const) {
      const res = await proxy.inject({ ...request, remoteAddress, headers: { 'x-request-id': given } })
      const seen = ids(apiUrl)
      t.match(seen.api, UUID, `${name}: ${JSON.stringify(given.slice(0, 20))} from ${remoteAddress} replaced`)
      t.equal(seen.api, seen.proxy, `${name}: by the proxy's own id`)
      if (name === 'refresh') cookies.auth_token = res.cookies.find(c => c.name === 'auth_token')!.value
    }
  }
})
