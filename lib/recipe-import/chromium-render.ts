// One render in headless Chromium (run by the browser worker, lib/recipe-import/chromium-worker.ts): a page whose HTML
// the safe fetcher already fetched, with its scripts run. It must not open a way around decisions.md "URL safety", so
// Chromium itself reaches nothing:
// - The main document is fulfilled from the given HTML; every other request the page makes is intercepted
//   (`context.route`) and answered with the body of `safeFetch` (the same checks as the import itself: public addresses
//   only, loopback only for the exact origins of IMPORT_ALLOW_ORIGINS, every redirect checked, the connection goes to
//   the checked address), or aborted. Images, media and fonts are aborted outright; so are non-http(s) schemes other
//   than data: and blob: (which never touch the network), methods other than GET/HEAD, new top-level navigations and
//   popups. Frames and workers of the page are requests like any other.
// - What interception does not see (measured: <link rel=preconnect> connections, speculation-rules prefetch and
//   prerender, WebSockets opened in workers, WebRTC STUN over UDP) is cut at the network layer: Chromium runs with a
//   proxy that does not exist, loopback included (`<-loopback>`), a host resolver that resolves nothing, and WebRTC
//   limited to proxied UDP (none). So no socket ever leaves Chromium; its only way out is the route handler.
// - Service workers are blocked, downloads refused, WebSockets closed, dialogs dismissed, no permissions granted.
import { setTimeout as sleep } from 'node:timers/promises'
import type { Browser as Chromium, BrowserContext, Page, Request, Route } from 'playwright-core'
import { FetchFailed, safeFetch, UrlNotAllowed } from './safe-fetch.js'

export interface RenderLimits {
  /** After the document is parsed: wait at most this long for the network to be quiet or a recipe marker. */
  settleMs: number
  /** "Quiet": no request of the page in flight for this long. */
  quietMs: number
  subresourceBytes: number
  subresourceTimeoutMs: number
  subresourceRedirects: number
  /** Requests answered per render (further ones are aborted) and their total bytes. */
  subresources: number
  totalBytes: number
  /** Longest HTML handed back. */
  htmlChars: number
}

export class RenderFailed extends Error {
  override name = 'RenderFailed'
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error'
export type Log = (level: LogLevel, msg: string, data?: Record<string, unknown>) => void

export const LAUNCH_ARGS = [
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

export interface RenderRequest {
  /** The page URL without its fragment (documentUrl). */
  target: string
  html: string
  limits: RenderLimits
  /** IMPORT_ALLOW_ORIGINS, for the safe fetcher. */
  allowOrigins: readonly string[]
  /** The render gives up (its caller's deadline or abort, or Chromium's exit). */
  signal: AbortSignal
  log: Log
}

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
export function documentUrl (pageUrl: string): string | null {
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
export async function untilAborted<T> (signal: AbortSignal, promise: Promise<T>): Promise<T> {
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

/**
 * Renders the page in a fresh context (no state shared between imports): the HTML after scripts ran (doctype and
 * `document.documentElement.outerHTML`). Throws RenderFailed, or the signal's reason once it aborted.
 */
export async function renderPage (browser: Chromium, request: RenderRequest): Promise<string> {
  const done = new AbortController()
  const signal = AbortSignal.any([request.signal, done.signal])
  const { limits } = request
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
      await answer(route, route.request(), request, state, signal)
    }))
    const page = await untilAborted(signal, context.newPage())
    // Popups (window.open, target=_blank): their navigation is aborted anyway; close them.
    context.on('page', popup => { if (popup !== page) popup.close().catch(noop) })
    page.on('dialog', dialog => { dialog.dismiss().catch(noop) })
    await untilAborted(signal, page.goto(request.target, { waitUntil: 'commit', timeout: 0 }))
    // Parsed, by the document's own state: a page that starts a navigation while parsing stops its parser and never
    // fires DOMContentLoaded (the navigation itself is answered 204 below and goes nowhere).
    await untilAborted(signal, page.waitForFunction("document.readyState !== 'loading'", undefined, { timeout: 0, polling: 50 }))
    await settle(page, state, limits, signal)
    const content = await untilAborted(signal, page.content())
    if (content.length > limits.htmlChars) throw new RenderFailed(`Rendered HTML longer than ${limits.htmlChars} characters`)
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
async function settle (page: Page, state: RenderState, limits: RenderLimits, signal: AbortSignal): Promise<void> {
  const stop = new AbortController()
  const quiet = async (): Promise<void> => {
    while (state.inFlight > 0 || Date.now() - state.lastActivity < limits.quietMs) {
      await sleep(50, undefined, { signal: stop.signal })
    }
  }
  const waits = [
    quiet(),
    page.waitForFunction(RECIPE_MARKER, undefined, { timeout: limits.settleMs, polling: 100 }),
    sleep(limits.settleMs, undefined, { signal: stop.signal })
  ]
  for (const wait of waits) wait.catch(noop)
  try {
    await untilAborted(signal, Promise.any(waits)).catch(err => { if (signal.aborted) throw err })
  } finally {
    stop.abort()
  }
}

async function answer (route: Route, request: Request, render: RenderRequest, state: RenderState, signal: AbortSignal): Promise<void> {
  const { limits } = render
  const url = request.url()
  state.inFlight++
  state.lastActivity = Date.now()
  try {
    const topLevel = request.isNavigationRequest() && request.frame().parentFrame() == null
    if (topLevel && !state.documentServed && url === render.target) {
      state.documentServed = true
      await route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: render.html })
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
      (method !== 'GET' && method !== 'HEAD') || ++state.requests > limits.subresources || state.bytes >= limits.totalBytes) {
      await route.abort('blockedbyclient')
      return
    }
    const sent = request.headers()
    const headers: Record<string, string> = {}
    for (const name of FORWARDED_REQUEST) if (sent[name] != null) headers[name] = sent[name]
    const response = await safeFetch(url, {
      allowOrigins: render.allowOrigins,
      method,
      headers,
      signal,
      timeoutMs: limits.subresourceTimeoutMs,
      maxBytes: Math.min(limits.subresourceBytes, limits.totalBytes - state.bytes),
      maxRedirects: limits.subresourceRedirects,
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
      render.log('debug', 'render subresource failed', { err: (err as Error)?.message, url })
    }
    await route.abort(err instanceof UrlNotAllowed ? 'blockedbyclient' : 'failed').catch(noop)
  } finally {
    state.inFlight--
    state.lastActivity = Date.now()
  }
}
