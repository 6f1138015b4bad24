// One measurement: autocannon against one server for a fixed time. A checked run checks every response's status and
// body, with latency from our own microsecond histogram (autocannon's rounds to whole milliseconds, too coarse for a
// 0.3 ms route). A plain run counts statuses only, as an outside reader's autocannon does: checking costs the one-thread
// generator 40-90 µs a response against about 35 plain on the 2-core VM, which capped the bare hello near 21k req/s
// where plain autocannon reads 27k, and more on the side that needs per-request setup and per-connection bodies (the
// /pk ceiling against `me`'s one body). Throughput runs are plain; the latency runs (10 connections, far below the
// generator's limit) check every body of the same scenario.
// A body is checked once: the same body with the same context (most responses of a read-only scenario) reuses its
// verdict, and only a body not seen before is parsed. The load generator has one thread, and parsing every 13 kB page
// on it delayed the reading of the responses that arrived meanwhile, so their measured latency held the generator's
// own work (and its CPU was taken from the servers on a 2-core machine). Keeping the bodies to check after the run
// was no better: hundreds of megabytes of kept strings made the generator's own full collections the pause.
import { createHistogram } from 'node:perf_hooks'
import autocannon from 'autocannon'

type Context = Record<string, unknown>

export interface Step {
  method?: 'GET' | 'POST' | 'DELETE'
  path: string
  headers?: Record<string, string>
  /** A string is sent as JSON; a Buffer as it is (give its content-type in headers). */
  body?: string | Buffer
  /** The status every response must have (200 unless said). */
  status?: number
  /** The body is not JSON (a file): check gets it as received, with the response headers. */
  raw?: boolean
  /** Chooses this request's variable parts (user, recipe...); may note them in the connection's context for check. */
  setup?: (context: Context) => { path?: string, method?: 'GET' | 'POST' | 'DELETE', headers?: Record<string, string>, body?: string | Buffer }
  /**
   * The body of a response with the expected status is right: null, or what is wrong with it. `body` is parsed JSON,
   * or for a raw step the body as autocannon hands it over (decoded as UTF-8 chunk by chunk, so only its ASCII parts
   * are reliable); `headers` have lower-case names.
   */
  check: (body: any, context: Context, headers: Record<string, string>) => string | null
}

/** What each connection sends, in a loop: one step, or a sequence (e.g. like, then unlike the same recipe). */
export type Load = Step[]

export interface Measurement {
  connections: number
  seconds: number
  /** Checked responses per second. */
  rps: number
  p50: number
  p99: number
  responses: number
  /** Responses without the expected status (200, or the step's) or whose body failed its check, connection errors and timeouts. */
  failures: number
  /** The first few failures, for the report. */
  samples: string[]
}

/** How many distinct bodies (with their contexts) a run remembers the verdict of, and their characters at most. */
const VERDICTS = 20_000
const VERDICT_CHARS = 100 * 1024 * 1024

/** What is wrong with a response's body (null: nothing), by its step's check. */
function verdictOf (step: Step, body: string, context: Context, rawHeaders?: Record<string, string | string[]>): string | null {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(rawHeaders ?? {})) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
  let parsed: unknown = body
  if (step.raw !== true) {
    try {
      parsed = JSON.parse(body)
    } catch {
      return `malformed JSON: ${body}`
    }
  }
  return step.check(parsed, context, headers)
}

/**
 * A step as autocannon sends it: a step that chooses its variable parts does so per request (`setup`), noting the path
 * it chose in the connection's context for the failure messages.
 */
function requestOf (step: Step) {
  return {
    method: step.method ?? 'GET',
    path: step.path,
    headers: { ...(typeof step.body === 'string' && { 'content-type': 'application/json' }), ...step.headers },
    body: step.body,
    ...(step.setup != null && {
      setupRequest: (request: autocannon.Request, context: object) => {
        const chosen = step.setup!(context as Context)
        const ctx = context as Context
        ctx.path = chosen.path ?? request.path
        const json = typeof chosen.body === 'string' && { 'content-type': 'application/json' }
        return { ...request, ...chosen, headers: { ...request.headers, ...json, ...chosen.headers } }
      }
    })
  }
}

