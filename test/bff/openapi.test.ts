import SwaggerParser from '@apidevtools/swagger-parser'
import t from 'tap'
import { json, registerUser } from '../helper.js'
import { ORIGIN, refusingApiUrl, startBff, startProxy } from './helpers.js'

interface Operation {
  operationId?: string
  summary?: string
  description?: string
  responses: Record<string, { description?: string }>
}

t.test('the BFF documents itself at /bff/docs/json', async t => {
  // The API is down: anything proxied would answer 502, so a 200 here comes from the BFF itself.
  const { proxy } = await startProxy(t, await refusingApiUrl())

  const res = await proxy.inject({ url: '/bff/docs/json', headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } })
  t.equal(res.statusCode, 200, 'served without a cookie, whatever the Origin')
  t.match(res.headers['content-type'], /application\/json/)
  const doc = json(res)
  t.equal(doc.openapi, '3.1.0')
  // The parser dereferences its input in place, so it gets a copy.
  await SwaggerParser.validate(structuredClone(doc) as never)

  t.same(Object.keys(doc.paths).sort(), ['/bff/auth/login', '/bff/auth/logout', '/bff/auth/oauth/exchange', '/bff/auth/refresh', '/bff/auth/session'],
    'the session routes; not the proxy, the page or the docs routes')
  for (const rule of ['/bff/api/<path>', '/api/docs/json', '/api/admin', '/api/docs', '/api/unsubscribe/preview', 'Sec-Fetch-Site', 'Authorization: Bearer',
    'sign-in (login, one-time code exchange) 20 per 60 s', '(refresh, session, logout) 120 per 60 s', 'GET /', '/app.js', "script-src 'self'"]) {
    t.ok(doc.info.description.includes(rule), `info.description states the proxy rules: ${rule}`)
  }

  const ids = new Set<string>()
  for (const [path, item] of Object.entries<Record<string, Operation>>(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const name = `${method} ${path}`
      t.match(op.operationId, /^bff\.[a-z][A-Za-z]*$/, `${name} operationId`)
      t.notOk(ids.has(op.operationId!), `${name} operationId is unique`)
      ids.add(op.operationId!)
      t.ok(op.summary, `${name} summary`)
      t.match(op.description, /httpOnly cookie `auth_token`/, `${name} explains the cookie`)
      t.match(op.description, /Origin/, `${name} explains the origin check`)
      // A GET is not origin-checked (and nothing else answers 403 there); everything else is.
      for (const status of ['200', '400', ...(method === 'get' ? [] : ['403']), '429', '502']) t.ok(op.responses[status], `${name} documents ${status}`)
      if (method === 'get') t.notOk(op.responses['403'], `${name}: no 403 on a GET`)
      for (const [status, response] of Object.entries(op.responses)) {
        t.ok(response.description != null && response.description !== '' && response.description !== 'Default Response', `${name} ${status} described`)
      }
    }
  }
  t.same([...ids].sort(), ['bff.login', 'bff.logout', 'bff.oauthExchange', 'bff.refresh', 'bff.session'])
  const okBody = (op: Operation & { responses: Record<string, any> }): Record<string, any> => {
    const schema = op.responses['200'].content['application/json'].schema
    return schema.$ref == null ? schema : doc.components.schemas[schema.$ref.split('/').pop()]
  }
  const refreshed = okBody(doc.paths['/bff/auth/refresh'].post)
  t.same(Object.keys(refreshed.properties), ['expiresIn'], 'refresh answers how long, and no token')
  t.equal(refreshed.properties.expiresIn.type, 'integer')
  t.same(Object.keys(okBody(doc.paths['/bff/auth/session'].get).properties), ['user'], 'session answers the user')
  t.ok(doc.paths['/bff/auth/session'].get.responses['401'], 'session documents 401 (not signed in)')
  t.match(doc.paths['/bff/auth/login'].post.responses['429'].description, /20 per 60 s per client address/)

  t.same(doc.tags.map((tag: { name: string }) => tag.name), ['session'])
  t.equal((await proxy.inject('/bff/docs')).statusCode, 404, 'JSON only, no UI')
  t.equal((await proxy.inject('/bff/docs/nothing')).statusCode, 404, '/bff/docs* is never proxied to the API')
})

t.test('the document names the configured cookie and limits', async t => {
  const { proxy } = await startProxy(t, await refusingApiUrl(), { env: { AUTH_COOKIE: 'sid' }, rateLimit: { signIn: { max: 5, windowMs: 30_000 } } })
  const doc = json(await proxy.inject('/bff/docs/json'))
  t.equal(doc.components.securitySchemes.sessionCookie.name, 'sid')
  t.match(doc.paths['/bff/auth/login'].post.description, /httpOnly cookie `sid`/)
  t.match(doc.info.description, /sign-in \(login, one-time code exchange\) 5 per 30 s/)
  t.match(doc.paths['/bff/auth/oauth/exchange'].post.responses['429'].description, /5 per 30 s/)
})

t.test('the documented bodies are not enforced by the BFF: the API validates them', async t => {
  const { api, proxy } = await startBff(t)
  const user = await registerUser(api)
  const post = async (url: string, payload?: unknown) => await proxy.inject({ method: 'POST', url, headers: { origin: ORIGIN }, ...(payload != null && { payload: payload as object }) })

  const missing = await post('/bff/auth/login')
  t.equal(missing.statusCode, 400)
  t.same(json(missing), { error: 'Validation error', details: ['password: is required'] }, 'the API\'s details, not "body: must be object"')
  t.equal((await post('/bff/auth/login', { identifier: user.username, password: user.password, extra: 1 })).statusCode, 200, 'unknown fields still pass')
  const exchange = await post('/bff/auth/oauth/exchange', { code: 123 })
  t.same(json(exchange), { error: 'Validation error', details: ['code: must be string'] })
  const logout = await proxy.inject({ method: 'POST', url: '/bff/auth/logout', headers: { 'content-type': 'text/plain' }, payload: 'anything' })
  t.equal(logout.statusCode, 200, 'logout still ignores its body')
})
