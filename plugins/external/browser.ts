// Headless Chromium for recipe import: renders a page whose HTML the safe fetcher already fetched, so that recipes built
// by scripts can be read. How a render keeps to decisions.md "URL safety" (Chromium reaches nothing; every request of
// the page goes through the safe fetcher) is lib/recipe-import/chromium-render.ts.
// Chromium and Playwright run in a worker thread (lib/recipe-import/chromium-worker.ts), so neither loading Playwright
// nor its protocol traffic ever stalls the API's event loop. One browser per instance, launched on first use,
// relaunched on the next render after it dies, and closed (thread and all) after BROWSER_IDLE_CLOSE_MS without a
// render: idle, it held about 630 MB in 9 processes. A fresh context per render; at most RENDER_LIMITS.concurrent
// renders at once, a bounded queue behind.
import { EventEmitter } from 'node:events'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { setTimeout as sleep } from 'node:timers/promises'
import fp from 'fastify-plugin'
import { documentUrl, RenderFailed } from '../../lib/recipe-import/chromium-render.js'
import type { FromWorker, ToWorker, WorkerSettings } from '../../lib/recipe-import/chromium-worker.js'

export { RenderFailed }

export interface RenderOptions {
  /** The whole render, queueing and launch included (default RENDER_LIMITS.timeoutMs). */
  timeoutMs?: number
  signal?: AbortSignal
}

/** `closing`: an idle (or the app's) close has begun, with no render on it; `closed`: its Chromium and thread are gone. */
export interface BrowserEvents { closing: [], closed: [] }

export interface Browser {
  /** Whether a Chromium executable is configured and present. */
  available: boolean
  /**
   * Renders a page whose HTML was already fetched by the safe fetcher: returns the HTML after scripts ran (doctype and
   * `document.documentElement.outerHTML`), or throws (BrowserUnavailable, BrowserBusy, RenderTimeout, RenderFailed,
   * or the signal's reason).
   */
  render: (pageUrl: string, html: string, options?: RenderOptions) => Promise<string>
  /** Whether a browser is up or starting (false once closed for idleness, until the next render). */
  isOpen: () => boolean
  events: EventEmitter<BrowserEvents>
}

declare module 'fastify' {
  interface FastifyInstance {
    browser: Browser
  }
}

export const RENDER_LIMITS = {
  /** Renders running at once per instance (each a Chromium context, ~100 MB). */
  concurrent: 2,
  /** Renders waiting for a slot; one more is refused with BrowserBusy. */
  queued: 8,
  timeoutMs: 15_000,
  /** After the document is parsed: wait at most this long for the network to be quiet or a recipe marker. */
  settleMs: 3_000,
  /** "Quiet": no request of the page in flight for this long. */
  quietMs: 400,
  subresourceBytes: 2 * 1024 * 1024,
  subresourceTimeoutMs: 5_000,
  subresourceRedirects: 5,
  /** Requests answered per render (further ones are aborted) and their total bytes. */
  subresources: 150,
  totalBytes: 16 * 1024 * 1024,
  /** Longest HTML handed back. */
  htmlChars: 5 * 1024 * 1024
} as const

export class BrowserUnavailable extends Error {
  override name = 'BrowserUnavailable'
  constructor () { super('Headless browser unavailable: no Chromium executable (set CHROMIUM_PATH)') }
}

export class BrowserBusy extends Error {
  override name = 'BrowserBusy'
  constructor () { super(`Headless browser busy: ${RENDER_LIMITS.concurrent} renders running and ${RENDER_LIMITS.queued} waiting`) }
}

export class RenderTimeout extends RenderFailed {
  override name = 'RenderTimeout'
  constructor (timeoutMs: number) { super(`Render did not finish within ${timeoutMs} ms`) }
}

