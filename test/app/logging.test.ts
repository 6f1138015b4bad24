import { Writable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { pino } from 'pino'
import { prettyFactory, type PrettyOptions } from 'pino-pretty'
import t from 'tap'
import { loggerOptions } from '../../server-options.js'
import { build, json, PUBLIC_IP } from '../helper.js'

t.test('logs are JSON with secrets redacted', async t => {
  const lines: string[] = []
  const stream = new Writable({ write (chunk, _enc, cb) { lines.push(...String(chunk).split('\n').filter(Boolean)); cb() } })
  const logger = pino(loggerOptions({ logLevel: 'info' }, false) as object, stream)

  const app = await build(t, {
    server: { loggerInstance: logger },
    extend: (app: FastifyInstance) => {
      app.post('/test/log', async request => {
        request.log.info({ body: request.body, password: 'hunter2-top', user: { password: 'nested-pass', token: 'nested-token' } }, 'handled')
        return { ok: true }
      })
    }
  })

  await app.inject({
    method: 'POST',
    url: '/test/log?token=query-token-123&code=query-code-456&page=2',
    headers: { authorization: 'Bearer header-token-789', cookie: 'auth_token=cookie-token-000' },
    payload: { code: 'body-code-111', title: 'visible' }
  })

  const entries = lines.map(line => JSON.parse(line)) // every line is JSON
  const requestLines = entries.filter(entry => entry.responseTime != null)
  t.equal(requestLines.length, 1, 'one line per request')
  t.match(requestLines[0], {
    level: 30,
    method: 'POST',
    url: '/test/log?token=[redacted]&code=[redacted]&page=2',
    statusCode: 200,
    responseTime: Number,
    reqId: String,
    msg: /^POST \/test\/log\?token=\[redacted\]&code=\[redacted\]&page=2 200 [\d.]+ms$/
  })
  t.notOk(entries.some(entry => /^(incoming request|request completed)$/.test(entry.msg)), 'no Fastify request pair')
  const all = lines.join('\n')
  for (const secret of ['hunter2-top', 'nested-pass', 'nested-token', 'query-token-123', 'query-code-456', 'header-token-789', 'cookie-token-000', 'body-code-111']) {
    t.notMatch(all, secret, `${secret} not logged`)
  }
  t.match(all, /page=2/, 'harmless query parameters stay')
  t.match(all, /visible/, 'harmless fields stay')
  t.match(all, /\[redacted\]/)
})

t.test('an error is logged without the objects a library hangs on it (a database client)', async t => {
  const lines: string[] = []
  const stream = new Writable({ write (chunk, _enc, cb) { lines.push(...String(chunk).split('\n').filter(Boolean)); cb() } })
  const logger = pino(loggerOptions({ logLevel: 'info' }, false) as object, stream)
  class Client { connectionParameters = { host: '127.0.0.1', password: 'client-secret-42' }; queue = Array.from({ length: 50 }, (_, i) => ({ i })) }
  const err = Object.assign(new Error('terminating connection due to administrator command'), {
    code: '57P01', severity: 'FATAL', client: new Client(), detail: { table: 'jobs' }, cause: new Error('socket closed')
  })
  logger.error({ err }, 'job queue error')
  const [line] = lines.map(text => JSON.parse(text))
  t.match(line.err, { type: 'Error', message: /administrator command/, code: '57P01', severity: 'FATAL', detail: { table: 'jobs' } }, 'the error\'s own fields stay')
  t.match(line.err.message, /administrator command: socket closed$/, 'with its cause')
  t.notOk('client' in line.err, 'the client object is left out')
  t.notMatch(lines.join('\n'), /client-secret-42|connectionParameters/)
})

t.test('on a terminal (pino-pretty) a request is one line', async t => {
  const { transport } = loggerOptions({ logLevel: 'info' }, true) as { transport: { target: string, options: PrettyOptions } }
  t.equal(transport.target, 'pino-pretty')
  const pretty = prettyFactory({ ...transport.options, colorize: false })
  const line = { level: 30, time: 0, pid: 1, hostname: 'h', instance: 'bff', reqId: 'r-1', method: 'GET', url: '/bff/api/x' }
  const out = pretty({ ...line, statusCode: 200, responseTime: 1.5, remoteAddress: '127.0.0.1', msg: 'GET /bff/api/x 200 1.5ms' })
  t.match(out, /^\[[\d:.]+\] INFO: \[bff\] GET \/bff\/api\/x 200 1\.5ms\n$/)
})

t.test('X-Request-Id is taken only from a trusted proxy, and only when well-formed (#21)', async t => {
  const lines: string[] = []
  const stream = new Writable({ write (chunk, _enc, cb) { lines.push(...String(chunk).split('\n').filter(Boolean)); cb() } })
  const logger = pino(loggerOptions({ logLevel: 'info' }, false) as object, stream)
  const app = await build(t, {
    server: { loggerInstance: logger },
    extend: (app: FastifyInstance) => { app.get('/test/request-id', async request => ({ id: request.id })) }
  })
  const idFrom = async (remoteAddress: string, requestId?: string) => json(await app.inject({
    url: '/test/request-id', remoteAddress, headers: requestId == null ? {} : { 'x-request-id': requestId }
  })).id as string
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

  t.equal(await idFrom('127.0.0.1', 'bff-1234.abcd:ef_9'), 'bff-1234.abcd:ef_9', 'the web proxy on loopback passes its id on')
  t.equal(await idFrom('10.0.0.4', 'lb-42'), 'lb-42', 'a private-network proxy is trusted too')

  const forged = await idFrom(PUBLIC_IP, 'admin-audit-0001')
  t.not(forged, 'admin-audit-0001', 'a client connecting directly cannot choose its id')
  t.match(forged, UUID)
  for (const bad of ['has space', 'x'.repeat(129), 'a"b', '{"level":60}', '']) {
    t.match(await idFrom('127.0.0.1', bad), UUID, `malformed id ${JSON.stringify(bad.slice(0, 20))} replaced`)
  }
  t.match(await idFrom('127.0.0.1'), UUID, 'no header: generated')
  t.not(await idFrom(PUBLIC_IP), await idFrom(PUBLIC_IP), 'generated ids differ')

  t.notOk(lines.some(line => line.includes('admin-audit-0001')), 'the forged id is in no log line')
  t.ok(lines.some(line => JSON.parse(line).reqId === 'bff-1234.abcd:ef_9'), 'the proxied id is in the log lines')
})

t.test('with TRUST_PROXY=false no peer may set the request id', async t => {
  const app = await build(t, {
    env: { TRUST_PROXY: 'false' },
    extend: (app: FastifyInstance) => { app.get('/test/request-id', async request => ({ id: request.id })) }
  })
  const res = await app.inject({ url: '/test/request-id', remoteAddress: '127.0.0.1', headers: { 'x-request-id': 'from-loopback' } })
  t.not(json(res).id, 'from-loopback')
})