/** One autocannon run; `watch` may listen to the instance (its responses). */
async function run (base: string, connections: number, seconds: number, requests: object[], watch?: (instance: autocannon.Instance) => void): Promise<autocannon.Result> {
  return await new Promise<autocannon.Result>((resolve, reject) => {
    // A generous timeout: 50 queued logins (bcrypt on 4 threads) take seconds each on a small machine; a response that
    // still takes longer is a failure.
    const options = { url: base, connections, duration: seconds, timeout: 30, requests: requests as autocannon.Request[] }
    const instance = autocannon(options, (err, res) => {
      if (err != null) reject(err)
      else resolve(res)
    })
    watch?.(instance)
  })
}

export async function measure (base: string, load: Load, connections: number, seconds: number, checked = true): Promise<Measurement> {
  if (!checked) return await measurePlain(base, load, connections, seconds)
  let failures = 0
  let good = 0
  const samples: string[] = []
  const fail = (why: string) => {
    failures++
    if (samples.length < 3) samples.push(why.slice(0, 300))
  }
  const requests = load.map(step => ({
    ...requestOf(step),
    onResponse: (status: number, body: string, context: object, rawHeaders?: Record<string, string | string[]>) => {
      const expected = step.status ?? 200
      if (status !== expected) return fail(`${step.method ?? 'GET'} ${String((context as Context).path ?? step.path)}: ${status} (expected ${expected}) ${body}`)
      check(step, body, context as Context, rawHeaders)
    }
  }))
  // body -> context (as JSON) -> the check's verdict
  const verdicts = new Map<string, Map<string, string | null>>()
  let verdictChars = 0
  function check (step: Step, body: string, context: Context, rawHeaders?: Record<string, string | string[]>): void {
    // A file's check reads its headers (type, length, ETag): always run, and cheap (no parsing).
    const remembered = step.raw === true ? undefined : verdicts.get(body)
    const contextKey = step.raw === true ? '' : JSON.stringify(context)
    let verdict = remembered?.get(contextKey)
    if (verdict === undefined) {
      verdict = verdictOf(step, body, context, rawHeaders)
      if (step.raw !== true && remembered != null) {
        if (remembered.size < VERDICTS) remembered.set(contextKey, verdict)
      } else if (step.raw !== true && verdicts.size < VERDICTS && verdictChars + body.length <= VERDICT_CHARS) {
        verdicts.set(body, new Map([[contextKey, verdict]]))
        verdictChars += body.length
      }
    }
    if (verdict != null) return fail(`${String(context.path ?? step.path)}: ${verdict}`)
    good++
  }
  const latency = createHistogram()
  const result = await run(base, connections, seconds, requests, instance => {
    instance.on('response', (_client, _status, _bytes, ms) => latency.record(Math.max(1, Math.round(ms * 1000))))
  })
  failures += result.errors + result.timeouts
  if (result.errors + result.timeouts > 0 && samples.length < 3) samples.push(`${result.errors} connection errors, ${result.timeouts} timeouts`)
  const count = latency.count
  return {
    connections,
    seconds: result.duration,
    rps: good / result.duration,
    p50: count === 0 ? 0 : latency.percentile(50) / 1000,
    p99: count === 0 ? 0 : latency.percentile(99) / 1000,
    responses: good,
    failures,
    samples
  }
}

/** A plain run: statuses counted by autocannon itself, no body read, no per-response hook of ours. */
async function measurePlain (base: string, load: Load, connections: number, seconds: number): Promise<Measurement> {
  const requests = load.map(step => requestOf(step))
  // A load's steps expect one status (a sequence mixes none: like and unlike both answer 200).
  const expected = load[0]?.status ?? 200
  if (load.some(step => (step.status ?? 200) !== expected)) throw new Error('a plain run needs one expected status for every step')
  const result = await run(base, connections, seconds, requests)
  const byStatus = Object.entries(result.statusCodeStats as Record<string, { count: number }>)
  const good = byStatus.find(([code]) => code === String(expected))?.[1].count ?? 0
  const wrong = byStatus.filter(([code]) => code !== String(expected))
  const samples = [
    ...wrong.map(([code, { count }]) => `${count} answered ${code} (expected ${expected})`),
    ...(result.errors + result.timeouts > 0 ? [`${result.errors} connection errors, ${result.timeouts} timeouts`] : [])
  ].slice(0, 3)
  return {
    connections,
    seconds: result.duration,
    rps: good / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    responses: good,
    failures: wrong.reduce((n, [, { count }]) => n + count, 0) + result.errors + result.timeouts,
    samples
  }
}
