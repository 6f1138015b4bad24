// `node --import tsx bench/upload-loop-delay.ts`: what large uploads cost everyone else on the instance (issue 41,
// item 2). The service runs as `npm start` runs it (its environment and node flags), from source (server.ts through
// tsx), in a child process with bench/probe.mjs preloaded, on a fresh database created on DATABASE_URL's server and
// dropped at the end. The uploads are distinct noise PNGs just under the 10 MB limit (noise does not compress: the
// most bytes for every byte-wise step), sent while a separate process asks /healthz every 5 ms. Parts and targets:
//   single    one upload: the service's event-loop delay stays within 20 ms (max)
//   parallel  10 at once: /healthz p99 within 50 ms
//   refused   10 at once with bytes after the image's end: received, scanned, refused (400); reported
//   repeats   the 10 of `parallel` again: received, hashed, recognised (200); reported
//   mixed     20 at once: 8 new PNGs, 2 repeats, 5 JPEGs, 5 refused; reported
//   memory    RSS 30 s after the last part within 60 MB of its level before the first
// Prints `ok`/`FAIL` per target and exits 1 on a miss. The machine's other load shows in the poller's own timer lag:
// a figure taken while it is high measures the machine, not the service.
//   UPLOAD_PARTS=single,parallel,...  the parts to run (default all)   UPLOAD_BURST  the parallel count (10)
//   UPLOAD_SERVICE_ENV="NAME=value ..." more environment for the service   UPLOAD_NODE_ARGS  more node flags for it
//   (a profile: --cpu-prof --cpu-prof-dir=/tmp/prof)   UPLOAD_KEEP=1  keeps the service's log and files
//   UPLOAD_HEAP_SNAPSHOT=1  writes the service's heap after the parts (into its working folder)
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { databaseUrl as onDatabase, dropDatabase, withConnection } from '../db/admin.js'
import { multipartFile } from './media.js'
import { freePort, REPO, startChild, type Child, type ProbeReport } from './servers.js'

const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const BURST = Math.max(1, Number(process.env.UPLOAD_BURST ?? 10))
const PARTS = new Set((process.env.UPLOAD_PARTS ?? 'single,parallel,refused,repeats,mixed').split(','))
const TARGETS = { singleLoopMaxMs: 20, parallelHealthP99Ms: 50, rssReturnMb: 60 } as const
/** Side of the noise PNG: 1800 x 1800 x 3 bytes is about 9.8 MB, under the 10 MiB limit with the container. */
const SIDE = 1800

let failures = 0
function report (name: string, ok: boolean | null, measured: string, target?: string): void {
  if (ok === false) failures++
  console.log(`${ok == null ? '    ' : ok ? 'ok  ' : 'FAIL'} ${name}: ${measured}${target != null ? ` (target ${target})` : ''}`)
}

/** `npm start`'s leading NAME=value words (its environment) and its node flags, with UPLOAD_SERVICE_ENV on top. */
function startCommand (): { env: Record<string, string>, flags: string[] } {
  const start = (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start
  const words = start.split(/\s+/)
  const node = words.indexOf('node')
  const pairs = [...words.slice(0, node), ...(process.env.UPLOAD_SERVICE_ENV ?? '').split(/\s+/).filter(Boolean)]
  return {
    env: Object.fromEntries(pairs.map(word => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)])),
    flags: words.slice(node + 1).filter(word => word.startsWith('--'))
  }
}

const noise = (width: number, height: number) => sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })

const pngForm = multipartFile('image', 'noise.png', 'image/png')
const jpegForm = multipartFile('image', 'noise.jpg', 'image/jpeg')

/** The bodies of the last answers that were not a success, by status: what a FAIL line names. */
const refusals = new Map<number, string>()

async function post (base: string, token: string, form: { contentType: string }, body: Buffer): Promise<number> {
  return await new Promise((resolve, reject) => {
    const req = request(`${base}/api/upload/image`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': form.contentType, 'content-length': body.length }
    }, res => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => { if (res.statusCode != null && res.statusCode >= 400) chunks.push(chunk) })
      res.on('end', () => {
        if (chunks.length > 0) refusals.set(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8').slice(0, 300))
        resolve(res.statusCode ?? 0)
      })
    })
    req.on('error', reject)
    req.end(body)
  })
}

/**
 * A separate process asks /healthz every 5 ms, whether or not the earlier answers came (a client does not wait for
 * other clients): a stall of the service delays every request sent during it, so its length counts in the
 * percentiles as often as it would for real traffic. Its own process, so the uploads this one sends never delay it;
 * it reports its own timer lag, the machine's share in what it measured.
 */
