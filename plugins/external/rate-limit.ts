// The three limiters of interface.md "Limits", counted in Redis when configured so every instance shares them.
import rateLimit from '@fastify/rate-limit'
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify'
import fp from 'fastify-plugin'
import { tooManyRequests } from '../../lib/errors.js'
import { isRateLimitExempt } from '../../lib/ip.js'

export type LimitName = 'global' | 'router' | 'auth'

export interface RateLimits {
  /** 500 / 15 min on every /api route; skips loopback, 10.* and 192.168.*. */
  global: onRequestAsyncHookHandler
  /**
   * 100 / 15 min per route family (`/api/recipes/...` shares one counter, `/api/users/...` another), per client;
   * also skips 172.16/12. routes/api/autohooks.ts puts it on every /api family but auth.
   */
  router: onRequestAsyncHookHandler
  /** 15 / 15 min on auth routes and admin login; skips nobody. */
  auth: onRequestAsyncHookHandler
}

declare module 'fastify' {
  interface FastifyInstance {
    rateLimits: RateLimits
  }
}

interface LimitResult { isAllowed: boolean, isExceeded?: boolean, max?: number, remaining?: number, ttlInSeconds?: number }
type Check = (req: FastifyRequest) => Promise<LimitResult>

const remainingSoFar = Symbol('rate-limit-remaining')

/** The family of a route: the first segment after /api (`/api/recipes/:id` -> `recipes`), else the first segment. */
export function routeFamily (url: string): string {
  const segments = url.split('/').filter(Boolean)
  return (segments[0] === 'api' ? segments[1] : segments[0]) ?? ''
}

// Limiters stack (global + router, global + auth), so each one is a separate check; the headers report the tightest.
function limiterHook (name: LimitName, check: Check): onRequestAsyncHookHandler {
  return async function (request: FastifyRequest & { [remainingSoFar]?: number }, reply: FastifyReply) {
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

export default fp(async fastify => {
  const { rateLimit: limits } = fastify.config
  await fastify.register(rateLimit, {
    global: false,
    redis: fastify.redis ?? undefined,
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
      keyGenerator: (req: FastifyRequest) => `${scope(req)}:${rateLimit.normalizeIP(req.ip, 64)}`,
      allowList: exempt == null ? undefined : (req: FastifyRequest) => exempt(req.ip)
    }) as Check
  )
  fastify.decorate('rateLimits', {
    global: make('global', limits.globalMax, () => 'global', ip => isRateLimitExempt(ip)),
    router: make('router', limits.routerMax, req => `router:${routeFamily(req.routeOptions.url ?? '')}`, ip => isRateLimitExempt(ip, true)),
    auth: make('auth', limits.authMax, () => 'auth')
  })
}, { name: 'rate-limit', dependencies: ['cache'] })
