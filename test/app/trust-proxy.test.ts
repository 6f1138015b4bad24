import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { build, json } from '../helper.js'

async function whoami (app: FastifyInstance): Promise<void> {
  app.get('/test/ip', async request => ({ ip: request.ip }))
}

t.test('X-Forwarded-For is honoured from one trusted proxy hop only', async t => {
  const app = await build(t, { extend: whoami })
  const ip = async (remoteAddress: string, xff?: string) =>
    json(await app.inject({ url: '/test/ip', remoteAddress, headers: xff == null ? {} : { 'x-forwarded-for': xff } })).ip

  t.equal(await ip('127.0.0.1', '203.0.113.9'), '203.0.113.9', 'loopback proxy is trusted')
  t.equal(await ip('10.0.0.4', '203.0.113.9'), '203.0.113.9', 'private-network proxy is trusted')
  t.equal(await ip('203.0.113.50', '1.2.3.4'), '203.0.113.50', 'a public client cannot spoof its address')
  t.equal(await ip('127.0.0.1', '1.2.3.4, 203.0.113.9'), '203.0.113.9', 'only the hop the proxy added counts')
  t.equal(await ip('127.0.0.1'), '127.0.0.1', 'no header: the peer address')
})

t.test('TRUST_PROXY=false ignores the header', async t => {
  const app = await build(t, { env: { TRUST_PROXY: 'false' }, extend: whoami })
  const res = await app.inject({ url: '/test/ip', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.9' } })
  t.equal(json(res).ip, '127.0.0.1')
})

t.test('TRUST_PROXY takes CIDR lists', async t => {
  const app = await build(t, { env: { TRUST_PROXY: '198.51.100.0/24' }, extend: whoami })
  const from = async (remoteAddress: string) =>
    json(await app.inject({ url: '/test/ip', remoteAddress, headers: { 'x-forwarded-for': '203.0.113.9' } })).ip
  t.equal(await from('198.51.100.20'), '203.0.113.9')
  t.equal(await from('127.0.0.1'), '127.0.0.1', 'loopback no longer trusted')
})