const POLLER = `
  import { Agent, get } from 'node:http'
  const agent = new Agent({ keepAlive: true })
  const times = []
  let asked = 0
  let last = performance.now()
  let lag = 0
  const timer = setInterval(() => {
    const started = performance.now()
    lag = Math.max(lag, started - last - 5)
    last = started
    asked++
    get(process.env.HEALTH_URL, { agent }, res => {
      res.resume()
      res.on('end', () => { if (times.push(performance.now() - started) === 20) process.send('ready') })
    })
  }, 5)
  process.on('message', () => {
    clearInterval(timer)
    const answered = setInterval(() => {
      if (times.length < asked) return
      clearInterval(answered)
      process.send({ times, lag }, () => process.exit(0))
    }, 10)
  })
`

/** Starts the poller; resolves once it has its connections and answers (so the figures start in a steady state). */
async function startPoller (base: string): Promise<{ stop: () => Promise<{ times: number[], lag: number }> }> {
  const poller = spawn(process.execPath, ['--input-type=module', '-e', POLLER], { env: { HEALTH_URL: `${base}/healthz` }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  await new Promise(resolve => poller.once('message', resolve))
  return {
    stop: async () => {
      const answer = new Promise<{ times: number[], lag: number }>(resolve => poller.once('message', message => { resolve(message as { times: number[], lag: number }) }))
      poller.send('stop')
      return await answer
    }
  }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p / 100) - 1)]
}

interface Burst { probe: ProbeReport, healthP99: number, text: string }

/** Runs `uploads` at once while polling /healthz; the health latencies and the service's loop delay and memory. */
async function burst (service: Child, name: string, uploads: Array<() => Promise<number>>, expected: Array<number | number[]>): Promise<Burst> {
  await service.quiet()
  const poller = await startPoller(service.base)
  await service.reset()
  refusals.clear()
  const statuses = await Promise.all(uploads.map(async send => await send()))
  const probe = await service.report()
  const health = await poller.stop()
  if (statuses.some((status, i) => ![expected[i]].flat().includes(status))) {
    failures++
    console.log(`FAIL ${name}: statuses ${JSON.stringify(statuses)} (expected ${JSON.stringify(expected)}); ` +
      `answers: ${JSON.stringify(Object.fromEntries(refusals))}`)
  }
  const healthP99 = percentile(health.times, 99)
  return {
    probe,
    healthP99,
    text: `/healthz p99 ${healthP99.toFixed(1)} ms, max ${Math.max(...health.times).toFixed(1)} (${health.times.length} polls; the ` +
      `poller's own timer lag max ${health.lag.toFixed(1)}); service loop delay p99 ${probe.loopP99.toFixed(1)} ms, max ` +
      `${probe.loopMax.toFixed(1)}; peak RSS ${probe.peakRss.toFixed(0)} MB`
  }
}

