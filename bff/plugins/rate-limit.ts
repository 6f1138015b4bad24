// The web proxy's own limits on /bff/auth/*, per client address, in front of the API's (which still apply to the calls
// the proxy makes). Counted with @fastify/rate-limit as the API counts its limits: in Redis when REDIS_URL is set, so
// every proxy instance shares them, else in the process. A Redis outage lets requests through (the API's limits and
// account lockout still hold), as on the API.
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify'
import type { Redis } from 'ioredis'
import { LocalRateLimitStore } from '../../lib/rate-limit-local-store.js'
import { tooManyRequests } from '../../lib/errors.js'

export interface Limit {
  /** Requests per window and client address. */
  max: number
  windowMs: number
}

export interface AuthLimits {
  /** Sign-in (password, one-time code): every attempt counts. */
  signIn: Limit
  /** The signed-in session (refresh, session, logout): looser, pages call these as they load. */
  session: Limit
}

export const DEFAULT_AUTH_LIMITS: AuthLimits = {
  signIn: { max: 20, windowMs: 60_000 },
  session: { max: 120, windowMs: 60_000 }
}

export interface RateLimitOptions {
  /** Shared counters between instances; unset: in-process. */
  redisUrl?: string
  /** Key prefix in Redis (CACHE_PREFIX, as the API's keys; the proxy's own keys start with `bff-rl:` after it). */
  keyPrefix: string
  limits?: Partial<AuthLimits>
}

export type AuthLimitHooks = Record<keyof AuthLimits, onRequestAsyncHookHandler>

interface LimitResult { isAllowed: boolean, isExceeded?: boolean, max?: number, remaining?: number, ttlInSeconds?: number }

/** Its own Redis connection (the proxy shares no plugin with the API): fail fast while disconnected, never queue. */
async function connect (fastify: FastifyInstance, url: string, keyPrefix: string): Promise<Redis> {
  const { Redis } = await import('ioredis')
  const redis = new Redis(url, {
    keyPrefix,
    // Named, so an operator (and a test) can tell it in CLIENT LIST.
    connectionName: `${keyPrefix}bff-rate-limit`,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 5000
  })
  redis.on('error', err => fastify.log.warn({ err: err.message }, 'redis error'))
  // Start anyway: counting is skipped while Redis is unreachable, and ioredis keeps reconnecting.
  await redis.connect().catch((err: Error) => fastify.log.error({ err: err.message }, 'redis unreachable at start-up'))
  fastify.addHook('onClose', async () => { await redis.quit().catch(() => redis.disconnect()) })
  return redis
}

/** Registers the counters on `fastify` (the proxy's root) and returns one onRequest hook per limit. */
export async function authRateLimits (fastify: FastifyInstance, opts: RateLimitOptions): Promise<AuthLimitHooks> {
  const limits = { ...DEFAULT_AUTH_LIMITS, ...opts.limits }
  await fastify.register(rateLimit, {
    global: false,
    redis: opts.redisUrl == null ? undefined : await connect(fastify, opts.redisUrl, opts.keyPrefix),
    // The plugin's own in-process store shows every parallel caller the last count (a burst crossing the limit was
    // refused whole); ours gives each its own.
    ...(opts.redisUrl == null && { store: LocalRateLimitStore }),
    nameSpace: 'bff-rl:',
    skipOnError: true
  })
  const hook = (scope: keyof AuthLimits): onRequestAsyncHookHandler => {
    const { max, windowMs } = limits[scope]
    const check = fastify.createRateLimit({
      max,
      timeWindow: windowMs,
      keyGenerator: (request: FastifyRequest) => `${scope}:${rateLimit.normalizeIP(request.ip, 64)}`
    }) as (request: FastifyRequest) => Promise<LimitResult>
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const result = await check(request)
      // Headers as the API's limiters send them; a 429 is the API's body with `limit: "auth"`.
      reply.header('x-ratelimit-limit', max)
      reply.header('x-ratelimit-remaining', result.remaining ?? max)
      if (result.isExceeded !== true) return
      const retryAfter = Math.max(1, result.ttlInSeconds ?? 1)
      reply.header('x-ratelimit-reset', retryAfter)
      reply.header('retry-after', retryAfter)
      throw tooManyRequests(retryAfter, 'auth')
    }
  }
  return { signIn: hook('signIn'), session: hook('session') }
}
