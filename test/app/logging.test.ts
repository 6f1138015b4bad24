import { Writable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { pino } from 'pino'
import t from 'tap'
import { loggerOptions } from '../../server-options.js'
import { build } from '../helper.js'

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

  t.ok(lines.length >= 2, 'request logged')
  for (const line of lines) JSON.parse(line) // every line is JSON
  const all = lines.join('\n')
  for (const secret of ['hunter2-top', 'nested-pass', 'nested-token', 'query-token-123', 'query-code-456', 'header-token-789', 'cookie-token-000', 'body-code-111']) {
    t.notMatch(all, secret, `${secret} not logged`)
  }
  t.match(all, /page=2/, 'harmless query parameters stay')
  t.match(all, /visible/, 'harmless fields stay')
  t.match(all, /\[redacted\]/)
})
