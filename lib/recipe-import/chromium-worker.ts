// The headless browser's thread (started by plugins/external/browser.ts). Playwright lives here, not on the API's
// event loop: loading playwright-core reads and compiles about 7 MB of JavaScript in one synchronous step (measured
// 0.3 s on an idle machine, 0.5 s under coverage, 3.7 s on a loaded one), and its protocol traffic (every intercepted
// request, the rendered HTML) is work of this thread too. Chromium is launched on the first render and relaunched on
// the next render after it dies; the plugin ends this thread (and so unloads Playwright) when it closes Chromium.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Browser as Chromium } from 'playwright-core'
import { LAUNCH_ARGS, type Log, type RenderLimits, RenderFailed, renderPage, untilAborted } from './chromium-render.js'

/** Given once, when the thread starts. */
export interface WorkerSettings {
  executablePath: string
  /** IMPORT_ALLOW_ORIGINS. */
  allowOrigins: string[]
}

export type ToWorker =
  | { type: 'render', id: number, target: string, html: string, limits: RenderLimits }
  | { type: 'abort', id: number }
  /** Close Chromium; the thread answers `closed` and is then ended by the plugin. */
  | { type: 'close' }

export type FromWorker =
  | { type: 'rendered', id: number, html: string }
  /** Any failure; the plugin answers with its own signal's reason when it had aborted the render. */
  | { type: 'failed', id: number, message: string }
  | { type: 'log', level: Parameters<Log>[0], msg: string, data?: Record<string, unknown> }
  | { type: 'closed' }

interface Running { browser: Chromium, lost: AbortSignal }

const firstLine = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0]

function serve (port: MessagePort, { executablePath, allowOrigins }: WorkerSettings): void {
  const post = (message: FromWorker): void => { port.postMessage(message) }
  const log: Log = (level, msg, data) => { post({ type: 'log', level, msg, data }) }
  let closing = false
  let running: Promise<Running> | null = null
  const renders = new Map<number, AbortController>()

  function launch (): Promise<Running> {
    const launched: Promise<Running> = (async () => {
      const started = Date.now()
      const { chromium } = await import('playwright-core')
      const browser = await chromium.launch({
        executablePath,
        headless: true,
        chromiumSandbox: false,
        args: LAUNCH_ARGS,
        // The plugin's close (and the app's graceful close) ends Chromium; Playwright still kills it if the process exits.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        timeout: 30_000
      })
      const lost = new AbortController()
      browser.on('disconnected', () => {
        lost.abort(new RenderFailed('Chromium exited during the render'))
        if (running === launched) running = null
        if (!closing) log('warn', 'headless browser exited; it is relaunched on the next render')
      })
      log('info', 'headless browser launched', { ms: Date.now() - started, version: browser.version() })
      return { browser, lost: lost.signal }
    })().catch((err: unknown) => {
      if (running === launched) running = null
      log('error', 'headless browser failed to launch', { err: firstLine(err) })
      throw new RenderFailed(`Chromium failed to start: ${firstLine(err)}`, { cause: err })
    })
    return launched
  }

  async function render ({ id, target, html, limits }: Extract<ToWorker, { type: 'render' }>): Promise<void> {
    const controller = new AbortController()
    renders.set(id, controller)
    try {
      if (closing) throw new RenderFailed('Headless browser is shutting down')
      running ??= launch()
      const { browser, lost } = await untilAborted(controller.signal, running)
      const signal = AbortSignal.any([controller.signal, lost])
      post({ type: 'rendered', id, html: await renderPage(browser, { target, html, limits, allowOrigins, signal, log }) })
    } catch (err) {
      post({ type: 'failed', id, message: err instanceof Error ? err.message : String(err) })
    } finally {
      renders.delete(id)
    }
  }

  async function close (): Promise<void> {
    closing = true
    const current = running
    running = null
    const launched = await current?.catch(() => null)
    if (launched != null) await Promise.race([launched.browser.close().catch(() => {}), sleep(10_000, undefined, { ref: false })])
    post({ type: 'closed' })
  }

  port.on('message', (message: ToWorker) => {
    switch (message.type) {
      case 'render': render(message).catch(() => {}); break // render answers every failure itself
      case 'abort': renders.get(message.id)?.abort(new RenderFailed('Render aborted')); break
      case 'close': close().catch(() => {}); break
    }
  })
}

if (parentPort != null) serve(parentPort, workerData as WorkerSettings)
