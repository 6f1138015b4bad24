// server.ts as a real process: start-up output, .env, graceful shutdown with a request in flight, crash handling.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { connect, createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t, { type Test } from 'tap'
import { eventually } from '../helper.js'
import { freePort } from '../helpers/net.js'
import { testDatabaseUrl } from '../setup/database.js'

interface Server { child: ChildProcessWithoutNullStreams, cwd: string, apiPort: number, bffPort: number, output: string[], exited: Promise<number | null> }

type Env = Record<string, string | undefined>

const SERVER = path.resolve('server.ts')
// Absolute: the process runs in its own temporary folder, so a developer's .env in the checkout stays out of the tests.
const TSX = import.meta.resolve('tsx')

/** server.ts in a fresh temporary folder (its cwd and DATA_DIR); an `undefined` value leaves a variable unset. */
async function spawnServer (env: Env, preload: string[] = [], cwd?: string, ownGroup = false): Promise<{ child: ChildProcessWithoutNullStreams, cwd: string, output: string[], exited: Promise<number | null> }> {
  const dir = cwd ?? await mkdtemp(path.join(tmpdir(), 'recipes-server-'))
  const child = spawn(process.execPath, [...preload.flatMap(p => ['--import', p]), '--import', TSX, SERVER], {
    cwd: dir,
    env: { PATH: process.env.PATH, DATA_DIR: path.join(dir, 'data'), ...env },
    // As a terminal runs it: the leader of its own process group, which Ctrl-C signals as a whole.
    detached: ownGroup
  })
  const output: string[] = []
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()))
  const exited = new Promise<number | null>(resolve => child.on('exit', code => resolve(code)))
  // After a failed assertion, a live process would keep this file running until tap's timeout.
  t.teardown(() => { if (child.exitCode == null && child.signalCode == null) child.kill('SIGKILL') })
  return { child, cwd: dir, output, exited }
}

async function startServer (env: Env = {}, preload: string[] = [], cwd?: string): Promise<Server> {
  const spawned = await spawnServer({ DATABASE_URL: await testDatabaseUrl(), PORT: '0', BFF_PORT: '0', LOG_LEVEL: 'info', ...env }, preload, cwd)
  const listening = async () => {
    const out = spawned.output.join('')
    const api = /API listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)
    const bff = /Web proxy listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)
    return api != null && bff != null && { apiPort: Number(api[1]), bffPort: Number(bff[1]) }
  }
  const ports = await Promise.race([
    // Generous: a start under a loaded machine (the suite runs three files at once) can take tens of seconds.
    eventually(listening, 120_000),
    spawned.exited.then(code => { throw new Error(`server exited with ${code}: ${spawned.output.join('')}`) })
  ])
  return { ...spawned, ...ports }
}

/** The JSON log lines written so far. */
const logLines = (server: { output: string[] }): Array<Record<string, any>> =>
  server.output.join('').split('\n').filter(line => line.startsWith('{')).map(line => JSON.parse(line))

async function occupiedPort (t: Test): Promise<number> {
  const blocker = createServer()
  await new Promise<void>(resolve => blocker.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { blocker.close() })
  return (blocker.address() as AddressInfo).port
}

