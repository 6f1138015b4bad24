import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createId } from '@paralleldrive/cuid2'
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { Type } from 'typebox'
import { accountLocked, HttpError } from '../../lib/errors.js'
import { Id } from '../../schemas/common.js'
import { bearer, build, expectValidationError, json, registerUser } from '../helper.js'

// Test-only routes exercising each error path through the real error handler.
async function errorRoutes (app: FastifyInstance): Promise<void> {
  app.post('/test/echo', {
    schema: {
      body: Type.Object({
        title: Type.String({ maxLength: 20 }),
        count: Type.Optional(Type.Integer({ minimum: 1 })),
        kind: Type.Optional(Type.Union([Type.Literal('food'), Type.Literal('drink')])),
        nested: Type.Optional(Type.Object({ items: Type.Array(Type.String()) })),
        extra: Type.Optional(Type.Unknown())
      })
    }
  }, async request => request.body)
  app.get('/test/query', {
    schema: { querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 50, default: 12 }) }) }
  }, async request => request.query)
  app.post('/test/user', async request => {
    const { email, username } = request.body as { email: string, username: string }
    const [row] = await app.db`insert into users (id, email, username, username_key, password)
      values (${createId()}, ${email}, ${username}, ${username.toLowerCase()}, 'x') returning id`
    return row
  })
  app.get('/test/bad-cast', async () => await app.db`select ${'not-a-number'}::integer as n`)
  // Other members of SQLSTATE class 22 (data exception): 22012 division by zero, 22023 invalid parameter value.
  app.get('/test/division', async () => await app.db`select 1 / ${0}::integer as n`)
  app.get('/test/bad-zone', async () => await app.db`select now() at time zone ${'Nowhere/Atlantis'} as t`)
  app.get('/test/boom', async () => { throw new Error('connection to 10.0.0.5 failed: select * from secrets') })
  app.get('/test/sql-error', async () => await app.db`select * from no_such_table_here`)
  app.get('/test/missing-ref', async () => await app.db`insert into recipes (id, author_id, slug, title) values ('r1', 'nobody', 's', 't')`)
  app.get('/test/items/:id/parts/:partId', {
    schema: { params: Type.Object({ id: Id, partId: Id }) }
  }, async request => request.params)
  app.get('/test/locked', async () => { throw accountLocked(600) })
  app.get('/test/forbidden', async () => { throw new HttpError(403, 'Not your recipe') })
  // An error from another library that carries a client status keeps its message.
  app.get('/test/not-found', async () => { throw Object.assign(new Error('Recipe not found'), { statusCode: 404 }) })
  app.get('/test/unavailable', async () => { throw new HttpError(503, 'AI provider not configured') })
  app.post('/test/envelope', {
    config: { envelope: true },
    schema: { body: Type.Object({ url: Type.String({ format: 'uri' }) }) }
  }, async () => { throw new HttpError(400, 'URL not allowed') })
}

