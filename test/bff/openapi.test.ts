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

  t.same(Object.keys(doc.paths).sort(), ['/bff/auth/login', '/bff/auth/logout', '/bff/auth/oauth/exchange'],
    'the session routes; not the proxy or the docs routes')
  for (const rule of ['/bff/api/<path>', '/api/docs/json', '/api/admin', '/api/docs', '/api/unsubscribe/preview', 'Sec-Fetch-Site', 'Authorization: Bearer']) {
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
      for (const status of ['200', '400', '403', '502']) t.ok(op.responses[status], `${name} documents ${status}`)
      for (const [status, response] of Object.entries(op.responses)) {
        t.ok(response.description != null && response.description !== '' && response.description !== 'Default Response', `${name} ${status} described`)
      }
    }
  }
  t.same([...ids].sort(), ['bff.login', 'bff.logout', 'bff.oauthExchange'])

  t.same(doc.tags.map((tag: { name: string }) => tag.name), ['session'])
  t.equal((await proxy.inject('/bff/docs')).statusCode, 404, 'JSON only, no UI')
  t.equal((await proxy.inject('/bff/docs/nothing')).statusCode, 404, '/bff/docs* is never proxied to the API')
})

t.test('the document names the configured cookie', async t => {
  const { proxy } = await startProxy(t, await refusingApiUrl(), { env: { AUTH_COOKIE: 'sid' } })
  const doc = json(await proxy.inject('/bff/docs/json'))
  t.equal(doc.components.securitySchemes.sessionCookie.name, 'sid')
  t.match(doc.paths['/bff/auth/login'].post.description, /httpOnly cookie `sid`/)
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
