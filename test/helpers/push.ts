// A real HTTP server on 127.0.0.1 that plays a Web Push service: it checks the VAPID JWT and the headers as push
// services do, then decrypts the aes128gcm body with the subscribing browser's private key.
import { createECDH, randomBytes, type ECDH } from 'node:crypto'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { importJWK, jwtVerify } from 'jose'
import type { Test } from 'tap'

// web-push's own encryption library, used here the way a browser decrypts.
const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt: (body: Buffer, params: { version: 'aes128gcm', privateKey: ECDH, authSecret: Buffer }) => Buffer
}

const DAY_SECONDS = 24 * 3600

export interface Browser {
  path: string
  endpoint: string
  ecdh: ECDH
  authSecret: Buffer
  subscription: { endpoint: string, keys: { p256dh: string, auth: string }, expirationTime: null }
}

export interface Received { path: string, ttl: string, payload: Record<string, unknown> | null, rawPayload: string, problems: string[] }

/** The push service: answers `status` per endpoint path (201 unless set), records every request and what was wrong with it. */
export async function pushServer (t: Test, expected: { publicKey: () => string, subject: () => string }) {
  const browsers = new Map<string, Browser>()
  const statuses = new Map<string, number>()
  const received: Received[] = []
  let origin = ''

  async function check (req: IncomingMessage, body: Buffer): Promise<{ problems: string[], payload: Record<string, unknown> | null, rawPayload: string }> {
    const problems: string[] = []
    const browser = browsers.get(req.url ?? '')
    if (browser == null) problems.push(`unknown endpoint ${req.url}`)
    if (req.method !== 'POST') problems.push(`method ${req.method}`)
    const auth = /^vapid t=([A-Za-z0-9_.-]+), ?k=([A-Za-z0-9_-]+)$/.exec(req.headers.authorization ?? '')
    if (auth == null) {
      problems.push(`authorization ${req.headers.authorization}`)
    } else {
      const [, jwt, k] = auth
      if (k !== expected.publicKey()) problems.push('k is not the VAPID public key browsers subscribed with')
      const point = Buffer.from(k, 'base64url')
      try {
        const key = await importJWK({ kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, 'ES256')
        const { payload } = await jwtVerify(jwt, key, { algorithms: ['ES256'], audience: origin, subject: expected.subject() })
        const now = Math.floor(Date.now() / 1000)
        if (typeof payload.exp !== 'number' || payload.exp <= now || payload.exp > now + DAY_SECONDS) problems.push(`exp ${payload.exp}`)
      } catch (err) {
        problems.push(`jwt: ${(err as Error).message}`)
      }
    }
    if (req.headers['content-encoding'] !== 'aes128gcm') problems.push(`content-encoding ${req.headers['content-encoding']}`)
    if (!/^\d+$/.test(String(req.headers.ttl ?? ''))) problems.push(`ttl ${String(req.headers.ttl)}`)
    if (req.headers.urgency !== 'normal') problems.push(`urgency ${req.headers.urgency}`)
    if (body.length > 4096) problems.push(`body of ${body.length} bytes`)
    let rawPayload = ''
    let payload: Record<string, unknown> | null = null
    if (browser != null) {
      try {
        rawPayload = ece.decrypt(body, { version: 'aes128gcm', privateKey: browser.ecdh, authSecret: browser.authSecret }).toString('utf8')
        payload = JSON.parse(rawPayload) as Record<string, unknown>
      } catch (err) {
        problems.push(`decrypt: ${(err as Error).message}`)
      }
    }
    return { problems, payload, rawPayload }
  }

  let inFlight = 0
  let maxInFlight = 0
  const server = createServer((req, res) => {
    maxInFlight = Math.max(maxInFlight, ++inFlight)
    res.on('finish', () => { inFlight-- })
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', async () => {
      const result = await check(req, Buffer.concat(chunks))
      const path = req.url ?? ''
      received.push({ path, ttl: String(req.headers.ttl), ...result })
      res.writeHead(result.problems.length > 0 ? 400 : (statuses.get(path) ?? 201)).end()
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  t.teardown(async () => { await new Promise(resolve => server.close(resolve)) })

  let count = 0
  return {
    origin,
    received,
    /** The most requests it was answering at once. */
    maxInFlight: () => maxInFlight,
    /** A browser's PushSubscription: its own key pair and auth secret, an endpoint on this service. */
    browser (status?: number): Browser {
      const path = `/push/${++count}-${randomBytes(8).toString('hex')}`
      const ecdh = createECDH('prime256v1')
      const publicKey = ecdh.generateKeys()
      const authSecret = randomBytes(16)
      const endpoint = `${origin}${path}`
      const browser = {
        path,
        endpoint,
        ecdh,
        authSecret,
        subscription: { endpoint, keys: { p256dh: publicKey.toString('base64url'), auth: authSecret.toString('base64url') }, expirationTime: null }
      }
      browsers.set(path, browser)
      if (status != null) statuses.set(path, status)
      return browser
    },
    /** What reached `browser` since `from` (an index into `received`). */
    to: (browser: Browser, from = 0) => received.slice(from).filter(r => r.path === browser.path)
  }
}