t.test('error bodies', async t => {
  const app = await build(t, { extend: errorRoutes })

  t.test('validation failure: 400 with one detail per field', async t => {
    const res = await app.inject({ method: 'POST', url: '/test/echo', payload: { title: 'x'.repeat(21), count: 0, kind: 'cake' } })
    expectValidationError(t, res, 'title')
    const { details } = json(res)
    t.ok(details.some((d: string) => d.startsWith('count: ')), 'count listed')
    t.ok(details.includes('kind: must be one of food, drink'), 'kind listed with its allowed values')
    t.equal(details.length, 3, 'one line per field')
  })

  t.test('missing required field names the field', async t => {
    const res = await app.inject({ method: 'POST', url: '/test/echo', payload: {} })
    t.same(json(res), { error: 'Validation error', details: ['title: is required'] })
  })

  t.test('nested paths are readable', async t => {
    const res = await app.inject({ method: 'POST', url: '/test/echo', payload: { title: 'a', nested: { items: ['ok', { not: 'a string' }] } } })
    expectValidationError(t, res, 'nested.items[1]')
  })

  t.test('query validation', async t => {
    expectValidationError(t, await app.inject('/test/query?limit=51'), 'limit')
    expectValidationError(t, await app.inject('/test/query?limit=abc'), 'limit')
    t.same(json(await app.inject('/test/query')), { limit: 12 }, 'default applied')
  })

  t.test('unknown fields are dropped, not stored or echoed', async t => {
    const res = await app.inject({ method: 'POST', url: '/test/echo', payload: { title: 'a', authorId: 'someone', likeCount: 99 } })
    t.equal(res.statusCode, 200)
    t.same(json(res), { title: 'a' })
  })

  t.test('malformed JSON: 400 validation error', async t => {
    const res = await app.inject({ method: 'POST', url: '/test/echo', headers: { 'content-type': 'application/json' }, payload: '{"title": "a",' })
    t.equal(res.statusCode, 400)
    t.same(json(res), { error: 'Validation error', details: ['body: malformed JSON'] })
  })

  t.test('empty JSON body: 400', async t => {
    const res = await app.inject({ method: 'POST', url: '/test/echo', headers: { 'content-type': 'application/json' }, payload: '' })
    t.equal(res.statusCode, 400)
    t.equal(json(res).error, 'Validation error')
  })

  t.test('wrong content type: 415', async t => {
    const res = await app.inject({ method: 'POST', url: '/test/echo', headers: { 'content-type': 'application/xml' }, payload: '<title>a</title>' })
    t.equal(res.statusCode, 415)
    t.same(json(res), { error: 'Unsupported media type' })
  })

  t.test('body over 1 MB: 413', async t => {
    const payload = JSON.stringify({ title: 'a', extra: 'x'.repeat(1024 * 1024) })
    const res = await app.inject({ method: 'POST', url: '/test/echo', headers: { 'content-type': 'application/json' }, payload })
    t.equal(res.statusCode, 413)
    t.same(json(res), { error: 'Payload too large' })
  })

  t.test('exactly 1 MB is accepted, 1 MB + 1 is not', async t => {
    const base = JSON.stringify({ title: 'a', extra: '' })
    const exact = JSON.stringify({ title: 'a', extra: 'x'.repeat(1024 * 1024 - base.length) })
    t.equal(Buffer.byteLength(exact), 1024 * 1024)
    const ok = await app.inject({ method: 'POST', url: '/test/echo', headers: { 'content-type': 'application/json' }, payload: exact })
    t.equal(ok.statusCode, 200)
    const over = await app.inject({ method: 'POST', url: '/test/echo', headers: { 'content-type': 'application/json' }, payload: exact.replace('"a"', '"ab"') })
    t.equal(over.statusCode, 413)
  })

  t.test('NUL bytes and lone surrogates: 400, never a database error', async t => {
    expectValidationError(t, await app.inject({ method: 'POST', url: '/test/echo', payload: { title: 'a\u0000b' } }), 'title')
    expectValidationError(t, await app.inject({
      method: 'POST', url: '/test/echo', headers: { 'content-type': 'application/json' }, payload: '{"title":"a\\ud800"}'
    }), 'title')
    expectValidationError(t, await app.inject({ method: 'POST', url: '/test/echo', payload: { title: 'a', extra: { 'k\u0000': 1 } } }), 'extra')
    expectValidationError(t, await app.inject('/test/query?limit=5&q=%00'), 'query.q')
    const user = await app.inject({ method: 'POST', url: '/test/user', payload: { email: 'n\u0000@x.io', username: 'nul' } })
    t.equal(user.statusCode, 400, 'rejected before reaching PostgreSQL')
  })

  t.test('prototype pollution keys are removed, nothing is polluted', async t => {
    const payload = '{"title":"a","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"extra":{"__proto__":{"polluted":true}}}'
    const res = await app.inject({ method: 'POST', url: '/test/echo', headers: { 'content-type': 'application/json' }, payload })
    t.equal(res.statusCode, 200)
    t.equal(json(res).title, 'a')
    t.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype untouched')
    t.notMatch(res.body, /polluted/)
  })

  t.test('unique violation: 409', async t => {
    const payload = { email: 'dup@example.com', username: 'dup' }
    t.equal((await app.inject({ method: 'POST', url: '/test/user', payload })).statusCode, 200)
    const res = await app.inject({ method: 'POST', url: '/test/user', payload })
    t.equal(res.statusCode, 409)
    t.same(json(res), { error: 'Resource already exists' })
  })

  t.test('foreign key violation: 404, invalid cast: 400', async t => {
    const missing = await app.inject('/test/missing-ref')
    t.equal(missing.statusCode, 404)
    t.same(json(missing), { error: 'Referenced resource not found' })
    const cast = await app.inject('/test/bad-cast')
    t.equal(cast.statusCode, 400)
    t.equal(json(cast).error, 'Validation error')
  })

  t.test('every PostgreSQL data exception (class 22) is a 400 that does not blame the body', async t => {
    for (const url of ['/test/bad-cast', '/test/division', '/test/bad-zone']) {
      const res = await app.inject(url)
      t.equal(res.statusCode, 400, url)
      t.same(json(res), { error: 'Validation error', details: ['request: contains an invalid value'] }, url)
    }
  })

  t.test('a feed cursor with an impossible time zone: 400, not 500 (#12)', async t => {
    const reader = await registerUser(app)
    const author = await registerUser(app)
    t.equal((await app.inject({ method: 'POST', url: `/api/social/users/${author.id}/follow`, headers: bearer(reader) })).statusCode, 200)
    const cursor = Buffer.from(JSON.stringify(['2026-01-01 00:00:00+99', 'x'.repeat(24)])).toString('base64url')
    const res = await app.inject({ url: `/api/feed?cursor=${cursor}`, headers: bearer(reader) })
    t.equal(res.statusCode, 400)
    const body = json(res)
    t.equal(body.error, 'Validation error')
    t.notOk(body.details.some((d: string) => d.startsWith('body')), `a query string is not the body: ${JSON.stringify(body.details)}`)
  })

  t.test('unexpected errors: generic 500, no stack, no SQL', async t => {
    for (const url of ['/test/boom', '/test/sql-error']) {
      const res = await app.inject(url)
      t.equal(res.statusCode, 500, url)
      t.same(json(res), { error: 'Internal server error' }, url)
      t.notMatch(res.body, /select|secrets|no_such_table|10\.0\.0\.5|at .*\.ts/i, url)
    }
  })

  t.test('deliberate errors keep their status and message', async t => {
    const locked = await app.inject('/test/locked')
    t.equal(locked.statusCode, 423)
    t.same(json(locked), { error: 'Account temporarily locked', retryAfter: 600 })
    t.equal(locked.headers['retry-after'], '600')
    t.same(json(await app.inject('/test/forbidden')), { error: 'Not your recipe' })
    const notFound = await app.inject('/test/not-found')
    t.equal(notFound.statusCode, 404)
    t.same(json(notFound), { error: 'Recipe not found' })
    const unavailable = await app.inject('/test/unavailable')
    t.equal(unavailable.statusCode, 503)
    t.same(json(unavailable), { error: 'AI provider not configured' })
  })

  t.test('import and AI routes use the success/error/details envelope', async t => {
    const invalid = await app.inject({ method: 'POST', url: '/test/envelope', payload: { url: 'not a url' } })
    t.equal(invalid.statusCode, 400)
    t.same(json(invalid), { success: false, error: 'Validation error', details: ['url: must match format "uri"'] })
    const refused = await app.inject({ method: 'POST', url: '/test/envelope', payload: { url: 'http://169.254.169.254/' } })
    t.same(json(refused), { success: false, error: 'URL not allowed', details: [] })
  })

  t.test('unknown routes: JSON 404', async t => {
    for (const url of ['/nope', '/api/nope', '/api/recipes/../../etc/passwd']) {
      const res = await app.inject(url)
      t.equal(res.statusCode, 404, url)
      t.same(json(res), { error: 'Not found' }, url)
      t.match(res.headers['content-type'], /application\/json/)
    }
  })

  t.test('malformed path ids: 404 Not found, like unknown ones (#19)', async t => {
    const unknown = await app.inject(`/api/recipes/${'a'.repeat(24)}`)
    t.equal(unknown.statusCode, 404)
    for (const id of ['a'.repeat(65), 'a'.repeat(600), 'a'.repeat(5000)]) {
      const res = await app.inject(`/api/recipes/${id}`)
      t.equal(res.statusCode, 404, `${id.length}-character id`)
      t.same(json(res), { error: 'Not found' }, `${id.length}-character id`)
      t.match(res.headers['content-type'], /application\/json/)
    }
    const nested = await app.inject(`/test/items/${'a'.repeat(24)}/parts/${'b'.repeat(65)}`)
    t.equal(nested.statusCode, 404, 'any path parameter, not only the first')
    t.same(json(nested), { error: 'Not found' })
    const ok = await app.inject(`/test/items/${'a'.repeat(24)}/parts/${'b'.repeat(24)}`)
    t.equal(ok.statusCode, 200, 'valid parameters pass')
  })

  t.test('framework errors use our body shape (#19)', async t => {
    const badUrl = await app.inject('/api/recipes/%ED%A0%80')
    t.equal(badUrl.statusCode, 400)
    t.same(json(badUrl), { error: 'Validation error', details: ['path: is not a valid URL'] })
    t.match(badUrl.headers['content-type'], /application\/json/)
  })

  t.test('a page far beyond any list: 400 naming page (#19)', async t => {
    for (const page of ['1e20', '10001']) {
      const res = await app.inject(`/api/recipes?page=${page}`)
      expectValidationError(t, res, 'page')
      t.same(Object.keys(json(res)).sort(), ['details', 'error'])
    }
    t.equal((await app.inject('/api/recipes?page=10000')).statusCode, 200, 'the deepest page allowed')
  })

  t.test('unsupported method on a known path: JSON 404', async t => {
    const res = await app.inject({ method: 'DELETE', url: '/healthz' })
    t.equal(res.statusCode, 404)
    t.same(json(res), { error: 'Not found' })
  })
})

/** A raw request over a real socket: inject does not go through Node's HTTP parser and its limits. */
async function rawRequest (app: FastifyInstance, headers: Record<string, string>): Promise<{ status: number, headers: Record<string, unknown>, body: string }> {
  const { port } = app.server.address() as AddressInfo
  return await new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/api/recipes', headers, agent: false }, res => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', chunk => { body += chunk })
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

t.test('oversized headers over a real socket: 431 with our body (#19)', async t => {
  const app = await build(t)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const res = await rawRequest(app, { 'x-padding': 'x'.repeat(20 * 1024) })
  t.equal(res.status, 431)
  t.match(res.headers['content-type'], /application\/json/)
  t.same(JSON.parse(res.body), { error: 'Request header fields too large' })
  const ok = await rawRequest(app, { 'x-padding': 'x'.repeat(1024) })
  t.equal(ok.status, 200, 'the server still answers normal requests')
})
