// Web Push (RFC 8030 with VAPID, RFC 8292, and aes128gcm payloads, RFC 8291): browsers subscribe, and `send` pushes a
// small payload to each of a user's subscriptions whose owner wants that notification type pushed. The endpoints come
// from clients, so they are checked against the push services allowed by config on subscribe and again on send.
import { createPublicKey } from 'node:crypto'
import http from 'node:http'
import https from 'node:https'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import pLimit from 'p-limit'
import webPush, { type RequestDetails } from 'web-push'
import { NOTIFICATION_TYPES } from '../../../db/schema/index.js'
import { PushNotConfigured, PushSubscriptionNotFound, validationError } from '../../../lib/errors.js'
import { endpointAllowed } from '../../../lib/push-endpoint.js'
import {
  ENDPOINT_MAX_LENGTH, type NotificationType, type PushPayload, type PushSubscribeInput, type PushSubscriptionView
} from '../../../schemas/push.js'
import type { Db } from '../../external/db.js'
import type { SessionRead } from '../auth.js'
import type { PushSubscriptionRow } from '../repositories/push-subscriptions.js'
import type { Page } from '../repositories/recipes.js'

export type { NotificationType, PushPayload, PushSubscriptionView }

declare module 'fastify' {
  interface FastifyInstance {
    pushService: ReturnType<typeof createPushService>
  }
}

/** A user's browsers; the 21st subscription replaces the oldest. */
export const MAX_SUBSCRIPTIONS_PER_USER = 20
const SEND_CONCURRENCY = 10
/** Consecutive failed deliveries (other than 404/410, which delete at once) before a subscription is dropped. */
const MAX_FAILURES = 5
const TTL_SECONDS = 24 * 3600
const TIMEOUT_MS = 10_000
/**
 * Push services accept 4096 bytes of body. aes128gcm adds an 86-byte header (salt, record size, the sender's 65-byte
 * key), a padding delimiter and a 16-byte tag, all in one record.
 */
const MAX_PLAINTEXT_BYTES = 4096 - 86 - 1 - 16
const LIMITS = { title: 100, body: 300, url: 2048, tag: 64, notificationId: 64, userAgent: 512 } as const

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g
// eslint-disable-next-line no-control-regex
const HAS_CONTROL = /[\u0000-\u001f\u007f-\u009f]/
const EMAIL = /[^\s@<>()[\]"',;:]+@[^\s@<>()[\]"',;:]+\.[^\s@<>()[\]"',;:]+/g
const HAS_EMAIL = new RegExp(EMAIL.source)

