// The SSRF-safe fetcher of the recipe import (decisions.md "URL safety"). Nothing here reaches the internet: refusals
// happen before any connection, and every connection goes to a local server through an injected resolver (its exact
// origin allowed, which admits loopback for that origin only).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import tls from 'node:tls'
import zlib from 'node:zlib'
import t, { type Test } from 'tap'
import { checkUrl, FetchFailed, isPublicAddress, safeFetch, type SafeFetchOptions, UrlNotAllowed } from '../../lib/recipe-import/safe-fetch.js'
import { freePort } from '../helpers/net.js'

type Handler = (req: IncomingMessage, res: ServerResponse) => void

interface Local { port: number, close: () => Promise<void> }

/** An HTTP server on `host` (port 0 or the one given); close() also ends open connections (slow drips). */
async function serve (handler: Handler, host = '127.0.0.1', port = 0): Promise<Local> {
  const server: Server = createServer(handler)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => { resolve() })
  })
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>(resolve => server.close(() => { resolve() }))
    }
  }
}

/** A resolver from a fixed table that counts its calls per name. */
function table (entries: Record<string, string | string[]>) {
  const calls: string[] = []
  const lookup = async (hostname: string) => {
    calls.push(hostname)
    const answer = entries[hostname]
    if (answer == null) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    return (Array.isArray(answer) ? answer : [answer]).map(address => ({ address, family: (address.includes(':') ? 6 : 4) as 4 | 6 }))
  }
  return { lookup, calls }
}

const html = (body: string, status = 200, extra: Record<string, string> = {}): Handler => (_req, res) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...extra })
  res.end(body)
}

async function rejectsWith (t: Test, promise: Promise<unknown>, type: typeof UrlNotAllowed | typeof FetchFailed,
  message: RegExp | null, label: string): Promise<unknown> {
  try {
    await promise
    t.fail(`${label}: expected ${type.name}`)
    return null
  } catch (error) {
    t.ok(error instanceof type, `${label}: ${type.name} (${String(error)})`)
    if (message != null) t.match((error as Error).message, message, `${label}: message`)
    return error
  }
}

const PRIVATE_URLS = [
  'http://127.0.0.1/',
  'http://127.0.0.2/',
  'http://127.255.255.254/',
  'http://localhost/',
  'http://LOCALHOST./',
  'http://app.localhost/',
  'http://[::1]/',
  'http://[::]/',
  'http://[::ffff:7f00:1]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:a9fe:a9fe]/',
  'http://[::7f00:1]/',
  'http://[fd00:ec2::254]/',
  'http://[fe80::1]/',
  'http://[ff02::1]/',
  'http://169.254.169.254/latest/meta-data/',
  'http://100.100.100.200/',
  'http://100.64.0.1/',
  'http://10.0.0.1/',
  'http://10.255.255.255/',
  'http://172.16.0.1/',
  'http://172.31.255.254/',
  'http://192.168.0.1/',
  'http://0.0.0.0/',
  'http://0/',
  'http://255.255.255.255/',
  'http://224.0.0.1/',
  'http://240.0.0.1/',
  'http://192.0.2.1/',
  'http://198.18.0.1/',
  'http://2130706433/',
  'http://0x7f.1/',
  'http://0x7f000001/',
  'http://017700000001/',
  'http://0177.0.0.1/',
  'http://127.1/',
  'http://0xa9.0xfe.0xa9.0xfe/',
  'http://2852039166/',
  'http://[64:ff9b::7f00:1]/',
  'http://[64:ff9b::a9fe:a9fe]/',
  'http://[64:ff9b::10.0.0.1]/',
  'http://[64:ff9b:1::808:808]/',
  'http://[2002:7f00:1::1]/',
  'http://[2002:a9fe:a9fe::1]/',
  'http://[2002:c0a8:1::1]/',
  'http://[2001:0:7f00:1::808:808]/',
  'http://[2001:db8::1]/'
]

const BAD_FORMS = [
  'file:///etc/passwd',
  'gopher://example.com:70/_GET',
  'ftp://example.com/recipe.html',
  'data:text/html,<h1>hi</h1>',
  'javascript:alert(1)',
  'ws://example.com/',
  'http://user:pass@example.com/',
  'http://user@example.com/',
  'https://:pass@example.com/',
  'http://example.com:8080/',
  'https://example.com:8443/',
  'http://example.com:22/',
  'not a url',
  '/relative/path'
]

