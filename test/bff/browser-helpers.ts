// A real browser in front of the web proxy: Debian's Chromium driven by playwright-core (the same executable discovery
// as plugins/external/browser.ts: CHROMIUM_PATH, else /usr/bin/chromium), the API and the proxy on real loopback ports,
// and a second local site (another port, so another origin) serving the hostile pages.
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { chromium, type Browser } from 'playwright-core'
import type { Test } from 'tap'
import { CHROMIUM_PATH } from '../helpers/chromium.js'
import { freePort } from '../helpers/net.js'
import { startBff, type Bff, type ProxyOptions } from './helpers.js'

export { chromiumMissing } from '../helpers/chromium.js'

/** platform.md's flags; one browser per test file, closed when the file ends. */
export async function launchChromium (t: Test): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    chromiumSandbox: false,
    args: ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-sandbox', '--no-proxy-server'],
    timeout: 30_000
  })
  t.teardown(async () => await browser.close())
  return browser
}

/** What the proxy answered, as it saw the request: the ground truth for requests whose answer a page cannot read. */
export interface ProxyAnswer {
  method: string
  url: string
  status: number
  origin?: string
  fetchSite?: string
  /** The request carried the session cookie. */
  cookie: boolean
  allowOrigin?: string
  resourcePolicy?: string
}

export interface BrowserBff extends Bff {
  /** Where the browser loads the page: `http://localhost:<proxy port>`, the proxy's only allowed origin. */
  pageOrigin: string
  /** Every request target the API received, as sent on the wire. */
  apiSaw: string[]
  proxyAnswered: ProxyAnswer[]
}

/**
 * The real API with the proxy in front, as server.ts starts them: both on 127.0.0.1, one configuration
 * (ALLOWED_ORIGINS is the proxy's own origin, `http://localhost:<BFF_PORT>`, the default when it is unset).
 */
export async function startBrowserBff (t: Test, options: ProxyOptions = {}): Promise<BrowserBff> {
  const port = await freePort()
  const pageOrigin = `http://localhost:${port}`
  const env = { ALLOWED_ORIGINS: pageOrigin, BFF_PORT: String(port), ...options.env }
  const apiSaw: string[] = []
  const record = (app: FastifyInstance): void => { app.addHook('onRequest', async request => { apiSaw.push(request.raw.url!) }) }
  const proxyAnswered: ProxyAnswer[] = []
  const answers = (proxy: FastifyInstance): void => {
    proxy.addHook('onResponse', async (request, reply) => {
      const header = (name: string) => typeof request.headers[name] === 'string' ? request.headers[name] : undefined
      const answerHeader = (name: string) => { const value = reply.getHeader(name); return value == null ? undefined : String(value) }
      proxyAnswered.push({
        method: request.method,
        url: request.raw.url!,
        status: reply.statusCode,
        origin: header('origin'),
        fetchSite: header('sec-fetch-site'),
        cookie: /(^|;\s*)auth_token=./.test(header('cookie') ?? ''),
        allowOrigin: answerHeader('access-control-allow-origin'),
        resourcePolicy: answerHeader('cross-origin-resource-policy')
      })
    })
  }
  const bff = await startBff(t, { ...options, env, port, extend: answers, api: { env, extend: record } })
  return { ...bff, pageOrigin, apiSaw, proxyAnswered }
}

export interface Site {
  port: number
  /** The site at `http://<host>:<port>`: 127.0.0.1 (another site than localhost) or localhost (same site, other port). */
  origin: (host: '127.0.0.1' | 'localhost') => string
  /** Serves `html` at `path` from now on. */
  page: (path: string, html: string) => void
  /** Requests the site received (method and path), e.g. a form's fallback. */
  received: string[]
}

/** A plain node HTTP server on another port: a different origin from the proxy's. */
export async function otherSite (t: Test): Promise<Site> {
  const pages = new Map<string, string>()
  const received: string[] = []
  const server = createServer((request: IncomingMessage, response) => {
    received.push(`${request.method} ${request.url}`)
    const html = pages.get(request.url ?? '')
    response.writeHead(html == null ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' })
    response.end(html ?? 'not found')
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  t.teardown(async () => { server.closeAllConnections(); await new Promise(resolve => server.close(resolve)) })
  const { port } = server.address() as AddressInfo
  return { port, origin: host => `http://${host}:${port}`, page: (path, html) => { pages.set(path, html) }, received }
}