/** At most `max` characters (code points, so no half surrogate pairs), an ellipsis marking a cut. */
function truncate (text: string, max: number): string {
  const chars = [...text]
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`
}

/** Display text: no control characters, and no email address even if a caller's text carried one. */
const displayText = (text: string, max: number) => truncate(String(text).replace(CONTROL, ' ').replace(EMAIL, '[hidden]'), max)

function safeUrl (url: string | undefined): string | undefined {
  if (typeof url !== 'string' || url.length > LIMITS.url || HAS_CONTROL.test(url) || HAS_EMAIL.test(url) || url.includes('\\')) return undefined
  if (/^\/(?![/\\])/.test(url) || /^https?:\/\/[^\s@]+$/i.test(url)) return url
  return undefined
}

/** The JSON a push carries: only the known fields, bounded so the encrypted body stays under 4 kB. */
export function pushPayloadJson (payload: PushPayload): string {
  const out: PushPayload = { title: displayText(payload.title, LIMITS.title), body: displayText(payload.body, LIMITS.body) }
  const url = safeUrl(payload.url)
  if (url != null) out.url = url
  if (typeof payload.tag === 'string' && payload.tag !== '') out.tag = displayText(payload.tag, LIMITS.tag)
  if (typeof payload.notificationId === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(payload.notificationId)) out.notificationId = payload.notificationId
  let json = JSON.stringify(out)
  // Title, body and tag stay under 3 kB even fully escaped; only a long url can push it over, and then it goes.
  if (Buffer.byteLength(json) > MAX_PLAINTEXT_BYTES) json = JSON.stringify({ ...out, url: undefined })
  return json
}

/** Strict base64url (no padding, canonical), or null. */
function base64url (text: string): Buffer | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null
  const bytes = Buffer.from(text, 'base64url')
  return bytes.toString('base64url') === text ? bytes : null
}

/** An uncompressed point on P-256: what a browser's PushSubscription gives as p256dh. */
function isP256Point (bytes: Buffer | null): boolean {
  if (bytes?.length !== 65 || bytes[0] !== 0x04) return false
  try {
    createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: bytes.subarray(1, 33).toString('base64url'), y: bytes.subarray(33).toString('base64url') },
      format: 'jwk'
    })
    return true
  } catch {
    return false
  }
}

function view (row: PushSubscriptionRow): PushSubscriptionView {
  return {
    id: row.id,
    origin: new URL(row.endpoint).origin,
    userAgent: row.userAgent,
    createdAt: row.createdAt.toISOString(),
    lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null
  }
}

/**
 * POSTs a prepared push and resolves with the push service's status. No redirects are followed; the whole exchange
 * is bounded by `timeoutMs`, and the answer's body is drained, never kept.
 */
async function post (details: RequestDetails, timeoutMs: number): Promise<number> {
  const url = new URL(details.endpoint)
  const transport = url.protocol === 'https:' ? https : http
  return await new Promise<number>((resolve, reject) => {
    const request = transport.request(url, { method: details.method, headers: details.headers, signal: AbortSignal.timeout(timeoutMs) }, response => {
      resolve(response.statusCode ?? 0)
      response.on('error', () => {})
      response.resume()
    })
    request.on('error', reject)
    request.end(details.body ?? undefined)
  })
}

type Outcome = 'sent' | 'removed' | 'failed'

export function createPushService (fastify: FastifyInstance) {
  const repo = fastify.pushSubscriptionsRepository
  const { vapid } = fastify.config
  const vapidDetails = vapid.publicKey != null && vapid.privateKey != null
    ? { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey }
    : null
  // A bad key pair fails the start, not every push (which would count against the users' subscriptions).
  if (vapidDetails != null) webPush.getVapidHeaders('https://push.example', vapidDetails.subject, vapidDetails.publicKey, vapidDetails.privateKey, 'aes128gcm')

  function requireEnabled (): NonNullable<typeof vapidDetails> {
    if (vapidDetails == null) throw new PushNotConfigured()
    return vapidDetails
  }

  function problems (input: PushSubscribeInput): string[] {
    const found: string[] = []
    if (typeof input.endpoint !== 'string' || input.endpoint.length > ENDPOINT_MAX_LENGTH) {
      found.push(`endpoint: must be at most ${ENDPOINT_MAX_LENGTH} characters`)
    } else if (!endpointAllowed(input.endpoint, fastify.config.pushServiceOrigins)) {
      found.push('endpoint: must be an https address of a known push service, without credentials')
    }
    if (!isP256Point(base64url(input.keys?.p256dh ?? ''))) found.push('keys.p256dh: must be the base64url of a 65-byte uncompressed P-256 public key')
    if (base64url(input.keys?.auth ?? '')?.length !== 16) found.push('keys.auth: must be the base64url of 16 bytes')
    return found
  }

  /** Pushes `json` to one subscription and records the outcome; throws only when the database does. */
  async function deliver (sub: PushSubscriptionRow, json: string, details: NonNullable<typeof vapidDetails>): Promise<Outcome> {
    // Config may have narrowed since the subscription was made.
    if (!endpointAllowed(sub.endpoint, fastify.config.pushServiceOrigins)) {
      await repo.remove(fastify.db, sub.id)
      return 'removed'
    }
    let status: number
    try {
      const request = webPush.generateRequestDetails({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, json, {
        vapidDetails: details, TTL: TTL_SECONDS, timeout: TIMEOUT_MS, urgency: 'normal', contentEncoding: 'aes128gcm'
      })
      status = await post(request, TIMEOUT_MS)
    } catch (err) {
      fastify.log.warn({ subscriptionId: sub.id, err: (err as Error).message }, 'push delivery failed')
      await repo.markFailure(fastify.db, sub.id, MAX_FAILURES)
      return 'failed'
    }
    if (status >= 200 && status < 300) {
      await repo.markSuccess(fastify.db, sub.id)
      return 'sent'
    }
    // The push service no longer knows this subscription (unsubscribed, expired, browser data cleared).
    if (status === 404 || status === 410) {
      await repo.remove(fastify.db, sub.id)
      return 'removed'
    }
    fastify.log.warn({ subscriptionId: sub.id, status }, 'push service refused a push')
    await repo.markFailure(fastify.db, sub.id, MAX_FAILURES)
    return 'failed'
  }

  return {
    /** VAPID keys are configured. */
    enabled: vapidDetails != null,

    /** The application server key browsers subscribe with (PushManager.subscribe's applicationServerKey). */
    publicKey (): string {
      return requireEnabled().publicKey
    },

    /** Saves the browser's subscription for the user; `created` is false when the endpoint was already theirs. */
    async subscribe (userId: string, input: PushSubscribeInput, userAgent?: string): Promise<{ subscription: PushSubscriptionView, created: boolean }> {
      requireEnabled()
      const found = problems(input)
      if (found.length > 0) throw validationError(found)
      const agent = userAgent == null ? null : truncate(userAgent.replace(CONTROL, ' '), LIMITS.userAgent)
      return await fastify.transaction(async tx => {
        // The cap is exact under concurrent subscribes, and repeats of one subscribe leave one row.
        await fastify.usersRepository.lock(tx, userId)
        const { row, created } = await repo.upsert(tx, userId, { endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth, userAgent: agent })
        if (created && await repo.countForUser(tx, userId) > MAX_SUBSCRIPTIONS_PER_USER) {
          await repo.trimOldest(tx, userId, MAX_SUBSCRIPTIONS_PER_USER, row.id)
        }
        return { subscription: view(row), created }
      })
    },

    /** Removes the caller's subscription with this endpoint (404 when they have none). */
    async unsubscribe (userId: string, endpoint: string): Promise<void> {
      if (!(await repo.removeByEndpoint(fastify.db, userId, endpoint))) throw new PushSubscriptionNotFound()
    },

    async subscriptions (userId: string, page: number, limit: number): Promise<Page<PushSubscriptionView>> {
      const { items, total } = await repo.list(fastify.db, userId, page, limit)
      return { items: items.map(view), total }
    },

    async removeSubscription (userId: string, subscriptionId: string): Promise<void> {
      if (!(await repo.removeForUser(fastify.db, userId, subscriptionId))) throw new PushSubscriptionNotFound()
    },

    /** Every notification type's push switch (on unless turned off). */
    async preferences (userId: string, db: Db = fastify.db): Promise<Record<NotificationType, boolean>> {
      return await repo.preferences(db, userId)
    },

    /** The preferences read with the session check: a `sessionRead` for GET /api/push-notifications/preferences. */
    preferencesSession: repo.preferencesSessions satisfies SessionRead<Record<NotificationType, boolean>>,

    /** Sets the given switches; the others stay. The answer is every switch. */
    async updatePreferences (userId: string, patch: Partial<Record<NotificationType, boolean>>, db: Db = fastify.db): Promise<Record<NotificationType, boolean>> {
      const wrong = Object.entries(patch).filter(([type, value]) => !(NOTIFICATION_TYPES as readonly string[]).includes(type) || (value !== undefined && typeof value !== 'boolean'))
      if (wrong.length > 0) throw validationError(wrong.map(([type]) => `${type}: must be a notification type with a boolean`))
      await repo.savePreferences(db, userId, patch)
      return await repo.preferences(db, userId)
    },

    /**
     * Sends `payload` to each of the user's subscriptions when their push preference for `type` is on. Gone
     * subscriptions (404, 410, or no longer an allowed push service) are removed; other failures are counted and
     * never thrown (pushes that went out must not be retried by a caller's job): only a database error throws.
     */
    async send (userId: string, type: NotificationType, payload: PushPayload): Promise<{ sent: number, removed: number, failed: number }> {
      const counts = { sent: 0, removed: 0, failed: 0 }
      if (vapidDetails == null) return counts
      if (!(await repo.pushEnabled(fastify.db, userId, type))) return counts
      const subs = await repo.forUser(fastify.db, userId, MAX_SUBSCRIPTIONS_PER_USER)
      if (subs.length === 0) return counts
      const json = pushPayloadJson(payload)
      const limit = pLimit(SEND_CONCURRENCY)
      // Settle every delivery before throwing, so no push is in flight when a caller sees the error.
      const outcomes = await Promise.allSettled(subs.map(async sub => await limit(async () => await deliver(sub, json, vapidDetails))))
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') throw outcome.reason
        counts[outcome.value]++
      }
      return counts
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('pushService', createPushService(fastify))
}, { name: 'push-service', dependencies: ['push-subscriptions-repository', 'users-repository', 'db'] })
