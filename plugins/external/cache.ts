// The cache (token deny-list, short-lived lookups, rate-limit counters): Redis when REDIS_URL is set, else in-process.
import type { FastifyBaseLogger } from 'fastify'
import fp from 'fastify-plugin'
import type { Redis } from 'ioredis'
import { LRUCache } from 'lru-cache'

export interface Cache {
  readonly kind: 'redis' | 'memory'
  get: <T = unknown>(key: string) => Promise<T | undefined>
  set: (key: string, value: unknown, ttlSeconds: number) => Promise<void>
  /** Sets the key only if it is absent; true when this call set it (dedupe, once-only work). */
  add: (key: string, value: unknown, ttlSeconds: number) => Promise<boolean>
  del: (key: string) => Promise<void>
  /** Reads and deletes in one step: a one-time value is handed out once, even to concurrent callers. */
  take: <T = unknown>(key: string) => Promise<T | undefined>
  /** Adds one to a counter that lives `ttlSeconds` from its first increment; the count and seconds left after it. */
  increment: (key: string, ttlSeconds: number) => Promise<{ count: number, ttlSeconds: number }>
  /** A counter's value and seconds left (0 and 0 when absent). */
  counter: (key: string) => Promise<{ count: number, ttlSeconds: number }>
  /** Takes one back from a live counter, keeping its expiry; never below zero, and an absent counter stays absent. */
  decrement: (key: string) => Promise<void>
  ping: () => Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    cache: Cache
    /** The shared Redis connection, or null when running with the in-process cache. */
    redis: Redis | null
  }
}

/** A cache read or write that may fail (Redis down): logged, and undefined, so the database stays the answer. */
export async function tryCache<T> (log: FastifyBaseLogger, work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await work()
  } catch (err) {
    log.warn({ err }, 'cache unavailable')
    return undefined
  }
}

export function memoryCache (max = 50_000): Cache {
  const lru = new LRUCache<string, { value: unknown }>({ max, ttlAutopurge: false })
  return {
    kind: 'memory',
    get: async <T>(key: string) => lru.get(key)?.value as T | undefined,
    set: async (key, value, ttl) => { lru.set(key, { value }, { ttl: ttl * 1000 }) },
    add: async (key, value, ttl) => {
      if (lru.has(key)) return false
      lru.set(key, { value }, { ttl: ttl * 1000 })
      return true
    },
    del: async key => { lru.delete(key) },
    take: async <T>(key: string) => {
      const entry = lru.get(key)
      lru.delete(key)
      return entry?.value as T | undefined
    },
    increment: async (key, ttl) => {
      const left = lru.getRemainingTTL(key)
      const count = Number(lru.get(key)?.value ?? 0) + 1
      const ttlMs = left > 0 && Number.isFinite(left) ? left : ttl * 1000
      lru.set(key, { value: count }, { ttl: ttlMs })
      return { count, ttlSeconds: Math.ceil(ttlMs / 1000) }
    },
    counter: async key => {
      const left = lru.getRemainingTTL(key)
      return { count: Number(lru.get(key)?.value ?? 0), ttlSeconds: left > 0 && Number.isFinite(left) ? Math.ceil(left / 1000) : 0 }
    },
    decrement: async key => {
      const count = Number(lru.get(key)?.value ?? 0)
      if (count > 0) lru.set(key, { value: count - 1 }, { noUpdateTTL: true })
    },
    ping: async () => {}
  }
}

const DECREMENT_LIVE = "if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end"

export function redisCache (redis: Redis): Cache {
  return {
    kind: 'redis',
    get: async <T>(key: string) => {
      const raw = await redis.get(key)
      return raw == null ? undefined : JSON.parse(raw) as T
    },
    set: async (key, value, ttl) => { await redis.set(key, JSON.stringify(value), 'EX', Math.max(1, Math.ceil(ttl))) },
    add: async (key, value, ttl) => (await redis.set(key, JSON.stringify(value), 'EX', Math.max(1, Math.ceil(ttl)), 'NX')) === 'OK',
    del: async key => { await redis.del(key) },
    take: async <T>(key: string) => {
      const raw = await redis.getdel(key)
      return raw == null ? undefined : JSON.parse(raw) as T
    },
    increment: async (key, ttl) => {
      // One round trip: the expiry is set by the first increment only (NX), so the window does not slide.
      const result = await redis.multi().incr(key).expire(key, Math.max(1, Math.ceil(ttl)), 'NX').ttl(key).exec()
      return { count: Number(result?.[0]?.[1] ?? 0), ttlSeconds: Math.max(0, Number(result?.[2]?.[1] ?? 0)) }
    },
    counter: async key => {
      const [count, left] = await Promise.all([redis.get(key), redis.ttl(key)])
      return { count: Number(count ?? 0), ttlSeconds: Math.max(0, left) }
    },
    // A script, so a counter that expired meanwhile is not recreated at -1 without an expiry (as DECR would).
    decrement: async key => { await redis.eval(DECREMENT_LIVE, 1, key) },
    ping: async () => { await redis.ping() }
  }
}

export default fp(async fastify => {
  const { redisUrl, cachePrefix } = fastify.config
  if (redisUrl == null) {
    fastify.decorate('redis', null)
    fastify.decorate('cache', memoryCache())
    return
  }
  // Loaded only with REDIS_URL (an in-process instance never needs it). Fail fast while disconnected instead of
  // queueing: readiness reports it and callers decide how to degrade.
  const { Redis } = await import('ioredis')
  const redis = new Redis(redisUrl, {
    keyPrefix: cachePrefix,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 5000
  })
  redis.on('error', err => fastify.log.warn({ err: err.message }, 'redis error'))
  try {
    await redis.connect()
  } catch (err) {
    // Start anyway: /readyz answers 503 until Redis is reachable, and ioredis keeps reconnecting.
    fastify.log.error({ err: (err as Error).message }, 'redis unreachable at start-up')
  }
  fastify.decorate('redis', redis)
  fastify.decorate('cache', redisCache(redis))
  fastify.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect())
  })
}, { name: 'cache' })
