// Headless Chromium for recipe import: renders a page whose HTML the safe fetcher already fetched, so that recipes built
// by scripts can be read. It must not open a way around decisions.md "URL safety", so Chromium itself reaches nothing:
// - The main document is fulfilled from the given HTML; every other request the page makes is intercepted
//   (`context.route`) and answered with the body of `safeFetch` (the same checks as the import itself: public addresses
//   only unless IMPORT_ALLOW_PRIVATE_HOSTS, every redirect checked, the connection goes to the checked address), or
//   aborted. Images, media and fonts are aborted outright; so are non-http(s) schemes other than data: and blob: (which
//   never touch the network), methods other than GET/HEAD, new top-level navigations and popups.
// - What interception does not see (measured: <link rel=preconnect> connections, speculation-rules prefetch and
//   prerender, WebSockets opened in workers, WebRTC STUN over UDP) is cut at the network layer: Chromium runs with a
//   proxy that does not exist, loopback included (`<-loopback>`), a host resolver that resolves nothing, and WebRTC
//   limited to proxied UDP (none). So no socket ever leaves Chromium; its only way out is the route handler.
// - Service workers are blocked, downloads refused, WebSockets closed, dialogs dismissed, no permissions granted.
// One Chromium per instance, launched on first use and relaunched on the next render after it dies; a fresh context per
// render (no state shared between imports); at most RENDER_LIMITS.concurrent renders at once, a bounded queue behind.
import { existsSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import fp from 'fastify-plugin'
import type { Browser as Chromium, BrowserContext, Page, Request, Route } from 'playwright-core'
import { FetchFailed, safeFetch, UrlNotAllowed } from '../../lib/recipe-import/safe-fetch.js'

export interface RenderOptions {
  /** The whole render, queueing and launch included (default RENDER_LIMITS.timeoutMs). */
  timeoutMs?: number
  signal?: AbortSignal
}

export interface Browser {
  /** Whether a Chromium executable is configured and present. */
  available: boolean
  /**
   * Renders a page whose HTML was already fetched by the safe fetcher: returns the HTML after scripts ran (doctype and
   * `document.documentElement.outerHTML`), or throws (BrowserUnavailable, BrowserBusy, RenderTimeout, RenderFailed,
   * or the signal's reason).
   */
  render: (pageUrl: string, html: string, options?: RenderOptions) => Promise<string>
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

export class RenderFailed extends Error {
  override name = 'RenderFailed'
}

export class RenderTimeout extends RenderFailed {
  override name = 'RenderTimeout'
  constructor (timeoutMs: number) { super(`Render did not finish within ${timeoutMs} ms`) }
}

const DEFAULT_CHROMIUM = '/usr/bin/chromium'

const LAUNCH_ARGS = [
  // platform.md
  '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-sandbox', '--mute-audio',
  // The network layer reaches nothing (see the top of this file): a proxy that cannot resolve, loopback not exempt,
  // no host name (or IP literal) resolves, and WebRTC may use proxied UDP only.
  '--proxy-server=socks5://blackhole.invalid:9',
  '--proxy-bypass-list=<-loopback>',
  '--host-resolver-rules=MAP * ~NOTFOUND',
  '--force-webrtc-ip-handling-policy',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp'
]

const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36 RecipePlatformImporter/1.0'

/** Not needed to read a recipe; long-lived streams would hold a fetch open. */
const SKIPPED_TYPES = new Set(['image', 'media', 'font', 'texttrack', 'manifest', 'eventsource', 'websocket', 'ping'])
const SKIPPED_CONTENT = /^(image|audio|video|font)\//i
/** Request headers passed on to the safe fetcher; everything else (cookies, authorization...) stays in Chromium. */
const FORWARDED_REQUEST = ['accept', 'accept-language', 'referer', 'user-agent', 'x-requested-with']
/** Response headers not handed to Chromium: the body is already decoded and complete; no cookies kept. */
const DROPPED_RESPONSE = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'set-cookie', 'set-cookie2'])

/** A recipe in the document: schema.org JSON-LD or microdata. Runs in the page, so it is a string. */
const RECIPE_MARKER = `Array.from(document.querySelectorAll('script[type="application/ld+json"]')).some(s => /Recipe/.test(s.textContent || ''))
  || document.querySelector('[itemtype*="schema.org/Recipe" i]') != null`

const noop = (): void => {}

interface Running { browser: Chromium, lost: AbortSignal }

interface RenderState {
  /** The given HTML was handed out (once, to the first top-level navigation to the page URL). */
  documentServed: boolean
  /** Requests passed to the safe fetcher, and their bytes. */
  requests: number
  bytes: number
  /** Requests being answered now, and when the last one started or ended. */
  inFlight: number
  lastActivity: number
}

