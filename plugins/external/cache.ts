// The cache (token deny-list, short-lived lookups, rate-limit counters): Redis when REDIS_URL is set, else in-process.
import fp from 'fastify-plugin'
import { Redis } from 'ioredis'
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
  ping: () => Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    cache: Cache
    /** The shared Redis connection, or null when running with the in-process cache. */
    redis: Redis | null
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
    ping: async () => {}
  }
}

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
  // Fail fast while disconnected instead of queueing: readiness reports it and callers decide how to degrade.
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
