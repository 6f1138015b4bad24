// The three limiters of interface.md "Limits", counted in Redis when configured so every instance shares them, and
// per-client counters for routes with limits of their own.
import rateLimit from '@fastify/rate-limit'
import type { FastifyBaseLogger, FastifyReply, FastifyRequest, onRequestAsyncHookHandler, onSendAsyncHookHandler } from 'fastify'
import fp from 'fastify-plugin'
import { tooManyRequests } from '../../lib/errors.js'
import { isRateLimitExempt } from '../../lib/ip.js'
import { LocalRateLimitStore } from '../../lib/rate-limit-local-store.js'
import { tryCache, type Cache } from './cache.js'

export type LimitName = 'global' | 'router' | 'auth'

export interface RateLimits {
  /** 500 / 15 min on every /api route; skips loopback, 10.* and 192.168.*. */
  global: onRequestAsyncHookHandler
  /**
   * 100 / 15 min per route family (`/api/recipes/...` shares one counter, `/api/users/...` another), per client;
   * also skips 172.16/12. routes/api/autohooks.ts puts it on every /api family but auth.
   */
  router: onRequestAsyncHookHandler
  /** 15 / 15 min on auth routes and admin login; skips nobody; every request counts. */
  auth: onRequestAsyncHookHandler
  /**
   * The same auth limit for sign-in routes (decisions.md section 1): `reserve` (onRequest) takes a place on arrival,
   * `settle` (onSend) gives it back before the answer leaves unless the attempt failed (401), so a client that signs
   * in correctly is never limited, while one that guesses is refused before its next password is compared, however
   * many it sends at once.
   */
  authFailures: { reserve: onRequestAsyncHookHandler, settle: onSendAsyncHookHandler<unknown> }
  /**
   * A route's own limit per client address (CCPA, support): counts a request under `scope` and refuses it beyond
   * `max` a window (429 `limit: "router"`, the limit of that route family). Addresses the global limiter skips are not
   * counted; a cache outage lets requests through, as the other limiters do.
   */
  perClient: (scope: string, ip: string, max: number, windowSeconds: number) => Promise<void>
  /** The same per signed-in user (exports, invitations); the count needs the cache, so an outage is an error. */
  perUser: (scope: string, userId: string, max: number, windowSeconds: number) => Promise<void>
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Statuses that count as a failed guess for `authFailures` on this route (default: 401); others give back. */
    failureStatuses?: number[]
  }
  interface FastifyInstance {
    rateLimits: RateLimits
  }
}

interface LimitResult { isAllowed: boolean, isExceeded?: boolean, max?: number, remaining?: number, ttlInSeconds?: number }
type Check = (req: FastifyRequest) => Promise<LimitResult>

const remainingSoFar = Symbol('rate-limit-remaining')

const families = new Map<string, string>()

/**
 * The family of a route: the first segment after /api (`/api/recipes/:id` -> `recipes`), else the first segment.
 * Asked on every request with the route's pattern; patterns are few, so each is split once.
 */
export function routeFamily (url: string): string {
  let family = families.get(url)
  if (family === undefined) {
    const segments = url.split('/').filter(Boolean)
    family = (segments[0] === 'api' ? segments[1] : segments[0]) ?? ''
    if (families.size < 10_000) families.set(url, family)
  }
  return family
}

// Limiters stack (global + router, global + auth), so each one is a separate check; the headers report the tightest.
// An exempt address returns before the limiter builds its key and awaits its store (most of a request's hook time).
function limiterHook (name: LimitName, check: Check, exempt?: (ip: string) => boolean): onRequestAsyncHookHandler {
  return async function (request: FastifyRequest & { [remainingSoFar]?: number }, reply: FastifyReply) {
    if (exempt?.(request.ip) === true) return
    const result = await check(request)
    if (result.isAllowed || result.max == null) return
    const retryAfter = Math.max(1, result.ttlInSeconds ?? 1)
    if (request[remainingSoFar] == null || result.remaining! <= request[remainingSoFar]) {
      request[remainingSoFar] = result.remaining!
      reply.header('x-ratelimit-limit', result.max)
      reply.header('x-ratelimit-remaining', result.remaining)
      reply.header('x-ratelimit-reset', retryAfter)
    }
    if (result.isExceeded === true) {
      reply.header('retry-after', retryAfter)
      throw tooManyRequests(retryAfter, name)
    }
  }
}

/** Set on a request holding a place in the auth counter that its answer may give back (sign-in routes). */
const authReservation = Symbol('auth-limit-reservation')

