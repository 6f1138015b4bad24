// In-process counters for @fastify/rate-limit (its `store` option) when there is no Redis: fixed windows per key, and
// every call answered with its own count. The plugin's own LocalStore answers each caller with the one record it keeps
// per key, and the plugin reads it after an await: parallel requests all read the count of the last one, so a burst
// that crossed the limit was refused whole, the requests within the limit too.
import type { FastifyRateLimitStore } from '@fastify/rate-limit'
import { LRUCache } from 'lru-cache'

/** Clients counted at once per limiter, as the plugin's own store: the least recently seen are forgotten beyond. */
const KEYS = 5000

export class LocalRateLimitStore implements FastifyRateLimitStore {
  private readonly windows = new LRUCache<string, { count: number, endsAt: number }>({ max: KEYS })

  incr (key: string, callback: (error: Error | null, result?: { current: number, ttl: number }) => void, timeWindow: number): void {
    const now = Date.now()
    let window = this.windows.get(key)
    if (window == null || window.endsAt <= now) {
      window = { count: 0, endsAt: now + timeWindow }
      this.windows.set(key, window)
    }
    window.count++
    callback(null, { current: window.count, ttl: window.endsAt - now })
  }

  /** Each limiter (`createRateLimit`) counts apart, as with the plugin's own store. */
  child (): LocalRateLimitStore {
    return new LocalRateLimitStore()
  }
}