/** The page URL without its fragment (requests never carry one), or null when it is not http(s). */
function documentUrl (pageUrl: string): string | null {
  let url: URL
  try {
    url = new URL(pageUrl)
  } catch {
    return null
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
  url.hash = ''
  return url.href
}

/** Settles with `promise`, or rejects with the signal's reason as soon as it aborts. */
async function untilAborted<T> (signal: AbortSignal, promise: Promise<T>): Promise<T> {
  signal.throwIfAborted()
  let onAbort = noop
  try {
    return await Promise.race([promise, new Promise<never>((_resolve, reject) => {
      onAbort = () => { reject(signal.reason) }
      signal.addEventListener('abort', onAbort, { once: true })
    })])
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}

export default fp(async fastify => {
  const { config, log } = fastify
  const executablePath = config.chromiumPath ?? (existsSync(DEFAULT_CHROMIUM) ? DEFAULT_CHROMIUM : undefined)
  const available = executablePath != null && existsSync(executablePath)
  const allowPrivate = config.importAllowPrivateHosts

  let closing = false
  let running: Promise<Running> | null = null
  let active = 0
  const waiting: Array<{ resolve: () => void, reject: (err: unknown) => void }> = []

  function launch (): Promise<Running> {
    const launched: Promise<Running> = (async () => {
      const started = Date.now()
      // Loaded on the first render: playwright-core adds about 80 MB to every instance that imports it.
      const { chromium } = await import('playwright-core')
      const browser = await chromium.launch({
        executablePath,
        headless: true,
        chromiumSandbox: false,
        args: LAUNCH_ARGS,
        // The app's own graceful close (onClose below) ends Chromium; Playwright still kills it if the process exits.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        timeout: 30_000
      })
      const lost = new AbortController()
      browser.on('disconnected', () => {
        lost.abort(new RenderFailed('Chromium exited during the render'))
        if (running === launched) running = null
        if (!closing) log.warn('headless browser exited; it is relaunched on the next render')
      })
      log.info({ ms: Date.now() - started, version: browser.version() }, 'headless browser launched')
      return { browser, lost: lost.signal }
    })().catch(err => {
      if (running === launched) running = null
      log.error({ err }, 'headless browser failed to launch')
      throw new RenderFailed(`Chromium failed to start: ${(err as Error).message?.split('\n')[0]}`, { cause: err })
    })
    return launched
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

  async function renderIn ({ browser, lost }: Running, target: string, html: string, outer: AbortSignal): Promise<string> {
    const done = new AbortController()
    const signal = AbortSignal.any([outer, lost, done.signal])
    const creating = browser.newContext({
      serviceWorkers: 'block',
      acceptDownloads: false,
      permissions: [],
      viewport: { width: 1280, height: 800 },
      userAgent: USER_AGENT,
      locale: 'en-US',
      timezoneId: 'UTC',
      javaScriptEnabled: true,
      bypassCSP: false
    })
    // A context that arrives after the render gave up is closed at once.
    creating.then(async context => { if (signal.aborted) await context.close() }).catch(noop)
    let context: BrowserContext | undefined
    const closeContext = (): void => { context?.close().catch(noop) }
    signal.addEventListener('abort', closeContext, { once: true })
    try {
      context = await untilAborted(signal, creating)
      const state: RenderState = { documentServed: false, requests: 0, bytes: 0, inFlight: 0, lastActivity: Date.now() }
      await untilAborted(signal, context.routeWebSocket(() => true, ws => { ws.close({ code: 1008, reason: 'not allowed' }).catch(noop) }))
      await untilAborted(signal, context.route('**/*', async route => {
        await answer(route, route.request(), target, html, state, signal)
      }))
      const page = await untilAborted(signal, context.newPage())
      // Popups (window.open, target=_blank): their navigation is aborted anyway; close them.
      context.on('page', popup => { if (popup !== page) popup.close().catch(noop) })
      page.on('dialog', dialog => { dialog.dismiss().catch(noop) })
      await untilAborted(signal, page.goto(target, { waitUntil: 'commit', timeout: 0 }))
      // Parsed, by the document's own state: a page that starts a navigation while parsing stops its parser and never
      // fires DOMContentLoaded (the navigation itself is answered 204 below and goes nowhere).
      await untilAborted(signal, page.waitForFunction("document.readyState !== 'loading'", undefined, { timeout: 0, polling: 50 }))
      await settle(page, state, signal)
      const content = await untilAborted(signal, page.content())
      if (content.length > RENDER_LIMITS.htmlChars) throw new RenderFailed(`Rendered HTML longer than ${RENDER_LIMITS.htmlChars} characters`)
      return content
    } catch (err) {
      if (signal.aborted) throw signal.reason
      if (err instanceof RenderFailed) throw err
      throw new RenderFailed(`Render failed: ${(err as Error).message?.split('\n')[0] ?? String(err)}`, { cause: err })
    } finally {
      signal.removeEventListener('abort', closeContext)
      done.abort()
      // Bounded: a hung Chromium must not hold the slot (a dead one resolves at once).
      await Promise.race([context?.close().catch(noop), sleep(5000, undefined, { ref: false })])
    }
  }

  /** A quiet network (the page's requests, counted by the route handler), a recipe marker, or the settle cap. */
  async function settle (page: Page, state: RenderState, signal: AbortSignal): Promise<void> {
    const stop = new AbortController()
    const quiet = async (): Promise<void> => {
      while (state.inFlight > 0 || Date.now() - state.lastActivity < RENDER_LIMITS.quietMs) {
        await sleep(50, undefined, { signal: stop.signal })
      }
    }
    const waits = [
      quiet(),
      page.waitForFunction(RECIPE_MARKER, undefined, { timeout: RENDER_LIMITS.settleMs, polling: 100 }),
      sleep(RENDER_LIMITS.settleMs, undefined, { signal: stop.signal })
    ]
    for (const wait of waits) wait.catch(noop)
    try {
      await untilAborted(signal, Promise.any(waits)).catch(err => { if (signal.aborted) throw err })
    } finally {
      stop.abort()
    }
  }

  async function answer (route: Route, request: Request, target: string, html: string, state: RenderState,
    signal: AbortSignal): Promise<void> {
    const url = request.url()
    state.inFlight++
    state.lastActivity = Date.now()
    try {
      const topLevel = request.isNavigationRequest() && request.frame().parentFrame() == null
      if (topLevel && !state.documentServed && url === target) {
        state.documentServed = true
        await route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html })
        return
      }
      const scheme = url.slice(0, url.indexOf(':') + 1).toLowerCase()
      if (scheme === 'data:' || scheme === 'blob:') {
        await route.continue()
        return
      }
      if (topLevel) {
        // The page stays the one given: a new top-level navigation (location, form, refresh, popup) gets 204 No Content,
        // which keeps the current document (an abort would replace it with an error page).
        await route.fulfill({ status: 204, body: '' })
        return
      }
      const method = request.method()
      if ((scheme !== 'http:' && scheme !== 'https:') || SKIPPED_TYPES.has(request.resourceType()) ||
        (method !== 'GET' && method !== 'HEAD') || ++state.requests > RENDER_LIMITS.subresources || state.bytes >= RENDER_LIMITS.totalBytes) {
        await route.abort('blockedbyclient')
        return
      }
      const sent = request.headers()
      const headers: Record<string, string> = {}
      for (const name of FORWARDED_REQUEST) if (sent[name] != null) headers[name] = sent[name]
      const response = await safeFetch(url, {
        allowPrivate,
        method,
        headers,
        signal,
        timeoutMs: RENDER_LIMITS.subresourceTimeoutMs,
        maxBytes: Math.min(RENDER_LIMITS.subresourceBytes, RENDER_LIMITS.totalBytes - state.bytes),
        maxRedirects: RENDER_LIMITS.subresourceRedirects,
        accept: contentType => !SKIPPED_CONTENT.test(contentType)
      })
      state.bytes += response.body.length
      const responseHeaders: Record<string, string> = {}
      for (const [name, value] of Object.entries(response.headers)) {
        if (!DROPPED_RESPONSE.has(name.toLowerCase())) responseHeaders[name] = value
      }
      await route.fulfill({ status: response.status, headers: responseHeaders, body: response.body })
    } catch (err) {
      if (err instanceof FetchFailed && err.status != null && err.status >= 400 && err.status <= 599) {
        // The page sees the site's error status, as it would in a browser.
        await route.fulfill({ status: err.status, body: '' }).catch(noop)
        return
      }
      if (!(err instanceof UrlNotAllowed) && !(err instanceof FetchFailed) && !signal.aborted) {
        log.debug({ err, url }, 'render subresource failed')
      }
      await route.abort(err instanceof UrlNotAllowed ? 'blockedbyclient' : 'failed').catch(noop)
    } finally {
      state.inFlight--
      state.lastActivity = Date.now()
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
        running ??= launch()
        const browser = await untilAborted(signal, running)
        return await renderIn(browser, target, html, signal)
      } finally {
        release()
      }
    } finally {
      clearTimeout(timer)
    }
  }

  fastify.decorate('browser', { available, render } satisfies Browser)

  fastify.addHook('onClose', async () => {
    closing = true
    for (const waiter of waiting.splice(0)) waiter.reject(new RenderFailed('Headless browser is shutting down'))
    const current = running
    running = null
    if (current == null) return
    const launched = await current.catch(() => null)
    if (launched == null) return
    await Promise.race([launched.browser.close().catch(noop), sleep(10_000, undefined, { ref: false })])
  })
}, { name: 'browser' })