t.test('isPublicAddress: public unicast only, after unwrapping', async t => {
  for (const address of [
    '8.8.8.8', '1.1.1.1', '93.184.216.34', '100.63.255.255', '100.128.0.1', '172.15.255.255', '172.32.0.1',
    '169.253.255.255', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '[2606:4700:4700::1111]',
    '::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::8.8.8.8', '2002:808:808::1',
    '2001:0:808:808:0:0:f7f7:fbfb' // Teredo, server 8.8.8.8, client 8.8.4.4
  ]) t.ok(isPublicAddress(address), `${address} is public`)
  for (const address of [
    '127.0.0.1', '127.0.0.2', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254',
    '100.100.100.200', '100.64.0.1', '0.0.0.0', '0.1.2.3', '255.255.255.255', '224.0.0.1', '239.255.255.250',
    '240.0.0.1', '192.0.0.1', '192.0.2.1', '198.18.0.1', '198.51.100.1', '203.0.113.1',
    '::1', '::', '[::1]', '::ffff:7f00:1', '::ffff:127.0.0.1', '::ffff:169.254.169.254', '::ffff:0:7f00:1',
    '::7f00:1', '::127.0.0.1', 'fd00:ec2::254', 'fc00::1', 'fe80::1', 'fe80::1%eth0', 'fec0::1', 'ff02::1', '100::1',
    '64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe', '64:ff9b::10.0.0.1', '64:ff9b:1::808:808',
    '2002:7f00:1::1', '2002:a9fe:a9fe::1', '2002:a00:1::1',
    '2001:0:7f00:1::f7f7:fbfb', // Teredo with a loopback server
    '2001:0:808:808::f5ff:fffe', // Teredo with client 10.0.0.1
    '2001:db8::1', '3fff::1', '5f00::1', '4000::1',
    '2130706433', '0x7f.1', '0x7f000001', '017700000001', '0177.0.0.1', '127.1', '010.0.0.1', '08.8.8.8', '1.2.3',
    '', ' 8.8.8.8', '8.8.8.8 ', 'localhost', 'example.com', '::ffff:0x7f.0.0.1', '2606:4700:4700::1111%1'
  ]) t.notOk(isPublicAddress(address), `${address} is not public`)
})

t.test('checkUrl: scheme, credentials, port and literal addresses (no DNS)', async t => {
  for (const url of [...PRIVATE_URLS, ...BAD_FORMS]) {
    t.throws(() => checkUrl(url), UrlNotAllowed, url)
  }
  t.equal(checkUrl('https://example.com/r?id=1').href, 'https://example.com/r?id=1')
  t.equal(checkUrl('http://example.com:80/').href, 'http://example.com/', 'default port written out')
  t.equal(checkUrl('https://example.com:443/').href, 'https://example.com/')
  t.ok(checkUrl('http://example.com:443/'), 'port 443 with http')
  t.ok(checkUrl('http://8.8.8.8/'), 'a public address literal')
  t.ok(checkUrl('http://[2606:4700:4700::1111]/'), 'a public IPv6 literal')
  t.ok(checkUrl('https://recipes.example.com./x'), 'a fully qualified name (the address is checked after DNS)')

  // Origins allowed (tests): exactly those, each with its port and loopback.
  const refusedAddresses = [
    'http://169.254.169.254/', 'http://[fd00:ec2::254]/', 'http://10.0.0.1:8080/', 'http://192.168.0.1/',
    'http://100.100.100.200/', 'http://0.0.0.0:8080/', 'http://[::]:8080/', 'http://[64:ff9b::7f00:1]/'
  ]
  const allowed = ['http://127.0.0.1:8080', 'http://127.0.0.2:1/', 'http://[::1]:3000', 'http://[::ffff:127.0.0.1]:3000',
    'http://localhost:3000', 'http://example.com:8080', 'https://127.0.0.1:8443', ...refusedAddresses]
  for (const url of ['http://127.0.0.1:8080/', 'http://127.0.0.2:1/x', 'http://[::1]:3000/', 'http://[::ffff:127.0.0.1]:3000/',
    'http://localhost:3000/', 'http://example.com:8080/', 'https://127.0.0.1:8443/',
    'http://127.1:8080/' // parsed as 127.0.0.1
  ]) {
    t.ok(checkUrl(url, allowed), `${url} allowed`)
  }
  for (const url of [
    ...refusedAddresses, 'file:///etc/passwd', 'http://user:pass@127.0.0.1:8080/',
    'http://127.0.0.1:8081/', 'http://127.0.0.1/', 'https://127.0.0.1:8080/', 'http://127.0.0.3:8080/',
    'http://localhost:8080/', 'http://localhost.:3000/', 'http://[::1]:8080/', 'http://localhost:3001/', 'http://example.com:8081/'
  ]) t.throws(() => checkUrl(url, allowed), UrlNotAllowed, `${url}: not an allowed origin, or a private address whatever the setting`)
  t.throws(() => checkUrl('http://127.0.0.1:8080/', ['http://127.0.0.1:8080/path', 'http://*:8080', '127.0.0.1:8080']), UrlNotAllowed,
    'entries that are not exactly an origin allow nothing')
})

