// The one way the recipe import fetches anything server-side (pages, images, every request of the headless browser):
// decisions.md "URL safety". Per hop: http/https only, no credentials, ports 80/443, every resolved address public
// unicast, and the connection goes to the address that was checked (so DNS rebinding cannot swap it). Redirects are
// followed by hand with the same checks; one deadline covers every hop and the body; the body is capped after
// decompression. The test setting (allowOrigins) exempts exact origins from the port rule and admits loopback for them.
import { promises as dns } from 'node:dns'
import http, { type IncomingMessage } from 'node:http'
import https from 'node:https'
import net from 'node:net'
import { pipeline, Transform, type TransformCallback, type Readable } from 'node:stream'
import zlib from 'node:zlib'
import { addressAllowed, isPublicAddress } from './address.js'
import { originSet } from './allowed-origins.js'

export { isPublicAddress }

/** The URL, or an address or redirect hop of it, is refused (routes answer 400 `URL not allowed`). */
export class UrlNotAllowed extends Error {
  constructor (message = 'URL not allowed', options?: ErrorOptions) {
    super(message, options)
    this.name = 'UrlNotAllowed'
  }
}

/** Timeout, too large, wrong content type, upstream 4xx/5xx (`status`), DNS or connection errors. */
export class FetchFailed extends Error {
  constructor (message: string, readonly status?: number, options?: ErrorOptions) {
    super(message, options)
    this.name = 'FetchFailed'
  }
}

export interface SafeFetchOptions {
  /**
   * IMPORT_ALLOW_ORIGINS (tests only): exact origins (`http://127.0.0.1:4567`). A URL of one of them, first or any
   * redirect hop, may use its port and reach loopback addresses (127.0.0.0/8, ::1, ::ffff:127.x). Nothing else: another
   * port or name of the same host is checked as in production, and link-local/metadata (169.254/16, fd00:ec2::254),
   * RFC 1918, CGNAT... stay refused even for these origins.
   */
  allowOrigins?: readonly string[]
  /** Total deadline across DNS, every hop and the body, default 15000. */
  timeoutMs?: number
  /** Cap on the (decompressed) body, default 5 MB. */
  maxBytes?: number
  /** Redirects followed at most, default 5. */
  maxRedirects?: number
  /**
   * Default true. False: a redirect is not followed but answered as it came (status 3xx, `location` among the
   * headers, empty body), for callers that check each hop themselves (the video import's platform hosts).
   */
  followRedirects?: boolean
  /** Given the media type (lowercase, no parameters; '' when absent); default: text/html, application/xhtml+xml. */
  accept?: (contentType: string) => boolean
  method?: 'GET' | 'HEAD'
  /** Extra request headers. Hop-by-hop, Host, Cookie, Authorization and Accept-Encoding are dropped. */
  headers?: Record<string, string>
  signal?: AbortSignal
  /** Injectable resolver (tests); default dns.promises.lookup(hostname, { all: true }). Called once per hop. */
  lookup?: (hostname: string) => Promise<Array<{ address: string, family: 4 | 6 }>>
}

export interface SafeResponse {
  /** Final URL after redirects. */
  url: string
  status: number
  /**
   * Response headers (lowercase names, repeated values joined with ', '). For GET, content-encoding and
   * transfer-encoding are removed (the body is decoded) and content-length is the decoded body's length when the body
   * was decompressed.
   */
  headers: Record<string, string>
  /** Media type, lowercase without parameters ('' when absent); the full value is headers['content-type']. */
  contentType: string
  body: Buffer
}

export const DEFAULT_TIMEOUT_MS = 15_000
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024
export const DEFAULT_MAX_REDIRECTS = 5
export const USER_AGENT = 'Mozilla/5.0 (compatible; RecipePlatformImporter/1.0)'

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml'])
const defaultAccept = (contentType: string): boolean => HTML_TYPES.has(contentType)

const REDIRECTS = new Set([301, 302, 303, 307, 308])
const DEFAULT_PORT: Record<string, number> = { 'http:': 80, 'https:': 443 }
const ALLOWED_PORTS = new Set([80, 443])
/** Request headers a caller may not set: we own the connection, the encoding, and never send credentials. */
const DROPPED_HEADERS = new Set([
  'host', 'connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'transfer-encoding', 'te', 'trailer',
  'upgrade', 'content-length', 'expect', 'cookie', 'authorization', 'accept-encoding'
])
const MAX_ENCODINGS = 3

