import t from 'tap'
import { redactLogFields } from '../../lib/redact.js'

t.test('log fields: secrets replaced at any depth, everything else kept as it was', async t => {
  const line = { method: 'GET', url: '/api/recipes', statusCode: 200, responseTime: 1.2 }
  t.equal(redactLogFields(line), line, 'a line without secrets is not copied')

  const err = Object.assign(new Error('listen failed'), { code: 'EADDRINUSE' })
  const fields = {
    password: 'p1',
    code: '123456',
    body: { code: '654321', title: 'visible', nested: { newPassword: 'p2', token: 't1' } },
    req: { headers: { authorization: 'Bearer x', cookie: 'auth_token=y', 'x-admin-token': 'z', accept: 'json' } },
    res: { headers: { 'set-cookie': 'auth_token=w' } },
    items: [{ secret: 's1', name: 'kept' }, 'plain'],
    user: { id: 'u1', code: 'not-a-one-time-code' },
    err
  }
  const redacted = redactLogFields(fields)
  t.same(redacted, {
    password: '[redacted]',
    code: '[redacted]',
    body: { code: '[redacted]', title: 'visible', nested: { newPassword: '[redacted]', token: '[redacted]' } },
    req: { headers: { authorization: '[redacted]', cookie: '[redacted]', 'x-admin-token': '[redacted]', accept: 'json' } },
    res: { headers: { 'set-cookie': '[redacted]' } },
    items: [{ secret: '[redacted]', name: 'kept' }, 'plain'],
    user: { id: 'u1', code: 'not-a-one-time-code' },
    err
  })
  t.equal(redacted.err, err, 'errors are left to their serializer')
  t.equal(err.code, 'EADDRINUSE')
  t.equal(fields.password, 'p1', 'the logged object itself is not changed')
  t.equal(fields.body.nested.token, 't1')
  t.equal(redacted.user, fields.user, 'objects without secrets are shared, not copied')
})
