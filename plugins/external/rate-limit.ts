// The three limiters of interface.md "Limits", counted in Redis when configured so every instance shares them.
import rateLimit from '@fastify/rate-limit'
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify'
import fp from 'fastify-plugin'
import { tooManyRequests } from '../../lib/errors.js'
import { isRateLimitExempt } from '../../lib/ip.js'

export interface RateLimits {
  /** 500 / 15 min on every /api route; skips loopback, 10.* and 192.168.*. */
  global: onRequestAsyncHookHandler
  /** 100 / 15 min on families that opt in; also skips 172.16/12. */
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

// Limiters stack (global + auth on a login route), so each one is a separate check; the headers report the tightest.
function limiterHook (check: Check): onRequestAsyncHookHandler {
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
      throw tooManyRequests(retryAfter)
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
  const make = (name: string, max: number, exempt?: (ip: string) => boolean) => limiterHook(
    fastify.createRateLimit({
      max,
      timeWindow: limits.windowMs,
      keyGenerator: (req: FastifyRequest) => `${name}:${rateLimit.normalizeIP(req.ip, 64)}`,
      allowList: exempt == null ? undefined : (req: FastifyRequest) => exempt(req.ip)
    }) as Check
  )
  fastify.decorate('rateLimits', {
    global: make('global', limits.globalMax, ip => isRateLimitExempt(ip)),
    router: make('router', limits.routerMax, ip => isRateLimitExempt(ip, true)),
    auth: make('auth', limits.authMax)
  })
}, { name: 'rate-limit', dependencies: ['cache'] })
