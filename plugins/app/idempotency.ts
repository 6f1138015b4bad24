// Safe retries of creations: a signed-in client that sends a POST with an `Idempotency-Key` header and gets no answer
// (timeout, dropped connection, 503) sends it again with the same key; the first answer is stored for 24 hours and a
// retry gets it back (`idempotent-replayed: true`) instead of creating a second recipe, comment or list. The same key
// with another request is 422; while the first is still running, 409 with Retry-After. Answers a retry could change
// (5xx, 408, 429, an abandoned request) are not kept, so the retry runs. Routes that key their own work (AI
// generation) declare the header themselves and are left alone.
import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest, onSendAsyncHookHandler, preHandlerAsyncHookHandler, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import { Type } from 'typebox'
import { HttpError, validationError } from '../../lib/errors.js'
import { detached } from '../../lib/request-scope.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The key this request claimed: its answer is stored when it is sent. */
    idempotencyClaim: { userId: string, key: string } | null
  }
}

const HEADER = 'idempotency-key'
const KEY = /^[\x21-\x7e]{1,255}$/
const PURGE_JOB = 'idempotency.purge-expired'
const PURGE_BATCH = 1000
/** Statuses a retry may change: not kept. */
const TRANSIENT = new Set([408, 425, 429, 499])

export const IdempotencyHeaders = Type.Object({
  [HEADER]: Type.Optional(Type.String({
    minLength: 1,
    maxLength: 255,
    pattern: '^[\\x21-\\x7e]+$',
    description: 'Makes a retry safe for 24 hours (signed-in callers): the same key with the same request answers what ' +
      'the first got, with `idempotent-replayed: true`, and does nothing again; with another request 422; while the ' +
      'first still runs 409 with Retry-After. Use a new random key (a UUID) per action, and the same key for its retries.'
  }))
})

const fingerprint = (request: FastifyRequest): string =>
  createHash('sha256').update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`).digest('hex')

export default fp(async fastify => {
  const repo = fastify.idempotencyKeysRepository
  fastify.decorateRequest('idempotencyClaim', null)

  const claimKey: preHandlerAsyncHookHandler = async function (request: FastifyRequest, reply: FastifyReply) {
    const key = request.headers[HEADER]
    if (key == null) return
    if (typeof key !== 'string' || !KEY.test(key)) throw validationError([`headers.${HEADER}: must be 1 to 255 visible ASCII characters`])
    const userId = request.user?.id ?? request.tokenClaims?.userId
    if (userId == null) return // anonymous: nothing to scope the key to
    const print = fingerprint(request)
    if (await repo.claim(fastify.db, userId, key, print)) {
      request.idempotencyClaim = { userId, key }
      return
    }
    const stored = await repo.find(fastify.db, userId, key)
    // Purged or released between the two statements: the request runs unkeyed rather than fail.
    if (stored == null) return
    if (stored.fingerprint !== print) throw new HttpError(422, 'This Idempotency-Key was used with another request', { code: 'IDEMPOTENCY_KEY_REUSED' })
    if (stored.statusCode == null || stored.response == null) {
      throw new HttpError(409, 'A request with this Idempotency-Key is still in progress', { code: 'IDEMPOTENCY_KEY_IN_PROGRESS', headers: { 'retry-after': 1 } })
    }
    return await reply.code(stored.statusCode).header('idempotent-replayed', 'true').type('application/json; charset=utf-8').send(stored.response)
  }

  const storeAnswer: onSendAsyncHookHandler<unknown> = async function (request, reply, payload) {
    const claim = request.idempotencyClaim
    if (claim == null) return payload
    request.idempotencyClaim = null
    const status = reply.statusCode
    const keep = status < 500 && !TRANSIENT.has(status) && (typeof payload === 'string' || Buffer.isBuffer(payload))
    // Outside the request's scope: a client that has gone still gets its key released for the retry.
    await detached(async () => {
      if (keep) await repo.answer(fastify.db, claim.userId, claim.key, status, payload.toString())
      else await repo.release(fastify.db, claim.userId, claim.key)
    }).catch((err: unknown) => { request.log.warn({ err }, 'idempotency key: answer not stored') })
    return payload
  }

  fastify.addHook('onRoute', (route: RouteOptions) => {
    const methods = ([] as string[]).concat(route.method)
    if (!methods.includes('POST')) return
    const schema = route.schema
    const headers = schema?.headers as { properties?: Record<string, unknown> } | undefined
    if (headers?.properties?.[HEADER] != null) return // the route keys its own work
    if (schema != null && headers == null) schema.headers = IdempotencyHeaders
    // After the route's own hooks (authentication, rate limits): only requests that would run claim a key.
    route.preHandler = [route.preHandler ?? [], claimKey].flat() as RouteOptions['preHandler']
    route.onSend = [route.onSend ?? [], storeAnswer].flat() as RouteOptions['onSend']
  })

  await fastify.queue.work(PURGE_JOB, async () => {
    while (await repo.purgeExpired(fastify.db, PURGE_BATCH) === PURGE_BATCH);
  })
  await fastify.queue.schedule(PURGE_JOB, '17 * * * *')
}, { name: 'idempotency', dependencies: ['auth', 'db', 'queue', 'idempotency-keys-repository'] })