/**
 * The auth limit, one counter per client for every credential route. A request takes its place in the counter when
 * it arrives (decisions.md "Rate-limit counting"), so requests in flight count and N parallel guesses never get more
 * than `max` evaluated. Most routes keep every place; sign-in routes give theirs back unless the answer is a failed
 * attempt (401, or the route's `failureStatuses`), so a client that signs in correctly is never limited.
 */
function authLimiter (cache: Cache, max: number, windowMs: number, log: FastifyBaseLogger) {
  const key = (request: FastifyRequest) => `auth-limit:${rateLimit.normalizeIP(request.ip, 64)}`
  // Like the other limiters (skipOnError), a cache outage lets requests through; account lockout still holds.
  const takePlace = async (request: FastifyRequest) => await cache.increment(key(request), windowMs / 1000)
    .catch(err => { log.warn({ err }, 'auth limit unavailable'); return undefined })
  const enforce = (reply: FastifyReply, counted: { count: number, ttlSeconds: number } | undefined) => {
    if (counted == null) return
    reply.header('x-ratelimit-limit', max)
    reply.header('x-ratelimit-remaining', Math.max(0, max - counted.count))
    if (counted.count <= max) return
    const retryAfter = Math.max(1, counted.ttlSeconds)
    reply.header('x-ratelimit-reset', retryAfter)
    reply.header('retry-after', retryAfter)
    throw tooManyRequests(retryAfter, 'auth')
  }
  const every: onRequestAsyncHookHandler = async (request, reply) => { enforce(reply, await takePlace(request)) }
  const failures: RateLimits['authFailures'] = {
    async reserve (request: FastifyRequest & { [authReservation]?: boolean }, reply) {
      const counted = await takePlace(request)
      // Marked before a refusal too: a refused request was never evaluated, and gives its place back with its 429.
      if (counted != null) request[authReservation] = true
      enforce(reply, counted)
    },
    // Before the answer is sent, so a client's next request never finds its previous success still counted.
    async settle (request: FastifyRequest & { [authReservation]?: boolean }, reply, payload) {
      if (request[authReservation] !== true) return payload
      request[authReservation] = false
      const failed = request.routeOptions.config?.failureStatuses ?? [401]
      if (!failed.includes(reply.statusCode)) {
        await cache.decrement(key(request)).catch(err => { log.warn({ err }, 'auth limit unavailable') })
      }
      return payload
    }
  }
  return { every, failures }
}

/** A route's own count past its `max`: 429 for the rest of the window. */
function refuseOver (counted: { count: number, ttlSeconds: number } | undefined, max: number): void {
  if (counted != null && counted.count > max) throw tooManyRequests(Math.max(1, counted.ttlSeconds), 'router', max)
}

export default fp(async fastify => {
  const { rateLimit: limits } = fastify.config
  await fastify.register(rateLimit, {
    global: false,
    redis: fastify.redis ?? undefined,
    // Without Redis, counters that answer parallel requests each with its own count (lib/rate-limit-local-store.ts).
    store: fastify.redis == null ? LocalRateLimitStore : undefined,
    nameSpace: 'rl:',
    // A Redis outage must not take the API down; account lockout still guards the password routes.
    skipOnError: true,
    timeWindow: limits.windowMs
  })
  const make = (name: LimitName, max: number, scope: (req: FastifyRequest) => string, exempt?: (ip: string) => boolean) => limiterHook(
    name,
    fastify.createRateLimit({
      max,
      timeWindow: limits.windowMs,
      keyGenerator: (req: FastifyRequest) => `${scope(req)}:${rateLimit.normalizeIP(req.ip, 64)}`
    }) as Check,
    exempt
  )
  const auth = authLimiter(fastify.cache, limits.authMax, limits.windowMs, fastify.log)
  fastify.decorate('rateLimits', {
    global: make('global', limits.globalMax, () => 'global', ip => isRateLimitExempt(ip)),
    router: make('router', limits.routerMax, req => `router:${routeFamily(req.routeOptions.url ?? '')}`, ip => isRateLimitExempt(ip, true)),
    auth: auth.every,
    authFailures: auth.failures,
    async perClient (scope, ip, max, windowSeconds) {
      if (isRateLimitExempt(ip)) return
      refuseOver(await tryCache(fastify.log, async () => await fastify.cache.increment(`${scope}:${rateLimit.normalizeIP(ip, 64)}`, windowSeconds)), max)
    },
    async perUser (scope, userId, max, windowSeconds) {
      refuseOver(await fastify.cache.increment(`${scope}:${userId}`, windowSeconds), max)
    }
  })
}, { name: 'rate-limit', dependencies: ['cache'] })