t.test('safeFetch refuses before connecting or resolving', async t => {
  const { lookup, calls } = table({})
  for (const url of [...PRIVATE_URLS, ...BAD_FORMS]) {
    await rejectsWith(t, safeFetch(url, { lookup }), UrlNotAllowed, null, url)
  }
  t.same(calls, [], 'no name was resolved for a refused URL')
})

t.test('every resolved address must be public', async t => {
  const { lookup, calls } = table({
    'loopback.test': '127.0.0.1',
    'mixed.test': ['93.184.216.34', '10.0.0.1'],
    'mixed-first.test': ['192.168.1.1', '93.184.216.34'],
    'v6-mixed.test': ['2606:4700:4700::1111', 'fd00:ec2::254'],
    'mapped.test': '::ffff:127.0.0.1',
    'nat64.test': '64:ff9b::a9fe:a9fe',
    'metadata.test': '169.254.169.254',
    'alibaba.test': '100.100.100.200',
    'zero.test': '0.0.0.0',
    'garbage.test': '2130706433'
  })
  for (const name of ['loopback', 'mixed', 'mixed-first', 'v6-mixed', 'mapped', 'nat64', 'metadata', 'alibaba', 'zero', 'garbage']) {
    await rejectsWith(t, safeFetch(`https://${name}.test/recipe`, { lookup }), UrlNotAllowed, /resolves to/, name)
  }
  t.equal(calls.length, 10, 'one lookup each')
  // For an allowed origin, only loopback answers pass.
  for (const name of ['mixed', 'v6-mixed', 'nat64', 'metadata', 'alibaba', 'zero']) {
    await rejectsWith(t, safeFetch(`http://${name}.test:8080/`, { lookup, allowOrigins: [`http://${name}.test:8080`] }), UrlNotAllowed,
      /resolves to/, `${name}, its origin allowed`)
  }
  await rejectsWith(t, safeFetch('http://loopback.test:8080/', { lookup, allowOrigins: ['http://loopback.test:8081'] }), UrlNotAllowed,
    /port 8080/, 'loopback by name, but not the allowed origin')
  // The system resolver: localhost resolves to loopback.
  await rejectsWith(t, safeFetch('http://localhost/'), UrlNotAllowed, null, 'localhost (refused by name before it resolves to loopback)')
  await rejectsWith(t, safeFetch('http://nowhere.test/', { lookup }), FetchFailed, /could not resolve/, 'unknown name')
  await rejectsWith(t, safeFetch('http://empty.test/', { lookup: async () => [] }), FetchFailed, /could not resolve/, 'no address')
})

