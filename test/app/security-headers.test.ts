import t from 'tap'
import { PERMISSIONS_POLICY } from '../../plugins/external/helmet.js'
import { build } from '../helper.js'

t.test('security headers on every response', async t => {
  const app = await build(t, { env: { ALLOWED_ORIGINS: 'https://app.example.com,https://admin.example.com' } })

  for (const url of ['/healthz', '/api/nope']) {
    const res = await app.inject(url)
    t.match(res.headers['strict-transport-security'], /max-age=\d+/, `${url} HSTS`)
    t.equal(res.headers['x-frame-options'], 'DENY', `${url} X-Frame-Options`)
    t.equal(res.headers['x-content-type-options'], 'nosniff', `${url} nosniff`)
    t.ok(res.headers['referrer-policy'], `${url} Referrer-Policy`)
    t.equal(res.headers['permissions-policy'], PERMISSIONS_POLICY, `${url} Permissions-Policy`)
    t.notOk(res.headers['cross-origin-embedder-policy'], `${url} no COEP`)
    const csp = String(res.headers['content-security-policy'])
    t.match(csp, /script-src 'self' 'unsafe-inline'/, 'inline scripts allowed')
    t.match(csp, /connect-src 'self' https: wss: ws:/, 'connect-src')
    t.match(csp, /img-src 'self' data: blob: https: http:/, 'img-src')
  }

  t.test('CORS allows whitelisted origins only', async t => {
    const allowed = await app.inject({ url: '/healthz', headers: { origin: 'https://app.example.com' } })
    t.equal(allowed.headers['access-control-allow-origin'], 'https://app.example.com')
    t.equal(allowed.headers['access-control-allow-credentials'], 'true')

    const other = await app.inject({ url: '/healthz', headers: { origin: 'https://evil.example' } })
    t.notOk(other.headers['access-control-allow-origin'], 'no ACAO for a foreign origin')

    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/api/anything',
      headers: { origin: 'https://admin.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,authorization' }
    })
    t.equal(preflight.statusCode, 204)
    t.equal(preflight.headers['access-control-allow-origin'], 'https://admin.example.com')
    t.match(String(preflight.headers['access-control-allow-methods']), /POST/)

    const badPreflight = await app.inject({
      method: 'OPTIONS', url: '/api/anything', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' }
    })
    t.notOk(badPreflight.headers['access-control-allow-origin'])
  })
})
