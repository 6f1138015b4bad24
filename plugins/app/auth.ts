// User tokens (HS256 JWT, 24 h, revocable by jti) and the two checks every family uses:
// `authenticate` (strict: 401 unless the token and its user are valid now) and `optionalAuth` (same checks; any
// failure means anonymous). Other token kinds (admin, unsubscribe) carry `typ`/`aud` and never pass either.
import { createId } from '@paralleldrive/cuid2'
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import { jwtVerify, SignJWT } from 'jose'
import { HttpError } from '../../lib/errors.js'
import { documentErrors } from './schemas.js'

export const TOKEN_LIFETIME_SECONDS = 24 * 60 * 60
/** How long optional routes may reuse a user's auth state; changes to it invalidate the entry at once. */
const AUTH_STATE_TTL_SECONDS = 10

export interface AccessClaims {
  userId: string
  email: string
  jti: string
  /** Seconds, with millisecond fractions so a token issued just before a password change is still older than it. */
  iat: number
  exp: number
}

export interface AuthUser { id: string, email: string, username: string }

export interface AuthState {
  id: string
  email: string
  username: string
  active: boolean
  banned: boolean
  /** Epoch milliseconds. */
  passwordChangedAt: number | null
}

export interface Tokens {
  issue: (user: { id: string, email: string }) => Promise<{ token: string, claims: AccessClaims }>
  verify: (token: string) => Promise<AccessClaims>
  revoke: (claims: AccessClaims) => Promise<void>
  isRevoked: (jti: string) => Promise<boolean>
}

declare module 'fastify' {
  interface FastifyInstance {
    tokens: Tokens
    authenticate: onRequestAsyncHookHandler
    optionalAuth: onRequestAsyncHookHandler
    /** Drops the cached auth state of a user (password change, deactivation, ban, deletion). */
    invalidateAuthState: (userId: string) => Promise<void>
  }
  interface FastifyRequest {
    user: AuthUser | null
    /** Claims of the presented token, when it passed. */
    tokenClaims: AccessClaims | null
  }
}

export const AUTH_REQUIRED = 'Authentication required'
export const INVALID_TOKEN = 'Invalid or expired token'

function isAccessClaims (payload: Record<string, unknown>): payload is Record<string, unknown> & AccessClaims {
  return typeof payload.userId === 'string' && typeof payload.email === 'string' && typeof payload.jti === 'string' &&
    typeof payload.iat === 'number' && typeof payload.exp === 'number' &&
    // Tokens minted for another purpose are never user tokens.
    payload.typ === undefined && payload.aud === undefined
}

export function createTokens (secret: string, fastify: FastifyInstance): Tokens {
  const key = new TextEncoder().encode(secret)
  const revokedKey = (jti: string) => `revoked:${jti}`
  return {
    async issue (user) {
      const iat = Date.now() / 1000
      const claims: AccessClaims = { userId: user.id, email: user.email, jti: createId(), iat, exp: Math.floor(iat) + TOKEN_LIFETIME_SECONDS }
      const token = await new SignJWT({ userId: claims.userId, email: claims.email })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setJti(claims.jti)
        .setIssuedAt(claims.iat)
        .setExpirationTime(claims.exp)
        .sign(key)
      return { token, claims }
    },
    async verify (token) {
      const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] })
      if (!isAccessClaims(payload)) throw new Error('not an access token')
      return { userId: payload.userId, email: payload.email, jti: payload.jti, iat: payload.iat, exp: payload.exp }
    },
    async revoke (claims) {
      const ttl = claims.exp - Math.floor(Date.now() / 1000)
      if (ttl > 0) await fastify.cache.set(revokedKey(claims.jti), 1, ttl)
    },
    async isRevoked (jti) {
      return (await fastify.cache.get(revokedKey(jti))) != null
    }
  }
}

