// server.ts as a real process: start-up, graceful shutdown with a request in flight, crash handling.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdtemp } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { eventually } from '../helper.js'
import { testDatabaseUrl } from '../setup/database.js'

interface Server { child: ChildProcessWithoutNullStreams, apiPort: number, bffPort: number, output: string[], exited: Promise<number | null> }

async function startServer (env: Record<string, string> = {}, preload: string[] = []): Promise<Server> {
  const child = spawn(process.execPath, [...preload.flatMap(p => ['--import', p]), '--import', 'tsx', 'server.ts'], {
    env: {
      PATH: process.env.PATH,
      DATA_DIR: await mkdtemp(path.join(tmpdir(), 'recipes-server-')),
      DATABASE_URL: await testDatabaseUrl(),
      PORT: '0',
      BFF_PORT: '0',
      LOG_LEVEL: 'info',
      ...env
    }
  })
  const output: string[] = []
  const exited = new Promise<number | null>(resolve => child.on('exit', code => resolve(code)))
  const ports: number[] = []
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString())
      for (const match of chunk.toString().matchAll(/Server listening at http:\/\/127\.0\.0\.1:(\d+)/g)) ports.push(Number(match[1]))
      if (ports.length === 2) resolve()
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()))
    exited.then(code => reject(new Error(`server exited with ${code}: ${output.join('')}`)), reject)
  })
  return { child, apiPort: ports[0], bffPort: ports[1], output, exited }
}

t.test('SIGTERM: in-flight requests finish, then exit 0', async t => {
  const server = await startServer()
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
  await logged('/api/in-flight')
  server.child.kill('SIGTERM')
  await logged('shutting down')
  socket.end(body.slice(5))
  await new Promise(resolve => socket.once('close', resolve))
  t.match(response, /^HTTP\/1\.1 404/, 'the in-flight request got its answer')
  t.equal(await server.exited, 0, 'exit code 0')
  t.match(server.output.join(''), /shutting down/)
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
  const child = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], { env: { PATH: process.env.PATH, PORT: 'not-a-port' } })
  let stderr = ''
  child.stderr.on('data', d => { stderr += d.toString() })
  const code = await new Promise(resolve => child.on('exit', resolve))
  t.equal(code, 1)
  t.equal(stderr.trim().split('\n').length, 1, 'a single line')
  t.match(stderr, /^Invalid configuration: .*PORT/)
})
