// The web proxy in front of the real API, both listening on real ports, plus the raw-socket and log tools the proxy
// tests need (inject normalises request targets, and the error tests must see what was logged).
import { connect, createServer, type AddressInfo, type Socket } from 'node:net'
import Fastify, { type FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { parse, type DefaultTreeAdapterMap } from 'parse5'
import { pino } from 'pino'
import type { Test } from 'tap'
import bff, { type BffOptions } from '../../bff/app.js'
import type { Config } from '../../config.js'
import { loggerOptions, serverOptions } from '../../server-options.js'
import { build, testConfig, type BuildOptions } from '../helper.js'

export const ORIGIN = 'https://app.example.com'

export interface ProxyOptions {
  /** Environment on top of the test defaults (ALLOWED_ORIGINS is ORIGIN; REDIS_URL as the tests run, undefined: none). */
  env?: Record<string, string | undefined>
  upstreamTimeoutMs?: number
  /** The proxy's own limits on /bff/auth/* (default: the production ones). */
  rateLimit?: BffOptions['rateLimit']
  /** Collects the proxy's log lines. */
  logs?: LogCapture
  /** Listen on this port (default: any free one). */
  port?: number
  /** Adds hooks to the proxy before it listens (e.g. to record what it answered). */
  extend?: (proxy: FastifyInstance) => void
}

export interface Proxy { proxy: FastifyInstance, config: Config, port: number }

const portOf = (server: { address: () => AddressInfo | string | null }): number => (server.address() as AddressInfo).port

/** The web proxy in front of `apiUrl`, listening on a free port. */
export async function startProxy (t: Test, apiUrl: string, options: ProxyOptions = {}): Promise<Proxy> {
  const config = await testConfig({ ALLOWED_ORIGINS: ORIGIN, ...options.env })
  const proxy = Fastify(serverOptions(config, options.logs != null ? { loggerInstance: options.logs.logger } : {}))
  await proxy.register(fp(bff), { config, apiUrl, upstreamTimeoutMs: options.upstreamTimeoutMs, rateLimit: options.rateLimit })
  options.extend?.(proxy)
  t.teardown(async () => await proxy.close())
  await proxy.listen({ port: options.port ?? 0, host: '127.0.0.1' })
  return { proxy, config, port: portOf(proxy.server) }
}

export interface Bff extends Proxy { api: FastifyInstance, apiUrl: string }

/** The real API on a free port with the web proxy in front of it. */
export async function startBff (t: Test, options: ProxyOptions & { api?: BuildOptions } = {}): Promise<Bff> {
  // An instance of its own: it listens on a port.
  const api = await build(t, { fresh: true, ...options.api })
  await api.listen({ port: 0, host: '127.0.0.1' })
  const apiUrl = `http://127.0.0.1:${portOf(api.server)}`
  return { api, apiUrl, ...await startProxy(t, apiUrl, options) }
}

type CodeIssuer = { issueCode: (userId: string) => Promise<{ code: string }> }

/**
 * A one-time sign-in code for `userId`, as the external sign-in flow would issue (that flow needs an identity
 * provider). The account service is being renamed (`accounts` -> `accountService`): either name works here.
 */
export async function issueSignInCode (api: FastifyInstance, userId: string): Promise<string> {
  const app = api as unknown as { accounts?: CodeIssuer, accountService?: CodeIssuer }
  const service = app.accountService ?? app.accounts
  if (service == null) throw new Error('no account service on the API instance')
  return (await service.issueCode(userId)).code
}

/** An API address where nothing listens (the API is down). */
export async function refusingApiUrl (): Promise<string> {
  const server = createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = portOf(server)
  await new Promise(resolve => server.close(resolve))
  return `http://127.0.0.1:${port}`
}

/** An API that accepts connections and never answers (a hung upstream). */
export async function silentApiUrl (t: Test): Promise<string> {
  const sockets = new Set<Socket>()
  const server = createServer(socket => { sockets.add(socket); socket.on('error', () => {}) })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  t.teardown(async () => {
    for (const socket of sockets) socket.destroy()
    await new Promise(resolve => server.close(resolve))
  })
  return `http://127.0.0.1:${portOf(server)}`
}

export interface RawResponse { statusCode: number, headers: Record<string, string>, body: string }

function parseResponse (raw: Buffer): RawResponse | null {
  const split = raw.indexOf('\r\n\r\n')
  if (split === -1) return null
  const [statusLine, ...headerLines] = raw.subarray(0, split).toString('latin1').split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of headerLines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
  }
  const body = raw.subarray(split + 4)
  // Every answer these tests read has a length (the proxy sends whole bodies); a short read is not complete yet.
  if (body.length < Number(headers['content-length'] ?? Infinity)) return null
  return { statusCode: Number(statusLine.split(' ')[1]), headers, body: body.toString('utf8') }
}

/** Sends `target` verbatim in the request line (inject and fetch would normalise it) and reads one response. */
export async function rawRequest (port: number, method: string, target: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const lines = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)]
  return await new Promise<RawResponse>((resolve, reject) => {
    let received = Buffer.alloc(0)
    const socket = connect(port, '127.0.0.1', () => socket.write(lines.join('\r\n') + '\r\n\r\n'))
    socket.on('data', chunk => {
      received = Buffer.concat([received, chunk])
      const response = parseResponse(received)
      if (response == null) return
      socket.destroy()
      resolve(response)
    })
    socket.on('end', () => reject(new Error(`connection closed before a whole response: ${received.toString('latin1')}`)))
    socket.on('error', reject)
  })
}

export interface LogCapture { logger: ReturnType<typeof pino>, lines: Array<Record<string, any>> }

/** A logger (with the production options) that keeps its lines for assertions. */
export function captureLogs (): LogCapture {
  const lines: Array<Record<string, any>> = []
  const stream = { write: (line: string) => { lines.push(JSON.parse(line)) } }
  return { logger: pino({ ...loggerOptions({ logLevel: 'info' }, false) as object }, stream), lines }
}

type HtmlNode = DefaultTreeAdapterMap['node']
export type HtmlElement = DefaultTreeAdapterMap['element']

function elementsOf (node: HtmlNode): HtmlElement[] {
  const children = 'childNodes' in node ? node.childNodes : []
  const content = node.nodeName === 'template' ? [(node as DefaultTreeAdapterMap['template']).content] : []
  return [...('tagName' in node ? [node] : []), ...[...children, ...content].flatMap(child => elementsOf(child as HtmlNode))]
}

/** Every element of an HTML document, template contents included, in document order (parse5, as a browser parses). */
export const htmlElements = (html: string): HtmlElement[] => elementsOf(parse(html) as unknown as HtmlNode)