function bearerToken (request: FastifyRequest): string | null | undefined {
  const header = request.headers.authorization
  if (header == null || header === '') return undefined
  const match = /^Bearer\s+([A-Za-z0-9_.~+/=-]+)\s*$/i.exec(header)
  return match == null ? null : match[1]
}

export default fp(async fastify => {
  const tokens = createTokens(fastify.config.jwtSecret, fastify)
  fastify.decorate('tokens', tokens)
  fastify.decorateRequest('user', null)
  fastify.decorateRequest('tokenClaims', null)

  const stateKey = (userId: string) => `auth-state:${userId}`
  const loadState = async (userId: string): Promise<AuthState | null> => await fastify.usersRepository.authState(userId)
  const cachedState = async (userId: string): Promise<AuthState | null> => {
    const hit = await fastify.cache.get<AuthState | 0>(stateKey(userId))
    if (hit !== undefined) return hit === 0 ? null : hit
    const state = await loadState(userId)
    await fastify.cache.set(stateKey(userId), state ?? 0, AUTH_STATE_TTL_SECONDS)
    return state
  }
  fastify.decorate('invalidateAuthState', async (userId: string) => { await fastify.cache.del(stateKey(userId)) })

  /** The user the request's token stands for right now, or the reason it does not. */
  async function resolve (request: FastifyRequest, strict: boolean): Promise<{ user: AuthUser, claims: AccessClaims } | string> {
    const token = bearerToken(request)
    if (token === undefined || token === null) return AUTH_REQUIRED
    let claims: AccessClaims
    try {
      claims = await tokens.verify(token)
    } catch {
      return INVALID_TOKEN
    }
    let revoked: boolean
    let state: AuthState | null
    try {
      revoked = await tokens.isRevoked(claims.jti)
      // Strict routes read the user's current state; optional ones may use the briefly cached copy.
      state = strict ? await loadState(claims.userId) : await cachedState(claims.userId)
    } catch (err) {
      if (!strict) return INVALID_TOKEN
      request.log.error({ err }, 'auth state unavailable')
      throw new HttpError(503, 'Service temporarily unavailable')
    }
    if (revoked || state == null || !state.active || state.banned) return INVALID_TOKEN
    if (state.passwordChangedAt != null && claims.iat * 1000 < state.passwordChangedAt) return INVALID_TOKEN
    return { user: { id: state.id, email: state.email, username: state.username }, claims }
  }

  fastify.decorate('authenticate', async function (request: FastifyRequest, _reply: FastifyReply) {
    const result = await resolve(request, true)
    if (typeof result === 'string') throw new HttpError(401, result)
    request.user = result.user
    request.tokenClaims = result.claims
  })

  fastify.decorate('optionalAuth', async function (request: FastifyRequest, _reply: FastifyReply) {
    const result = await resolve(request, false)
    if (typeof result === 'string') return
    request.user = result.user
    request.tokenClaims = result.claims
  })

  // Routes that use `authenticate` can answer 401: say so in the OpenAPI document.
  fastify.addHook('onRoute', route => {
    const hooks = ([] as unknown[]).concat(route.onRequest ?? [], route.preHandler ?? [])
    if (hooks.includes(fastify.authenticate)) documentAuth(route)
  })
}, { name: 'auth', dependencies: ['cache', 'users-repository'] })

/** Marks a route as needing a Bearer token in the OpenAPI document, with its 401 answer. */
function documentAuth (route: RouteOptions): void {
  if (route.schema == null) return
  route.schema.security ??= [{ bearerAuth: [] }]
  documentErrors(route, [401])
}

/** For a family's autohooks: every route in it needs a signed-in user (and is documented so). */
export function requireAuth (fastify: FastifyInstance): void {
  fastify.addHook('onRequest', fastify.authenticate)
  fastify.addHook('onRoute', documentAuth)
}

/** The signed-in user on a route behind `authenticate`. */
export function currentUser (request: FastifyRequest): AuthUser {
  if (request.user == null) throw new HttpError(401, AUTH_REQUIRED)
  return request.user
}