const DEFAULT_CHROMIUM = '/usr/bin/chromium'
const DEFAULT_IDLE_CLOSE_MS = 60_000
/** After an abort, how long the thread has to answer (its render ends within 5 s) before it is taken for wedged. */
const ABORT_GRACE_MS = 10_000
/** How long a closing thread has to close Chromium (it bounds that at 10 s) before it is ended anyway. */
const CLOSE_GRACE_MS = 15_000

// The built file in dist; from the TypeScript source (development, tests) Node 20 does not run a worker's entry through
// the parent's loader, so that worker registers tsx's require hook itself before loading the source.
const WORKER = new URL(`../../lib/recipe-import/chromium-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url)

function startWorker (settings: WorkerSettings): Worker {
  if (!WORKER.pathname.endsWith('.ts')) return new Worker(WORKER, { workerData: settings })
  const tsx = createRequire(import.meta.url).resolve('tsx/cjs/api')
  return new Worker(`require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(fileURLToPath(WORKER))})`,
    { eval: true, workerData: settings })
}

interface Pending { done: (html: string) => void, fail: (err: Error) => void }

/** One worker thread and the Chromium it runs. */
interface Session {
  worker: Worker
  pending: Map<number, Pending>
  /** The thread answered `close` (Chromium is closed), or ended. */
  closed: Promise<void>
  exited: Promise<void>
  retired: boolean
}

export default fp(async fastify => {
  const { config, log } = fastify
  const executablePath = config.chromiumPath ?? (existsSync(DEFAULT_CHROMIUM) ? DEFAULT_CHROMIUM : undefined)
  const available = executablePath != null && existsSync(executablePath)
  const settings: WorkerSettings = { executablePath: executablePath ?? '', allowOrigins: config.importAllowOrigins ?? [] }
  const idleCloseMs = config.browserIdleCloseMs ?? DEFAULT_IDLE_CLOSE_MS
  const events = new EventEmitter<BrowserEvents>()

  let closing = false
  let session: Session | null = null
  const retiring = new Set<Promise<void>>()
  let idleTimer: NodeJS.Timeout | undefined
  let nextId = 0
  let active = 0
  const waiting: Array<{ resolve: () => void, reject: (err: unknown) => void }> = []

  function open (): Session {
    const worker = startWorker(settings)
    let answeredClose = (): void => {}
    const s: Session = {
      worker,
      pending: new Map(),
      closed: new Promise(resolve => { answeredClose = resolve }),
      exited: new Promise(resolve => { worker.once('exit', () => { resolve() }) }),
      retired: false
    }
    worker.on('message', (message: FromWorker) => {
      switch (message.type) {
        case 'rendered': s.pending.get(message.id)?.done(message.html); break
        case 'failed': s.pending.get(message.id)?.fail(new RenderFailed(message.message)); break
        case 'log': log[message.level](message.data ?? {}, message.msg); break
        case 'closed': answeredClose(); break
      }
    })
    worker.on('error', err => { log.error({ err }, 'headless browser thread failed') })
    s.exited.then(() => {
      if (session === s) session = null
      answeredClose()
      for (const pending of [...s.pending.values()]) pending.fail(new RenderFailed('Headless browser thread ended during the render'))
    }).catch(() => {})
    return s
  }

  /** Closes a session's Chromium and ends its thread. No new render goes to it; renders on it (app close only) fail. */
  function retire (s: Session): void {
    if (session === s) session = null
    if (s.retired) return
    s.retired = true
    events.emit('closing')
    s.worker.postMessage({ type: 'close' } satisfies ToWorker)
    const done = (async () => {
      await Promise.race([s.closed, sleep(CLOSE_GRACE_MS, undefined, { ref: false })])
      await s.worker.terminate()
      await s.exited
    })().catch(err => { log.error({ err }, 'headless browser did not close cleanly') })
      .finally(() => { retiring.delete(done); events.emit('closed') })
    retiring.add(done)
  }

  /** With no render running or waiting, the browser is closed after the idle time (a render before then keeps it). */
  function closeWhenIdle (): void {
    clearTimeout(idleTimer)
    if (closing || session == null || active > 0) return
    idleTimer = setTimeout(() => {
      if (closing || session == null || active > 0) return
      log.info({ idleMs: idleCloseMs }, 'headless browser closed while idle; it is relaunched on the next render')
      retire(session)
    }, idleCloseMs)
    idleTimer.unref()
  }

  function renderIn (s: Session, target: string, html: string, signal: AbortSignal): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const id = ++nextId
      let grace: NodeJS.Timeout | undefined
      const settle = (): void => {
        s.pending.delete(id)
        signal.removeEventListener('abort', onAbort)
        clearTimeout(grace)
      }
      const onAbort = (): void => {
        s.worker.postMessage({ type: 'abort', id } satisfies ToWorker)
        grace = setTimeout(() => { retire(s) }, ABORT_GRACE_MS) // a wedged thread: ending it fails this render
        grace.unref()
      }
      s.pending.set(id, {
        done: html => { settle(); resolve(html) },
        // The thread's answer to an abort is the caller's reason (a timeout, the caller's own abort).
        fail: err => { settle(); reject(signal.aborted ? signal.reason : err) }
      })
      s.worker.postMessage({ type: 'render', id, target, html, limits: { ...RENDER_LIMITS } } satisfies ToWorker)
      if (signal.aborted) onAbort()
      else signal.addEventListener('abort', onAbort, { once: true })
    })
  }

  async function acquire (signal: AbortSignal): Promise<() => void> {
    signal.throwIfAborted()
    if (active < RENDER_LIMITS.concurrent) {
      active++
    } else {
      if (waiting.length >= RENDER_LIMITS.queued) throw new BrowserBusy()
      // Once a slot is handed over (the entry left the queue) an abort no longer rejects: the caller releases it.
      await new Promise<void>((resolve, reject) => {
        const onAbort = (): void => {
          const index = waiting.indexOf(entry)
          if (index >= 0) waiting.splice(index, 1)
          reject(signal.reason)
        }
        const entry = {
          resolve: () => { signal.removeEventListener('abort', onAbort); resolve() },
          reject: (err: unknown) => { signal.removeEventListener('abort', onAbort); reject(err) }
        }
        waiting.push(entry)
        signal.addEventListener('abort', onAbort, { once: true })
      })
    }
    let released = false
    return () => {
      if (released) return
      released = true
      // The slot passes straight to the next waiter (active stays the same), or frees up.
      const next = waiting.shift()
      if (next != null) next.resolve()
      else active--
    }
  }

  async function render (pageUrl: string, html: string, options: RenderOptions = {}): Promise<string> {
    if (!available) throw new BrowserUnavailable()
    if (closing) throw new RenderFailed('Headless browser is shutting down')
    const target = documentUrl(pageUrl)
    if (target == null) throw new RenderFailed('Only http(s) pages are rendered')
    const timeoutMs = options.timeoutMs ?? RENDER_LIMITS.timeoutMs
    const timeout = new AbortController()
    const timer = setTimeout(() => { timeout.abort(new RenderTimeout(timeoutMs)) }, timeoutMs)
    const signal = options.signal == null ? timeout.signal : AbortSignal.any([timeout.signal, options.signal])
    try {
      const release = await acquire(signal)
      try {
        if (closing) throw new RenderFailed('Headless browser is shutting down')
        clearTimeout(idleTimer)
        // A browser closing for idleness is no longer `session`: this render starts a new one beside it.
        session ??= open()
        return await renderIn(session, target, html, signal)
      } finally {
        release()
        closeWhenIdle()
      }
    } finally {
      clearTimeout(timer)
    }
  }

  fastify.decorate('browser', { available, render, isOpen: () => session != null, events } satisfies Browser)

  fastify.addHook('onClose', async () => {
    closing = true
    clearTimeout(idleTimer)
    for (const waiter of waiting.splice(0)) waiter.reject(new RenderFailed('Headless browser is shutting down'))
    if (session != null) retire(session)
    await Promise.all([...retiring])
  })
}, { name: 'browser' })