/** The host of a URL without IPv6 brackets. */
const bareHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1')

/** Whether the URL's origin is one the test setting names (then loopback is allowed for it, and its port). */
const exempt = (url: URL, allowed: ReadonlySet<string>): boolean => allowed.has(url.origin)

/**
 * Checks scheme, credentials and port of a URL (no DNS); throws UrlNotAllowed. A host written as an IP address
 * (WHATWG parsing has already turned 2130706433, 0x7f.1, 017700000001 into 127.0.0.1) must pass the address rule too,
 * and `localhost` names are refused unless the URL's origin is one of `allowOrigins` (tests).
 */
export function checkUrl (url: string, allowOrigins: Iterable<string> = []): URL {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new UrlNotAllowed('URL not allowed: not an absolute URL')
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UrlNotAllowed(`URL not allowed: scheme ${parsed.protocol}`)
  }
  if (parsed.username !== '' || parsed.password !== '') throw new UrlNotAllowed('URL not allowed: credentials in the URL')
  const loopbackAllowed = exempt(parsed, originSet(allowOrigins))
  const port = parsed.port === '' ? DEFAULT_PORT[parsed.protocol] : Number(parsed.port)
  if (!loopbackAllowed && !ALLOWED_PORTS.has(port)) throw new UrlNotAllowed(`URL not allowed: port ${port}`)
  const host = bareHost(parsed).toLowerCase()
  if (host === '') throw new UrlNotAllowed('URL not allowed: no host')
  if (net.isIP(host) !== 0) {
    if (!addressAllowed(host, loopbackAllowed)) throw new UrlNotAllowed(`URL not allowed: address ${host}`)
  } else if (!loopbackAllowed && /(^|\.)localhost\.?$/.test(host)) {
    throw new UrlNotAllowed('URL not allowed: localhost')
  }
  return parsed
}

/** Rejects with the signal's reason as soon as it aborts. */
function abortable<T> (promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => { reject(signal.reason) }
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      value => { signal.removeEventListener('abort', onAbort); resolve(value) },
      (error: unknown) => { signal.removeEventListener('abort', onAbort); reject(error) })
  })
}

const defaultLookup = async (hostname: string): Promise<Array<{ address: string, family: 4 | 6 }>> =>
  (await dns.lookup(hostname, { all: true, verbatim: true })).map(a => ({ address: a.address, family: a.family === 6 ? 6 : 4 }))

interface Target { address: string, family: 4 | 6 }

/** Resolves the URL's host once and checks every address; the first one is where the connection goes. */
async function resolveTarget (url: URL, loopbackAllowed: boolean, options: SafeFetchOptions, signal: AbortSignal): Promise<Target> {
  const host = bareHost(url)
  if (net.isIP(host) !== 0) return { address: host, family: net.isIP(host) === 6 ? 6 : 4 } // checked by checkUrl
  let addresses: Array<{ address: string }>
  try {
    addresses = await abortable((options.lookup ?? defaultLookup)(host), signal)
  } catch (error) {
    if (signal.aborted) throw signal.reason
    throw new FetchFailed(`could not resolve ${host}`, undefined, { cause: error })
  }
  if (!Array.isArray(addresses) || addresses.length === 0) throw new FetchFailed(`could not resolve ${host}`)
  for (const { address } of addresses) {
    if (!addressAllowed(address, loopbackAllowed)) {
      throw new UrlNotAllowed(`URL not allowed: ${host} resolves to ${String(address)}`)
    }
  }
  const address = addresses[0].address
  return { address, family: net.isIP(address) === 6 ? 6 : 4 }
}

/** A `lookup` for net.connect that answers the already checked address, whatever it is asked. */
function pinnedLookup (target: Target): net.LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all === true) callback(null, [{ address: target.address, family: target.family }])
    else callback(null, target.address, target.family)
  }) as unknown as net.LookupFunction
}