t.test('fetches from the checked address, with the name as Host', async t => {
  let seen: IncomingMessage | undefined
  const server = await serve((req, res) => {
    seen = req
    html('<h1>Pancakes</h1>')(req, res)
  })
  t.teardown(server.close)
  const { lookup, calls } = table({ 'recipes.test': '127.0.0.1' })
  const response = await safeFetch(`http://recipes.test:${server.port}/r/1?x=2`, {
    lookup,
    allowOrigins: [`http://recipes.test:${server.port}`],
    headers: { Host: 'internal.example', Cookie: 'session=1', Authorization: 'Bearer x', Referer: 'http://recipes.test/', 'Accept-Language': 'fr' }
  })
  t.equal(response.status, 200)
  t.equal(response.url, `http://recipes.test:${server.port}/r/1?x=2`)
  t.equal(response.contentType, 'text/html')
  t.equal(response.headers['content-type'], 'text/html; charset=utf-8')
  t.equal(response.body.toString(), '<h1>Pancakes</h1>')
  t.same(calls, ['recipes.test'])
  t.equal(seen?.url, '/r/1?x=2')
  t.equal(seen?.headers.host, `recipes.test:${server.port}`, 'Host is the name, not the address')
  t.match(seen?.headers['user-agent'], /RecipePlatformImporter/)
  t.match(seen?.headers.accept, /text\/html/)
  t.equal(seen?.headers['accept-encoding'], 'gzip, deflate, br')
  t.equal(seen?.headers.referer, 'http://recipes.test/', 'extra headers are sent')
  t.equal(seen?.headers['accept-language'], 'fr')
  t.notOk(seen?.headers.cookie, 'never a cookie')
  t.notOk(seen?.headers.authorization, 'never credentials')

  // The system resolver path, the origin allowed (loopback).
  const v6 = await serve(html('<p>v6</p>'), '::1', server.port).catch(() => null)
  if (v6 != null) t.teardown(v6.close)
  const viaLocalhost = await safeFetch(`http://localhost:${server.port}/`, { allowOrigins: [`http://localhost:${server.port}`] })
  t.match(viaLocalhost.body.toString(), /Pancakes|v6/, 'localhost through dns.lookup')

  const literal = await safeFetch(`http://127.0.0.1:${server.port}/`, { lookup, allowOrigins: [`http://127.0.0.1:${server.port}`] })
  t.equal(literal.status, 200, 'an address literal')
  t.equal(calls.length, 1, 'an address literal is not resolved')
})

t.test('the connection goes to the address of the one lookup per hop (DNS rebinding)', async t => {
  const first = await serve(html('first'), '127.0.0.1')
  t.teardown(first.close)
  const second = await serve(html('second'), '127.0.0.2', first.port)
  t.teardown(second.close)
  // A rebinding resolver: the checked answer first, something else on any later call.
  let calls = 0
  const rebinding = (later: string) => async () => {
    calls++
    return [{ address: calls === 1 ? '127.0.0.1' : later, family: 4 as const }]
  }
  for (const later of ['127.0.0.2', '169.254.169.254', '10.0.0.1']) {
    calls = 0
    const response = await safeFetch(`http://rebind.test:${first.port}/`, { lookup: rebinding(later), allowOrigins: [`http://rebind.test:${first.port}`] })
    t.equal(response.body.toString(), 'first', `connected to the checked address, not ${later}`)
    t.equal(calls, 1, 'resolved once')
  }
  // The name itself resolves nowhere (.test): the only way to connect is the pinned address.
  calls = 0
  const pinnedSecond = async () => { calls++; return [{ address: '127.0.0.2', family: 4 as const }] }
  const response = await safeFetch(`http://rebind.test:${first.port}/`, { lookup: pinnedSecond, allowOrigins: [`http://rebind.test:${first.port}`] })
  t.equal(response.body.toString(), 'second', 'the first answer of the lookup decides the address')

  // One lookup per hop across redirects.
  let hops = 0
  const redirecting = await serve((req, res) => {
    hops++
    if (req.url === '/3') html('done')(req, res)
    else {
      res.writeHead(302, { location: `/${Number(req.url?.slice(1)) + 1}` })
      res.end()
    }
  })
  t.teardown(redirecting.close)
  const { lookup, calls: names } = table({ 'hops.test': '127.0.0.1' })
  const done = await safeFetch(`http://hops.test:${redirecting.port}/0`, { lookup, allowOrigins: [`http://hops.test:${redirecting.port}`] })
  t.equal(done.body.toString(), 'done')
  t.equal(hops, 4)
  t.same(names, ['hops.test', 'hops.test', 'hops.test', 'hops.test'], 'one lookup per hop')
})

t.test('TLS: the server name is the host name, the connection the pinned address', async t => {
  // A TLS server with no certificate: it records the SNI name of each ClientHello, then fails the handshake.
  const names: string[] = []
  const server = tls.createServer({ SNICallback: (name, callback) => { names.push(name); callback(new Error('no certificate')) } })
  server.on('tlsClientError', () => {})
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { server.close() })
  const port = (server.address() as AddressInfo).port
  const { lookup, calls } = table({ 'secure.test': '127.0.0.1' })
  await rejectsWith(t, safeFetch(`https://secure.test:${port}/`, { lookup, allowOrigins: [`https://secure.test:${port}`] }), FetchFailed, /fetch failed/, 'handshake refused')
  t.same(names, ['secure.test'], 'SNI carries the name (the name itself resolves nowhere: the address was pinned)')
  t.same(calls, ['secure.test'])
  await rejectsWith(t, safeFetch(`https://127.0.0.1:${port}/`, { lookup, allowOrigins: [`https://127.0.0.1:${port}`] }), FetchFailed, null, 'an address literal')
  t.same(names, ['secure.test'], 'no SNI for an address')
})