t.test('start-up: one line per listener, the database and cache without credentials; one line per request', async t => {
  const databaseUrl = await testDatabaseUrl()
  const server = await startServer()
  t.teardown(async () => { server.child.kill('SIGTERM'); await server.exited })
  const { hostname, port, pathname, password } = new URL(databaseUrl)
  const messages = logLines(server).map(line => line.msg)
  const api = `http://127.0.0.1:${server.apiPort}`
  t.ok(messages.includes(`Database: external PostgreSQL at ${hostname}:${port || 5432}${pathname}`), 'database location')
  t.ok(messages.includes('Cache: in-process (set REDIS_URL to share it between instances)'), 'cache')
  const dataDir = path.join(server.cwd, 'data')
  t.ok(messages.includes(`Uploads: local disk in ${path.join(dataDir, 'uploads')} (set S3_* to use object storage)`), 'where uploads go')
  t.ok(messages.includes('Email: recorded in the database, not sent (set SMTP_URL to send)'), 'what becomes of emails')
  t.ok(messages.includes(`Secrets: JWT_SECRET, ADMIN_JWT_SECRET generated once and kept in ${path.join(dataDir, 'secrets.json')} (set them in production)`), 'where generated secrets are')
  t.ok(messages.includes(`API listening on ${api}`))
  t.ok(messages.includes(`API docs at ${api}/api/docs`))
  t.ok(messages.includes(`Web proxy listening on http://127.0.0.1:${server.bffPort}, forwarding /bff/api to ${api}/api`))
  t.notOk(messages.some(msg => /^Server listening/.test(msg)), "Fastify's own listening lines are replaced")
  t.notMatch(server.output.join(''), /postgres(ql)?:\/\//, 'no database URL')
  if (password !== '') t.notMatch(server.output.join(''), password, 'no database password')
  t.notMatch(server.output.join(''), /\.env/, 'no .env, no mention of it')

  t.equal((await fetch(`${api}/healthz`)).status, 200)
  t.equal((await fetch(`${api}/api/recipes?token=secret-in-query`)).status, 200)
  t.equal((await fetch(`http://127.0.0.1:${server.bffPort}/bff/api/nothing`)).status, 404)
  const completed = async (url: string) => await eventually(async () => logLines(server).filter(line => line.url === url).length > 0)
  await completed('/bff/api/nothing')
  await completed('/api/recipes?token=[redacted]')
  const lines = logLines(server)
  t.notMatch(server.output.join(''), 'secret-in-query')
  t.notOk(lines.some(line => ['incoming request', 'request completed'].includes(line.msg)), 'no Fastify request lines')
  t.notOk(lines.some(line => line.url === '/healthz'), 'load-balancer probes leave no request line')
  for (const [url, instance, statusCode] of [['/api/recipes?token=[redacted]', undefined, 200], ['/bff/api/nothing', 'bff', 404]] as const) {
    const requestLines = lines.filter(line => line.url === url)
    t.equal(requestLines.length, 1, `one line for ${url}`)
    t.match(requestLines[0], { level: 30, instance, method: 'GET', url, statusCode, responseTime: Number, reqId: String, msg: `GET ${url} ${statusCode} ${requestLines[0].responseTime}ms` })
  }
})

for (const [variable, other] of [['PORT', 'BFF_PORT'], ['BFF_PORT', 'PORT']]) {
  t.test(`${variable} already in use: one clear line and exit 1`, async t => {
    const port = await occupiedPort(t)
    // No DATABASE_URL: the port is checked before an embedded database is started and migrated.
    const server = await spawnServer({ DATABASE_URL: undefined, [variable]: String(port), [other]: '0', LOG_LEVEL: 'info' })
    t.equal(await server.exited, 1)
    t.notMatch(server.output.join(''), /PostgreSQL|Database:/, 'found before the database starts')
    const fatal = logLines(server).filter(line => line.level === 60)
    t.same(fatal.map(line => line.msg), [`Port ${port} is already in use: set ${variable} to a free port`])
    t.notMatch(server.output.join(''), /stack|EADDRINUSE/, 'no stack trace')
  })
}

t.test('.env in the working directory is read; the real environment wins over it', async t => {
  const cwd = await mkdtemp(path.join(tmpdir(), 'recipes-server-env-'))
  const bffPort = await freePort()
  // LOG_LEVEL=warn from the file would hide the listening lines startServer waits for.
  await writeFile(path.join(cwd, '.env'), `LOG_LEVEL=warn\nBFF_PORT=${bffPort}\n`)
  const server = await startServer({ LOG_LEVEL: 'info', BFF_PORT: undefined }, [], cwd)
  t.teardown(async () => { server.child.kill('SIGTERM'); await server.exited })
  t.equal(server.bffPort, bffPort, 'a variable only in the file is used')
  t.ok(logLines(server).some(line => line.level === 30), 'LOG_LEVEL from the environment wins over the file')
  t.ok(logLines(server).some(line => line.msg === `Read ${path.join(cwd, '.env')} (variables set in the environment take precedence)`))
})

t.test('SIGTERM: in-flight requests finish, then exit 0', async t => {
  // debug: the "incoming" line tells when the request has arrived (info logs a request once it completes).
  const server = await startServer({ LOG_LEVEL: 'debug' })
  const ready = await fetch(`http://127.0.0.1:${server.apiPort}/readyz`)
  t.equal(ready.status, 200)
  t.equal((await fetch(`http://127.0.0.1:${server.bffPort}/bff/api/nothing`)).status, 404, 'the web proxy listens too')

  // A request whose body is still arriving when the signal comes.
  const socket = connect(server.apiPort, '127.0.0.1')
  await new Promise(resolve => socket.once('connect', resolve))
  const body = '{"title":"in flight"}'
  socket.write(`POST /api/in-flight HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`)
  let response = ''
  socket.on('data', d => { response += d.toString() })
  const logged = (text: string) => eventually(async () => server.output.join('').includes(text))
  await logged('incoming POST /api/in-flight')
  server.child.kill('SIGTERM')
  await logged('shutting down')
  socket.end(body.slice(5))
  await new Promise(resolve => socket.once('close', resolve))
  t.match(response, /^HTTP\/1\.1 404/, 'the in-flight request got its answer')
  t.equal(await server.exited, 0, 'exit code 0')
  t.match(server.output.join(''), /shutting down/)
})

t.test('Ctrl-C on a terminal (SIGINT to the whole process group) with the embedded database: one shutdown, exit 0', async t => {
  const server = await spawnServer({ DATABASE_URL: undefined, PORT: '0', BFF_PORT: '0', LOG_LEVEL: 'info' }, [], undefined, true)
  const logged = (text: string) => eventually(async () => server.output.join('').includes(text), 60_000)
  await logged('Web proxy listening on')
  process.kill(-server.child.pid!, 'SIGINT')
  t.equal(await server.exited, 0, 'exit code 0')
  const lines = logLines(server)
  t.equal(lines.filter(line => line.msg === 'shutting down').length, 1, 'one "shutting down" line')
  t.same(lines.filter(line => line.level >= 50).map(line => line.msg), [], 'no error: the database outlived the close')
  t.ok(lines.some(line => line.msg === 'closed'), 'closed in order')
})

t.test('SIGTERM just after requests were sent on 20 keep-alive connections: every one is answered, then exit 0', async t => {
  const server = await startServer({ SHUTDOWN_DRAIN_MS: '0' })
  const REQUEST = 'POST /api/nothing HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}'
  const answers = (text: string) => text.split('HTTP/1.1 ').length - 1
  const clients = await Promise.all(Array.from({ length: 20 }, async () => {
    const socket = connect(server.apiPort, '127.0.0.1')
    const client = { socket, received: '', closed: new Promise(resolve => socket.once('close', resolve)) }
    socket.on('data', (chunk: Buffer) => { client.received += chunk.toString() })
    socket.on('error', () => {})
    await new Promise(resolve => socket.once('connect', resolve))
    return client
  }))
  // A first answer on each: every connection is now an idle keep-alive one, as a browser's or a load balancer's.
  for (const { socket } of clients) socket.write(REQUEST)
  await eventually(async () => clients.every(client => answers(client.received) === 1))
  // The second requests are on the machine (written to the kernel) before the signal is sent.
  await Promise.all(clients.map(async ({ socket }) => { await new Promise(resolve => socket.write(REQUEST, resolve)) }))
  server.child.kill('SIGTERM')
  await Promise.all(clients.map(async client => await client.closed))
  t.same(clients.map(client => answers(client.received)), clients.map(() => 2), 'every request sent before the signal was answered')
  t.equal(await server.exited, 0)
  const messages = logLines(server).map(line => line.msg)
  t.ok(messages.indexOf('closed') > messages.indexOf('shutting down'), 'the last line says the instance closed')
})

t.test('SIGTERM with a request in flight on a web-proxy keep-alive connection: answered, the connection closed, exit 0', async t => {
  const server = await startServer({ LOG_LEVEL: 'debug', SHUTDOWN_DRAIN_MS: '0' })
  const socket = connect(server.bffPort, '127.0.0.1')
  await new Promise(resolve => socket.once('connect', resolve))
  let response = ''
  socket.on('data', (chunk: Buffer) => { response += chunk.toString() })
  socket.on('error', () => {})
  const closed = new Promise(resolve => socket.once('close', resolve))
  // Keep-alive (HTTP/1.1), and the client never closes it: only the server can end this connection.
  const body = '{"title":"in flight"}'
  socket.write(`POST /bff/api/in-flight HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`)
  await eventually(async () => server.output.join('').includes('incoming POST /bff/api/in-flight'))
  server.child.kill('SIGTERM')
  // The rest of the body once the web proxy has stopped accepting connections: its close has begun.
  const accepting = async () => await new Promise<boolean>(resolve => {
    const probe = connect(server.bffPort, '127.0.0.1')
    probe.once('connect', () => { probe.destroy(); resolve(true) })
    probe.once('error', () => resolve(false))
  })
  await eventually(async () => !await accepting(), 10_000)
  socket.write(body.slice(5))
  t.equal(await server.exited, 0, 'exit code 0, not the close-with-grace timeout')
  await closed
  t.match(response, /^HTTP\/1\.1 404 /, 'the in-flight request got its answer')
  t.match(response, /\r\nconnection: close\r\n/i, 'and the connection was closed after it')
  const messages = logLines(server).map(line => line.msg)
  t.notOk(messages.some(msg => /killed by timeout/.test(msg)))
  t.ok(messages.indexOf('closed') > messages.indexOf('shutting down'), 'the last line says the instance closed')
})

for (const failure of ['exception', 'rejection']) {
  t.test(`uncaught ${failure}: logged, graceful close, exit 1`, async t => {
    const server = await startServer({ FIXTURE_FAILURE: failure }, [path.resolve('test/fixtures/fail-on-signal.ts')])
    server.child.kill('SIGWINCH')
    t.equal(await server.exited, 1)
    const out = server.output.join('')
    t.match(out, /uncaught error: shutting down/)
    t.match(out, new RegExp(`injected ${failure}`))
  })
}

t.test('bad configuration: one clear line and exit 1', async t => {
  const server = await spawnServer({ PORT: 'not-a-port' })
  t.equal(await server.exited, 1)
  const stderr = server.output.join('')
  t.equal(stderr.trim().split('\n').length, 1, 'a single line')
  t.match(stderr, /^Invalid configuration: .*PORT/)
})