async function main (): Promise<void> {
  const name = `bench_upload_${randomBytes(4).toString('hex')}`
  await withConnection(SERVER_URL, async sql => { await sql`create database ${sql(name)}` })
  const work = await mkdtemp(path.join(tmpdir(), 'bench-upload-'))
  let service: Child | undefined
  try {
    const port = await freePort()
    const start = startCommand()
    console.log(`service environment from npm start: ${JSON.stringify(start.env)}, node flags: ${start.flags.join(' ')}`)
    service = await startChild({
      name: 'service',
      args: [...(process.env.UPLOAD_NODE_ARGS ?? '').split(/\s+/).filter(Boolean), ...start.flags, '--import', import.meta.resolve('tsx'), path.join(REPO, 'server.ts')],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? work,
        ...start.env,
        // server.ts from source: autoload must load the .ts plugins.
        FASTIFY_AUTOLOAD_TYPESCRIPT: '1',
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        BFF_PORT: String(await freePort()),
        DATA_DIR: work,
        STORAGE_PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATABASE_URL: onDatabase(SERVER_URL, name),
        JWT_SECRET: randomBytes(32).toString('base64url'),
        ADMIN_JWT_SECRET: randomBytes(32).toString('base64url'),
        RATE_LIMIT_GLOBAL_MAX: '1000000',
        RATE_LIMIT_ROUTER_MAX: '1000000',
        RATE_LIMIT_AUTH_MAX: '1000000',
        LOG_LEVEL: 'warn'
      },
      cwd: work, // no .env of the working tree is read
      port,
      logFile: path.join(work, 'service.log'),
      readyPath: '/readyz',
      timeoutMs: 180_000
    })
    const registered = await fetch(`${service.base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'benchuploader', email: 'bench-uploader@example.com', password: 'Sup3rSecret!' })
    })
    if (registered.status !== 201) throw new Error(`registration failed: ${registered.status} ${await registered.text()}`)
    const { token } = await registered.json() as { token: string }

    const pngs = await Promise.all(Array.from({ length: BURST + 11 }, async () => await noise(SIDE, SIDE).png({ compressionLevel: 1 }).toBuffer()))
    const jpegs = await Promise.all(Array.from({ length: 5 }, async () => await noise(SIDE, SIDE).jpeg({ quality: 100 }).toBuffer()))
    console.log(`${pngs.length} noise PNGs of ${(pngs[0].length / 1024 / 1024).toFixed(2)} MB, ${jpegs.length} JPEGs of ${(jpegs[0].length / 1024 / 1024).toFixed(2)} MB`)
    const sendPng = (data: Buffer) => async () => await post(service!.base, token, pngForm, pngForm.body(data))
    const sendJpeg = (data: Buffer) => async () => await post(service!.base, token, jpegForm, jpegForm.body(data))

    // One small image first: the level before the parts includes an image's work (sharp's thread, its first buffers).
    if (await sendPng(await noise(64, 64).png().toBuffer())() !== 201) throw new Error('the warm-up upload failed')
    await service.quiet()
    const memory = (r: ProbeReport) => `${r.rss.toFixed(0)} MB (V8 heap ${r.heapTotal.toFixed(0)}, external ${r.external.toFixed(0)})`
    const first = await service.report()
    const before = first.rss

    if (PARTS.has('single')) {
      const single = await burst(service, 'single', [sendPng(pngs[0])], [201])
      report('one 10 MB upload: loop delay max', single.probe.loopMax <= TARGETS.singleLoopMaxMs,
        `${single.probe.loopMax.toFixed(1)} ms; ${single.text}`, `<= ${TARGETS.singleLoopMaxMs} ms`)
    }
    const ten = pngs.slice(1, 1 + BURST)
    if (PARTS.has('parallel')) {
      const parallel = await burst(service, 'parallel', ten.map(sendPng), Array(BURST).fill(201))
      report(`${BURST} parallel 10 MB uploads: /healthz p99`, parallel.healthP99 <= TARGETS.parallelHealthP99Ms,
        `${parallel.healthP99.toFixed(1)} ms; ${parallel.text}`, `<= ${TARGETS.parallelHealthP99Ms} ms`)
    }
    if (PARTS.has('refused')) {
      const trailing = ten.map(png => Buffer.concat([png, Buffer.from('PK\u0003\u0004')]))
      const refused = await burst(service, 'refused', trailing.map(sendPng), Array(BURST).fill(400))
      report(`${BURST} parallel uploads with data after the image (received, scanned, refused)`, null, refused.text)
    }
    if (PARTS.has('repeats')) {
      // Recognised by their hash when `parallel` stored them; otherwise stored now.
      const repeats = await burst(service, 'repeats', ten.map(sendPng), Array(BURST).fill(PARTS.has('parallel') ? 200 : 201))
      report(`${BURST} parallel repeats (received, hashed, recognised)`, null, repeats.text)
    }
    if (PARTS.has('mixed')) {
      const extra = pngs.slice(BURST + 1)
      const marked = Buffer.concat([extra[0].subarray(0, 5_000_000), Buffer.from('<script>alert(1)</script>'), extra[0].subarray(5_000_000)])
      const uploads = [
        ...extra.slice(2, 10).map(sendPng), sendPng(pngs[0]), sendPng(pngs[1]),
        ...jpegs.map(sendJpeg),
        sendPng(marked), sendPng(Buffer.concat([extra[1], Buffer.from('PK\u0003\u0004')])), sendPng(marked.subarray(0, 4_000_000)),
        sendJpeg(extra[1]), sendPng(Buffer.from('<svg/>'))
      ]
      // Twenty at once pass the processing queue's bound (2 decoding, 8 waiting): a new image may get 503.
      const stored = [201, 503]
      const again = (earlier: boolean) => earlier ? 200 : [201, 503]
      const expected = [...Array(8).fill(stored), again(PARTS.has('single')), again(PARTS.has('parallel') || PARTS.has('repeats')), ...Array(5).fill(stored), ...Array(5).fill(400)]
      const mixed = await burst(service, 'mixed', uploads, expected)
      report('20 mixed uploads (8 new PNGs, 2 repeats, 5 JPEGs, 5 refused)', null, mixed.text)
    }

    await service.quiet()
    const levels: string[] = []
    let after = 0
    for (const seconds of [10, 20, 30]) {
      await new Promise(resolve => setTimeout(resolve, 10_000))
      const level = await service.report()
      after = level.rss
      levels.push(`${memory(level)} ${seconds} s after`)
    }
    report('RSS after the parts', after - before <= TARGETS.rssReturnMb,
      `${memory(first)} before, ${levels.join(', ')}`, `within ${TARGETS.rssReturnMb} MB of before, 30 s after`)
    report('diagnosis: after a forced full garbage collection', null, memory(await service.collect()))
    if (process.env.UPLOAD_HEAP_SNAPSHOT != null) console.log(`heap snapshot: ${await service.snapshot()}`)
  } finally {
    await service?.stop()
    await dropDatabase(SERVER_URL, name)
    if (process.env.UPLOAD_KEEP != null) console.log(`service log and files kept in ${work}`)
    else await rm(work, { recursive: true, force: true })
  }
}

await main()
process.exitCode = failures > 0 ? 1 : 0