t.test('redirects: relative, limited, and every hop checked', async t => {
  const server = await serve((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    const to = url.searchParams.get('to')
    const n = Number(url.searchParams.get('n') ?? '0')
    if (url.pathname === '/final') { html(`final ${req.headers.host ?? ''}`)(req, res); return }
    if (url.pathname === '/chain') {
      res.writeHead(n > 0 ? 301 : 307, { location: n > 0 ? `/chain?n=${n - 1}` : 'final' })
      res.end()
      return
    }
    if (url.pathname === '/dir/relative') { res.writeHead(303, { location: '../final' }); res.end(); return }
    if (url.pathname === '/nolocation') { res.writeHead(302); res.end(); return }
    res.writeHead(302, { location: to ?? '/final' })
    res.end('moved')
  })
  t.teardown(server.close)
  const base = `http://site.test:${server.port}`
  const { lookup, calls } = table({ 'site.test': '127.0.0.1', 'other.test': '127.0.0.1', 'metadata.test': '169.254.169.254', 'mixed.test': ['127.0.0.1', '10.0.0.1'] })
  const options: SafeFetchOptions = { lookup, allowOrigins: ['site', 'other', 'metadata', 'mixed'].map(name => `http://${name}.test:${server.port}`) }

  const relative = await safeFetch(`${base}/dir/relative`, options)
  t.equal(relative.url, `${base}/final`, 'a relative Location resolves against the current URL')
  t.equal(relative.body.toString(), `final site.test:${server.port}`)

  const other = await safeFetch(`${base}/go?to=${encodeURIComponent(`http://other.test:${server.port}/final`)}`, options)
  t.equal(other.body.toString(), `final other.test:${server.port}`, 'Host follows the hop')

  const five = await safeFetch(`${base}/chain?n=4`, options)
  t.equal(five.url, `${base}/final`, '5 redirects are followed')
  await rejectsWith(t, safeFetch(`${base}/chain?n=5`, options), FetchFailed, /too many redirects/, '6 redirects')
  await rejectsWith(t, safeFetch(`${base}/chain?n=0`, { ...options, maxRedirects: 0 }), FetchFailed, /too many redirects/, 'maxRedirects 0')
  await rejectsWith(t, safeFetch(`${base}/nolocation`, options), FetchFailed, /302/, 'a redirect without Location')

  calls.length = 0
  for (const [to, label] of [
    [`http://metadata.test:${server.port}/latest/meta-data/`, 'a public-looking name resolving to 169.254.169.254'],
    [`http://mixed.test:${server.port}/`, 'a name with one private address'],
    ['http://169.254.169.254/latest/meta-data/', 'the metadata address'],
    ['http://[fd00:ec2::254]/', 'the IPv6 metadata address'],
    ['http://100.100.100.200/', 'CGNAT metadata'],
    ['http://10.0.0.1/', 'a private address'],
    ['http://2852039166/', 'a decimal address'],
    ['file:///etc/passwd', 'file:'],
    ['gopher://site.test/', 'gopher:'],
    [`http://user:pass@site.test:${server.port}/final`, 'credentials'],
    [`http://127.0.0.1:${server.port}/final`, 'the same server, as an origin not allowed'],
    [`https://site.test:${server.port}/final`, 'the allowed host and port with another scheme']
  ]) {
    await rejectsWith(t, safeFetch(`${base}/go?to=${encodeURIComponent(to)}`, options), UrlNotAllowed, null, `redirect to ${label}`)
  }
  t.ok(calls.includes('metadata.test'), 'the hop was resolved and its address refused')
})

t.test('an allowed origin opens that origin only: a redirect to another loopback port is refused before connecting', async t => {
  const reached: string[] = []
  const other = await serve((req, res) => { reached.push(req.url ?? ''); html('secret')(req, res) })
  t.teardown(other.close)
  const site = await serve((_req, res) => { res.writeHead(302, { location: `http://127.0.0.1:${other.port}/secret` }); res.end() })
  t.teardown(site.close)
  const origin = `http://127.0.0.1:${site.port}`
  await rejectsWith(t, safeFetch(`${origin}/go`, { allowOrigins: [origin] }), UrlNotAllowed, new RegExp(`port ${other.port}`),
    'the hop to another port of the same address')
  await rejectsWith(t, safeFetch(`http://127.0.0.1:${other.port}/secret`, { allowOrigins: [origin] }), UrlNotAllowed, null, 'that port directly')
  t.same(reached, [], 'the other port received nothing')
  const both = await safeFetch(`${origin}/go`, { allowOrigins: [origin, `http://127.0.0.1:${other.port}`] })
  t.equal(both.body.toString(), 'secret', 'each hop is judged by its own origin: with both allowed, the redirect is followed')
})

// The deadline is checked by what ends each fetch, not by a clock: the error names the deadline that fired ("timed out
// after 1000 ms"), and each server would let a fetch without that deadline succeed (or fail otherwise) a little later.
t.test('one deadline across everything', async t => {
  const DRIPS = 30 // a byte every 100 ms: the body ends after 3 s, so a fetch without a total deadline would succeed
  const drip = await serve((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' })
    let sent = 0
    const timer = setInterval(() => {
      res.write('a')
      if (++sent === DRIPS) res.end()
    }, 100)
    res.on('close', () => { clearInterval(timer) })
  })
  t.teardown(drip.close)
  // No response head for 5 s, then a page.
  const silent = await serve((req, res) => {
    const timer = setTimeout(() => { html('<p>late</p>')(req, res) }, 5000)
    res.on('close', () => { clearTimeout(timer) })
  })
  t.teardown(silent.close)
  let hop = 0
  const slowHops = await serve((req, res) => {
    hop++
    const timer = setTimeout(() => {
      res.writeHead(302, { location: `/next${hop}` })
      res.end()
    }, 400)
    res.on('close', () => { clearTimeout(timer) })
  })
  t.teardown(slowHops.close)
  const { lookup } = table({ 'slow.test': '127.0.0.1' })
  const options: SafeFetchOptions = { lookup, allowOrigins: [drip, silent, slowHops].map(server => `http://slow.test:${server.port}`), timeoutMs: 1000 }

  for (const [port, label] of [[drip.port, 'a body dripping a byte every 100 ms'], [silent.port, 'no response head'], [slowHops.port, 'hops of 400 ms each']] as const) {
    const started = Date.now()
    await rejectsWith(t, safeFetch(`http://slow.test:${port}/`, options), FetchFailed, /^timed out after 1000 ms$/, label)
    // A lower bound only: the deadline did not fire early (load can only make a fetch take longer).
    const elapsed = Date.now() - started
    t.ok(elapsed >= 900, `${label}: failed after ${elapsed} ms`)
  }
  // Each hop waits 400 ms on the server's clock, so a deadline of 1000 ms for all of them ends the fetch during the
  // third (timers fire in the order they are due); one per hop would follow all 5 redirects and fail differently.
  t.ok(hop >= 1 && hop <= 3, `the deadline covered the hops together: ${hop} of the 6 requests were made`)

  // A resolver that answers only after 3 s, with a server that answers at once: without the deadline over DNS the fetch
  // would succeed.
  const answering = await serve(html('<p>resolved late</p>'))
  t.teardown(answering.close)
  const resolverTimers: NodeJS.Timeout[] = []
  t.teardown(() => { for (const timer of resolverTimers) clearTimeout(timer) })
  const lateLookup = async (): Promise<Array<{ address: string, family: 4 }>> => await new Promise(resolve => {
    resolverTimers.push(setTimeout(() => { resolve([{ address: '127.0.0.1', family: 4 }]) }, 3000))
  })
  await rejectsWith(t, safeFetch(`http://hang.test:${answering.port}/`, { allowOrigins: [`http://hang.test:${answering.port}`], timeoutMs: 300, lookup: lateLookup }),
    FetchFailed, /^timed out after 300 ms$/, 'a resolver that answers too late')

  const controller = new AbortController()
  setTimeout(() => { controller.abort() }, 200)
  await rejectsWith(t, safeFetch(`http://slow.test:${drip.port}/`, { ...options, timeoutMs: 5000, signal: controller.signal }),
    FetchFailed, /^aborted$/, 'the caller\'s signal')
  await rejectsWith(t, safeFetch(`http://slow.test:${drip.port}/`, { ...options, signal: AbortSignal.abort() }),
    FetchFailed, /aborted/, 'an already aborted signal')
})

/**
 * Runs `fetch` and counts the bytes the decompressors in this process put out meanwhile (their readable side's push,
 * which zlib calls for every chunk it inflates).
 */
async function decodedBytes (fetch: () => Promise<unknown>): Promise<number> {
  const decoders = [zlib.Gunzip, zlib.Inflate, zlib.InflateRaw, zlib.Unzip, zlib.BrotliDecompress].map(type => type.prototype as object)
  let bytes = 0
  for (const prototype of decoders) {
    const push = (prototype as { push: (chunk: unknown, encoding?: BufferEncoding) => boolean }).push
    Object.defineProperty(prototype, 'push', {
      configurable: true,
      writable: true,
      value: function (this: unknown, chunk: unknown, encoding?: BufferEncoding) {
        if (Buffer.isBuffer(chunk)) bytes += chunk.length
        return Reflect.apply(push, this, [chunk, encoding])
      }
    })
  }
  try {
    await fetch()
  } finally {
    for (const prototype of decoders) delete (prototype as { push?: unknown }).push
  }
  return bytes
}

t.test('the body is capped, compressed or not', async t => {
  const MB = 1024 * 1024
  const bomb = zlib.gzipSync(Buffer.alloc(64 * MB))
  const brBomb = zlib.brotliCompressSync(Buffer.alloc(64 * MB))
  let chunksSent = 0
  const server = await serve((req, res) => {
    const path = req.url ?? '/'
    if (path === '/declared') {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(6 * MB) })
      res.write('<p>') // and then nothing: the declared length alone must fail it
      return
    }
    if (path === '/chunked') {
      res.writeHead(200, { 'content-type': 'text/html' })
      const chunk = Buffer.alloc(64 * 1024, 'a')
      const write = (): void => {
        while (chunksSent < 200) { // 12.5 MB if nobody stops it
          chunksSent++
          if (!res.write(chunk)) { res.once('drain', write); return }
        }
        res.end()
      }
      write()
      return
    }
    if (path === '/exact') { html('x'.repeat(1000))(req, res); return }
    if (path === '/bomb') { res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }); res.end(bomb); return }
    if (path === '/br-bomb') { res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'br' }); res.end(brBomb); return }
    if (path === '/nested') {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip, gzip' })
      res.end(zlib.gzipSync(bomb))
      return
    }
    res.writeHead(404)
    res.end()
  })
  t.teardown(server.close)
  const { lookup } = table({ 'big.test': '127.0.0.1' })
  const options: SafeFetchOptions = { lookup, allowOrigins: [`http://big.test:${server.port}`], timeoutMs: 10_000 }
  const url = (path: string) => `http://big.test:${server.port}${path}`

  // The body never comes (nor ends): only the declared length can fail this fetch before its 10 s deadline.
  await rejectsWith(t, safeFetch(url('/declared'), options), FetchFailed, /^response too large: content-length 6291456 > 5242880 bytes$/,
    'Content-Length over 5 MB: refused from the head, without waiting for the body')

  await rejectsWith(t, safeFetch(url('/chunked'), options), FetchFailed, /too large/, 'chunked, no length')
  t.ok(chunksSent < 200, `stopped reading early (${chunksSent} of 200 chunks written)`)

  t.equal((await safeFetch(url('/exact'), { ...options, maxBytes: 1000 })).body.length, 1000, 'exactly maxBytes passes')
  await rejectsWith(t, safeFetch(url('/exact'), { ...options, maxBytes: 999 }), FetchFailed, /too large/, 'one byte over maxBytes')

  for (const path of ['/bomb', '/br-bomb', '/nested']) {
    const decoded = await decodedBytes(async () => {
      await rejectsWith(t, safeFetch(url(path), options), FetchFailed, /too large/, `${path}: ${path === '/nested' ? 'gzip in gzip' : 'a 64 MB decompression bomb'}`)
    })
    // Counted, not timed: decoding stops a few chunks past the 5 MB cap, not after the 64 MB the bomb holds.
    t.ok(decoded > 5 * MB && decoded < 6 * MB, `${path}: stopped early (${(decoded / MB).toFixed(2)} MB of 64 decoded)`)
  }
})