function requestHeaders (options: SafeFetchOptions, url: URL): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': USER_AGENT,
    accept: options.accept == null ? 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1' : '*/*',
    'accept-language': 'en;q=0.9, *;q=0.5'
  }
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    const key = name.toLowerCase()
    if (!DROPPED_HEADERS.has(key) && typeof value === 'string') headers[key] = value
  }
  headers['accept-encoding'] = 'gzip, deflate, br'
  headers.host = url.host
  return headers
}

/** One request to the pinned address; resolves with the response head. */
function send (url: URL, target: Target, method: 'GET' | 'HEAD', headers: Record<string, string>,
  signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) { reject(signal.reason); return }
    const host = bareHost(url)
    const isHttps = url.protocol === 'https:'
    const requestOptions: https.RequestOptions = {
      protocol: url.protocol,
      host,
      port: url.port === '' ? DEFAULT_PORT[url.protocol] : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method,
      headers,
      setHost: false,
      agent: false, // a fresh connection: never a pooled socket that went to another address
      family: target.family,
      lookup: pinnedLookup(target)
    }
    if (isHttps && net.isIP(host) === 0) requestOptions.servername = host.replace(/\.$/, '')
    let request: http.ClientRequest
    try {
      request = (isHttps ? https : http).request(requestOptions)
    } catch (error) {
      reject(error)
      return
    }
    const onAbort = (): void => { request.destroy(); reject(signal.reason) }
    signal.addEventListener('abort', onAbort, { once: true })
    request.on('response', response => {
      signal.removeEventListener('abort', onAbort)
      resolve(response)
    })
    request.on('error', error => {
      signal.removeEventListener('abort', onAbort)
      reject(error)
    })
    request.end()
  })
}

/** `Content-Encoding: deflate` is zlib-wrapped by the standard and raw deflate from some servers: pick by the first byte. */
class AutoInflate extends Transform {
  private inner: zlib.Inflate | zlib.InflateRaw | null = null

  override _transform (chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (chunk.length === 0) { callback(); return }
    if (this.inner == null) {
      const inner = (chunk[0] & 0x0f) === 0x08 ? zlib.createInflate() : zlib.createInflateRaw()
      inner.on('data', (data: Buffer) => this.push(data))
      inner.on('error', error => { this.destroy(error) })
      this.inner = inner
    }
    this.inner.write(chunk, () => { callback() })
  }

  override _flush (callback: TransformCallback): void {
    if (this.inner == null) { callback(); return }
    this.inner.once('end', () => { callback() })
    this.inner.end()
  }

  override _destroy (error: Error | null, callback: (error?: Error | null) => void): void {
    this.inner?.destroy()
    callback(error)
  }
}

/** Fails the stream once more than `maxBytes` pass through it. */
function byteLimit (maxBytes: number): Transform {
  let seen = 0
  return new Transform({
    transform (chunk: Buffer, _encoding, callback) {
      seen += chunk.length
      if (seen > maxBytes) callback(new FetchFailed(`response too large: more than ${maxBytes} bytes`))
      else callback(null, chunk)
    }
  })
}

function decoders (contentEncoding: string | undefined): Transform[] {
  const codings = (contentEncoding ?? '').split(',').map(c => c.trim().toLowerCase()).filter(c => c !== '' && c !== 'identity')
  if (codings.length > MAX_ENCODINGS) throw new FetchFailed('too many content encodings')
  // Applied in the order listed, so decoded in reverse.
  return codings.reverse().map(coding => {
    switch (coding) {
      case 'gzip':
      case 'x-gzip':
        return zlib.createGunzip()
      case 'deflate':
        return new AutoInflate()
      case 'br':
        return zlib.createBrotliDecompress()
      default:
        throw new FetchFailed(`unsupported content encoding ${coding}`)
    }
  })
}