t.test('content encodings decode', async t => {
  const text = '<h1>Soup</h1>'.repeat(100)
  const encoded: Record<string, Buffer> = {
    gzip: zlib.gzipSync(text),
    'x-gzip': zlib.gzipSync(text),
    deflate: zlib.deflateSync(text),
    'deflate-raw': zlib.deflateRawSync(text),
    br: zlib.brotliCompressSync(Buffer.from(text)),
    'gzip, br': zlib.brotliCompressSync(zlib.gzipSync(text)),
    identity: Buffer.from(text)
  }
  const server = await serve((req, res) => {
    const name = decodeURIComponent((req.url ?? '/').slice(1))
    const body = encoded[name]
    if (body == null) {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': name === 'corrupt' ? 'gzip' : name })
      res.end('not compressed at all')
      return
    }
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': name === 'deflate-raw' ? 'deflate' : name })
    res.end(body)
  })
  t.teardown(server.close)
  const { lookup } = table({ 'zip.test': '127.0.0.1' })
  const allowOrigins = [`http://zip.test:${server.port}`]
  for (const name of Object.keys(encoded)) {
    const response = await safeFetch(`http://zip.test:${server.port}/${encodeURIComponent(name)}`, { lookup, allowOrigins })
    t.equal(response.body.toString(), text, `${name} decodes`)
    t.notOk(response.headers['content-encoding'], `${name}: no content-encoding left on the decoded body`)
  }
  await rejectsWith(t, safeFetch(`http://zip.test:${server.port}/compress`, { lookup, allowOrigins }), FetchFailed,
    /unsupported content encoding/, 'an unknown encoding')
  await rejectsWith(t, safeFetch(`http://zip.test:${server.port}/corrupt`, { lookup, allowOrigins }), FetchFailed,
    /fetch failed/, 'a body that does not decode')
})