/** Reads the body through the decoders; fails as soon as the decoded (or raw) size passes maxBytes. */
async function readBody (response: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<{ body: Buffer, decoded: boolean }> {
  const length = response.headers['content-length']
  let chain: Transform[]
  try {
    if (length != null && /^\d+$/.test(length) && Number(length) > maxBytes) {
      throw new FetchFailed(`response too large: content-length ${length} > ${maxBytes} bytes`)
    }
    chain = decoders(response.headers['content-encoding'])
  } catch (error) {
    response.destroy()
    throw error
  }
  // Without decoders the loop below counts the raw bytes; with them, the compressed stream is capped as well.
  const source: Readable = chain.length === 0
    ? response
    : pipeline([response, byteLimit(maxBytes), ...chain], () => {}) as unknown as Readable
  const onAbort = (): void => { source.destroy(signal.reason); response.destroy() }
  signal.addEventListener('abort', onAbort, { once: true })
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of source) {
      size += (chunk as Buffer).length
      if (size > maxBytes) throw new FetchFailed(`response too large: more than ${maxBytes} bytes`)
      chunks.push(chunk as Buffer)
    }
  } finally {
    signal.removeEventListener('abort', onAbort)
    source.destroy()
    response.destroy()
  }
  if (signal.aborted) throw signal.reason
  return { body: Buffer.concat(chunks, size), decoded: chain.length > 0 }
}

function flatHeaders (response: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(response.headers)) {
    if (value != null) headers[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return headers
}

const mediaType = (value: string | undefined): string => (value ?? '').split(';')[0].trim().toLowerCase()

/**
 * Fetches a URL under the URL safety rules. Throws UrlNotAllowed when the URL or any hop is refused, FetchFailed for
 * everything else that goes wrong (non-2xx final status with `status`).
 */
export async function safeFetch (url: string, options: SafeFetchOptions = {}): Promise<SafeResponse> {
  const allowed = originSet(options.allowOrigins)
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS
  const method = options.method ?? 'GET'
  const accept = options.accept ?? defaultAccept

  const controller = new AbortController()
  const signal = controller.signal
  const timer = setTimeout(() => { controller.abort(new FetchFailed(`timed out after ${timeoutMs} ms`)) }, timeoutMs)
  const onCallerAbort = (): void => { controller.abort(new FetchFailed('aborted', undefined, { cause: options.signal?.reason })) }
  if (options.signal?.aborted === true) onCallerAbort()
  else options.signal?.addEventListener('abort', onCallerAbort, { once: true })

  try {
    let current = checkUrl(url, allowed)
    for (let redirects = 0; ; redirects++) {
      const target = await resolveTarget(current, exempt(current, allowed), options, signal)
      const response = await send(current, target, method, requestHeaders(options, current), signal)
      response.on('error', () => {}) // errors surface through reading; never as an unhandled event
      const status = response.statusCode ?? 0
      const location = response.headers.location
      if (REDIRECTS.has(status) && location != null && location !== '') {
        response.destroy()
        if (options.followRedirects === false) {
          return { url: current.href, status, headers: flatHeaders(response), contentType: mediaType(response.headers['content-type']), body: Buffer.alloc(0) }
        }
        if (redirects >= maxRedirects) throw new FetchFailed(`too many redirects (more than ${maxRedirects})`)
        let next: URL
        try {
          next = new URL(location, current)
        } catch {
          throw new UrlNotAllowed('URL not allowed: invalid redirect location')
        }
        current = checkUrl(next.href, allowed)
        continue
      }
      if (status < 200 || status > 299) {
        response.destroy()
        throw new FetchFailed(`upstream answered ${status}`, status)
      }
      const contentType = mediaType(response.headers['content-type'])
      if (!accept(contentType)) {
        response.destroy()
        throw new FetchFailed(`content type not accepted: ${contentType === '' ? '(none)' : contentType}`)
      }
      const headers = flatHeaders(response)
      if (method === 'HEAD') {
        response.destroy()
        return { url: current.href, status, headers, contentType, body: Buffer.alloc(0) }
      }
      const { body, decoded } = await readBody(response, maxBytes, signal)
      // The body is decoded: no header may describe the encoded form.
      delete headers['content-encoding']
      delete headers['transfer-encoding']
      if (decoded) headers['content-length'] = String(body.length)
      return { url: current.href, status, headers, contentType, body }
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason
    if (error instanceof UrlNotAllowed || error instanceof FetchFailed) throw error
    const message = error instanceof Error ? error.message : String(error)
    throw new FetchFailed(`fetch failed: ${message}`, undefined, { cause: error })
  } finally {
    clearTimeout(timer)
    options.signal?.removeEventListener('abort', onCallerAbort)
  }
}