t.test('content type, status and connection failures', async t => {
  const server = await serve((req, res) => {
    switch (req.url) {
      case '/json': res.writeHead(200, { 'content-type': 'application/json' }); res.end('{}'); return
      case '/none': res.writeHead(200); res.end('<h1>x</h1>'); return
      case '/xhtml': res.writeHead(200, { 'content-type': 'Application/XHTML+XML; charset=utf-8' }); res.end('<html/>'); return
      case '/png': res.writeHead(200, { 'content-type': 'image/png' }); res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47])); return
      case '/missing': html('not here', 404)(req, res); return
      case '/error': html('oops', 500)(req, res); return
      case '/head': html('<h1>head</h1>')(req, res); return
      case '/reset': req.socket.destroy(); return
      default: html('ok')(req, res)
    }
  })
  t.teardown(server.close)
  const { lookup } = table({ 'types.test': '127.0.0.1' })
  const closed = await freePort()
  const options: SafeFetchOptions = { lookup, allowOrigins: [server.port, closed].map(port => `http://types.test:${port}`) }
  const url = (path: string) => `http://types.test:${server.port}${path}`

  await rejectsWith(t, safeFetch(url('/json'), options), FetchFailed, /content type not accepted: application\/json/, 'JSON for a page')
  await rejectsWith(t, safeFetch(url('/none'), options), FetchFailed, /content type not accepted/, 'no content type')
  await rejectsWith(t, safeFetch(url('/png'), options), FetchFailed, /image\/png/, 'an image for a page')
  t.equal((await safeFetch(url('/xhtml'), options)).contentType, 'application/xhtml+xml', 'XHTML, case-insensitive')
  const png = await safeFetch(url('/png'), { ...options, accept: type => type.startsWith('image/') })
  t.same([...png.body], [0x89, 0x50, 0x4e, 0x47], 'the caller\'s predicate')
  t.equal((await safeFetch(url('/json'), { ...options, accept: () => true })).body.toString(), '{}', 'anything (browser subresources)')

  const missing = await rejectsWith(t, safeFetch(url('/missing'), options), FetchFailed, /404/, '404')
  t.equal((missing as FetchFailed).status, 404)
  const failed = await rejectsWith(t, safeFetch(url('/error'), options), FetchFailed, /500/, '500')
  t.equal((failed as FetchFailed).status, 500)

  const head = await safeFetch(url('/head'), { ...options, method: 'HEAD' })
  t.equal(head.status, 200)
  t.equal(head.body.length, 0, 'HEAD has no body')

  await rejectsWith(t, safeFetch(url('/reset'), options), FetchFailed, /fetch failed/, 'a connection reset')
  await rejectsWith(t, safeFetch(`http://types.test:${closed}/`, options), FetchFailed, /ECONNREFUSED/, 'nothing listening')
})
