// User tokens (@fastify/jwt, HS256 only, 24 h) and the two checks every family uses: `authenticate` (strict: 401
// unless the token and its user are valid now) and `optionalAuth` (same checks; any failure means anonymous).
// A token is valid while its user is active and unbanned, its `ver` equals the user's token version (bumped by every
// password change or reset, in the statement that sets the password) and its jti is not revoked. Tokens minted for
// another purpose carry `typ`/`aud` and never pass. `jose` is only for external identity providers (accounts service).
import fastifyJwt from '@fastify/jwt'
import { createId } from '@paralleldrive/cuid2'
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import { tryCache as tryCacheOr } from '../external/cache.js'
import { AUTH_REQUIRED, AuthenticationRequired, INVALID_TOKEN, InvalidToken, ServiceUnavailable } from '../../lib/errors.js'
import { keyedBatches, type Batches } from '../../lib/keyed-batches.js'
import type { Db } from '../external/db.js'
import type { AuthState, SessionCheck, SessionKey, SessionState } from './repositories/hot/session.js'
import { documentErrors } from './schemas.js'

export const TOKEN_LIFETIME_SECONDS = 24 * 60 * 60
/** How long optional routes may reuse a user's auth state; the changes that matter invalidate it at once. */
const AUTH_STATE_TTL_SECONDS = 10
/** How long optional routes may trust "not revoked"; revoking overwrites the entry, so this only bounds other instances. */
const NOT_REVOKED_TTL_SECONDS = 10
/** Verified tokens kept per instance (about 400 bytes each). Revocation is checked on every request regardless. */
const VERIFIED_TOKENS = 10_000
/** Expired rows of revoked_tokens are deleted at most this often per instance, in batches. */
const PURGE_JOB = 'auth.purge-revoked-tokens'
/** The most strict checks one statement reads (of one kind: the plain check, or one route's sessionRead). */
const SESSIONS_PER_STATEMENT = 100
const PURGE_BATCH = 5000

export interface AccessClaims {
  userId: string
  email: string
  jti: string
  /** The user's token version when the token was issued. */
  ver: number
  iat: number
  exp: number
}

export interface AuthUser { id: string, email: string, username: string }

declare module '@fastify/jwt' {
  interface FastifyJWT {
    user: AuthUser | null
    /** User tokens here; admin tokens (ADMIN_JWT_SECRET) are the 'admin' namespace of plugins/app/admin-auth.ts. */
    namespaces: 'user' | 'admin'
  }
}

export interface Tokens {
  /** Signs a token for the user at their current token version (read from the database when not given). */
  issue: (user: { id: string, email: string, tokenVersion?: number }) => Promise<{ token: string, claims: AccessClaims }>
  /** The claims of a well-signed, unexpired user token; throws otherwise. */
  verify: (token: string) => AccessClaims
  /** Revokes the token until it expires; true only for the call that revoked it (false: already revoked). */
  revoke: (claims: AccessClaims) => Promise<boolean>
  /** Whether the token is revoked: the cache first, the table on a miss. */
  isRevoked: (jti: string) => Promise<boolean>
}

/**
 * A strict check's statement: for each check, the session state of the user and token plus what the route answers
 * with, read together (null: no such user), in order. The checks that arrive together share one statement.
 */
export type SessionRead<T> = (db: Db, checks: SessionKey[]) => Promise<Array<{ session: SessionState, value: T } | null>>

declare module 'fastify' {
  interface FastifyInstance {
    tokens: Tokens
    authenticate: onRequestAsyncHookHandler
    optionalAuth: onRequestAsyncHookHandler
    /** Drops the cached auth state of a user (password change, deactivation, ban, deletion). */
    invalidateAuthState: (userId: string) => Promise<void>
  }
  interface FastifyContextConfig {
    /**
     * For a route behind `authenticate`: a statement that reads the route's answer together with the session check
     * (one round trip instead of two); the handler takes the answer with `sessionValue(request)`.
     */
    sessionRead?: SessionRead<unknown>
    /**
     * For a route behind `authenticate` whose own statement checks the session (the hottest writes: one round trip
     * instead of two). The hook then only verifies the token; the handler passes `sessionToCheck(request)` to a
     * statement that acts only for a valid session (`sessionValid` of repositories/hot/session.ts) and answers 401
     * (InvalidToken) when it was not. `currentUser` throws on such a route.
     */
    sessionInStatement?: boolean
  }
  interface FastifyRequest {
    /** Claims of the presented token, when it passed. */
    tokenClaims: AccessClaims | null
    /** What the route's `sessionRead` read beside the session. */
    sessionValue: unknown
  }
}

function isAccessClaims (payload: unknown): payload is AccessClaims & { typ?: unknown, aud?: unknown } {
  if (payload == null || typeof payload !== 'object') return false
  const claims: Record<string, unknown> = { ...payload }
  return typeof claims.userId === 'string' && typeof claims.email === 'string' && typeof claims.jti === 'string' &&
    Number.isInteger(claims.ver) && Number.isInteger(claims.iat) && Number.isInteger(claims.exp) &&
    // Tokens minted for another purpose are never user tokens.
    claims.typ === undefined && claims.aud === undefined
}

/** The Bearer token of the request: undefined when there is no Authorization header, null when it is garbled. */
function bearerToken (request: FastifyRequest): string | null | undefined {
  const header = request.headers.authorization
  if (header == null || header === '') return undefined
  const match = /^Bearer\s+([A-Za-z0-9_.~+/=-]+)\s*$/i.exec(header)
  return match == null ? null : match[1]
}

export default fp(async fastify => {
  const { cache, usersRepository: users, tokensRepository: revoked } = fastify
  await fastify.register(fastifyJwt, {
    namespace: 'user',
    secret: fastify.config.jwtSecret,
    sign: { algorithm: 'HS256', expiresIn: TOKEN_LIFETIME_SECONDS },
    // A client sends the same token on every request: its checked claims are kept until they expire (keyed by the
    // token's hash), so decoding and checking them is done once per token and instance rather than once per request.
    verify: { algorithms: ['HS256'], cache: VERIFIED_TOKENS },
    // request.user is ours (set by the checks below); @fastify/jwt's own request helpers write elsewhere.
    decoratorName: 'jwtPayload'
  })
  const jwt = fastify.jwt.user
  fastify.decorateRequest('user', null)
  fastify.decorateRequest('tokenClaims', null)
  fastify.decorateRequest('sessionValue', null)

  const tryCache = async <T>(work: () => Promise<T>) => await tryCacheOr(fastify.log, work)

  // Revocations are kept until the token would have expired anyway, then dropped by a timed job.
  await fastify.queue.work(PURGE_JOB, async () => {
    while (await revoked.purgeExpired(fastify.db, PURGE_BATCH) === PURGE_BATCH);
  })
  await fastify.queue.schedule(PURGE_JOB, '*/10 * * * *')

  const revokedKey = (jti: string) => `revoked:${jti}`
  const tokens: Tokens = {
    async issue (user) {
      const tokenVersion = user.tokenVersion ?? (await users.authState(fastify.db, user.id))?.tokenVersion ?? 0
      const iat = Math.floor(Date.now() / 1000)
      const claims: AccessClaims = { userId: user.id, email: user.email, jti: createId(), ver: tokenVersion, iat, exp: iat + TOKEN_LIFETIME_SECONDS }
      const token = jwt.sign({ userId: claims.userId, email: claims.email, jti: claims.jti, ver: claims.ver, iat })
      return { token, claims }
    },

    verify (token) {
      const payload = jwt.verify<object>(token)
      if (!isAccessClaims(payload)) throw new Error('not a user token')
      return { userId: payload.userId, email: payload.email, jti: payload.jti, ver: payload.ver, iat: payload.iat, exp: payload.exp }
    },

    async revoke (claims) {
      const ttl = claims.exp - Math.floor(Date.now() / 1000)
      if (ttl <= 0) return false
      const first = await revoked.revoke(fastify.db, { jti: claims.jti, userId: claims.userId, expiresAt: new Date(claims.exp * 1000) })
      await tryCache(async () => await cache.set(revokedKey(claims.jti), 1, ttl))
      return first
    },

    async isRevoked (jti) {
      const hit = await tryCache(async () => await cache.get<0 | 1>(revokedKey(jti)))
      if (hit !== undefined) return hit === 1
      const isRevoked = await revoked.isRevoked(fastify.db, jti)
      // A "revoked" entry lives as long as the token could; a "not revoked" one only briefly (see above).
      if (!isRevoked) await tryCache(async () => await cache.set(revokedKey(jti), 0, NOT_REVOKED_TTL_SECONDS))
      return isRevoked
    }
  }
  fastify.decorate('tokens', tokens)

  const stateKey = (userId: string) => `auth-state:${userId}`
  async function cachedState (userId: string): Promise<AuthState | null> {
    const hit = await tryCache(async () => await cache.get<AuthState | 0>(stateKey(userId)))
    if (hit !== undefined) return hit === 0 ? null : hit
    const state = await users.authState(fastify.db, userId)
    await tryCache(async () => await cache.set(stateKey(userId), state ?? 0, AUTH_STATE_TTL_SECONDS))
    return state
  }
  fastify.decorate('invalidateAuthState', async (userId: string) => { await tryCache(async () => await cache.del(stateKey(userId))) })

  interface Resolved { user: AuthUser, claims: AccessClaims, value?: unknown }
  type Found<T = unknown> = { session: SessionState, value: T } | null

  /** The claims of a well-formed, well-signed user token, or the reason there are none. */
  function claimsOf (request: FastifyRequest): AccessClaims | string {
    const token = bearerToken(request)
    if (token == null) return AUTH_REQUIRED
    try {
      return tokens.verify(token)
    } catch {
      return INVALID_TOKEN
    }
  }

  // The same rule as `sessionValid` (repositories/hot/session.ts), which checks it inside a statement.
  function passes (claims: AccessClaims, state: AuthState | null, isRevoked: boolean): state is AuthState {
    return !isRevoked && state != null && state.active && !state.banned && state.tokenVersion === claims.ver
  }

  /** Strict: the database in one statement (exact, even across instances). */
  async function resolveStrict<T> (request: FastifyRequest, read: SessionRead<T>): Promise<Resolved | string> {
    const claims = claimsOf(request)
    if (typeof claims === 'string') return claims
    let found: Found<T>
    try {
      found = await checksOf(read).submit('session', { id: claims.userId, jti: claims.jti })
    } catch (err) {
      request.log.error({ err }, 'auth state unavailable')
      throw new ServiceUnavailable()
    }
    if (found == null || !passes(claims, found.session, found.session.revoked)) return INVALID_TOKEN
    const { session } = found
    return { user: { id: session.id, email: session.email, username: session.username }, claims, value: found.value }
  }

  /** Optional: the same checks, from the cache when it has them. */
  async function resolveOptional (request: FastifyRequest): Promise<Resolved | string> {
    const claims = claimsOf(request)
    if (typeof claims === 'string') return claims
    try {
      const [state, isRevoked] = await Promise.all([cachedState(claims.userId), tokens.isRevoked(claims.jti)])
      if (!passes(claims, state, isRevoked)) return INVALID_TOKEN
      return { user: { id: state.id, email: state.email, username: state.username }, claims }
    } catch {
      return INVALID_TOKEN
    }
  }

  // Strict checks that arrive while one statement reads others go together in the next, one batch per kind of read
  // (the plain check, and each route's `sessionRead`): under load one statement checks many requests (storm of likes:
  // 7,600 requests a second instead of 6,500 with four statements at a time; GET /api/auth/me's statement costs
  // PostgreSQL 80-95 µs alone, 17 a check in tens), and a check never waits for more than the statement before it.
  const batches = new Map<SessionRead<unknown>, Batches<SessionKey, Found>>()
  function checksOf<T> (read: SessionRead<T>): Batches<SessionKey, Found<T>> {
    let checks = batches.get(read)
    if (checks == null) {
      checks = keyedBatches<SessionKey, Found>({ run: async (_key, keys) => await read(fastify.db, keys), max: SESSIONS_PER_STATEMENT })
      batches.set(read, checks)
    }
    return checks as Batches<SessionKey, Found<T>>
  }
  const sessionOnly: SessionRead<undefined> = async (db, checks) =>
    (await users.sessionStates(db, checks)).map(session => session == null ? null : { session, value: undefined })

  fastify.decorate('authenticate', async function (request: FastifyRequest, _reply: FastifyReply) {
    if (request.routeOptions.config.sessionInStatement === true) {
      const claims = claimsOf(request)
      if (claims === AUTH_REQUIRED) throw new AuthenticationRequired()
      if (typeof claims === 'string') throw new InvalidToken()
      request.tokenClaims = claims
      return
    }
    const result = await resolveStrict(request, request.routeOptions.config.sessionRead ?? sessionOnly)
    if (result === AUTH_REQUIRED) throw new AuthenticationRequired()
    if (typeof result === 'string') throw new InvalidToken()
    request.user = result.user
    request.tokenClaims = result.claims
    request.sessionValue = result.value
  })

  fastify.decorate('optionalAuth', async function (request: FastifyRequest, _reply: FastifyReply) {
    const result = await resolveOptional(request)
    if (typeof result === 'string') return
    request.user = result.user
    request.tokenClaims = result.claims
  })

  // Routes that use `authenticate` can answer 401: say so in the OpenAPI document.
  fastify.addHook('onRoute', route => {
    const hooks = ([] as unknown[]).concat(route.onRequest ?? [], route.preHandler ?? [])
    if (hooks.includes(fastify.authenticate)) documentAuth(route)
  })
}, { name: 'auth', dependencies: ['cache', 'db', 'queue', 'users-repository', 'tokens-repository'] })

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
  if (request.user == null) throw new AuthenticationRequired()
  return request.user
}

/** The session a route with `sessionInStatement` checks in its statement. */
export function sessionToCheck (request: FastifyRequest): SessionCheck {
  const claims = request.tokenClaims
  if (claims == null || !request.routeOptions.config.sessionInStatement) throw new AuthenticationRequired()
  return { userId: claims.userId, jti: claims.jti, ver: claims.ver }
}

/** What the route's `sessionRead` read beside the session check (routes behind `authenticate`). */
export function sessionValue<T> (request: FastifyRequest): T {
  if (request.user == null) throw new AuthenticationRequired()
  return request.sessionValue as T
}

/** The claims of the token that signed the request in (routes behind `authenticate`). */
export function currentClaims (request: FastifyRequest): AccessClaims {
  // Without a user, the session is not checked yet (sessionInStatement).
  if (request.tokenClaims == null || request.user == null) throw new AuthenticationRequired()
  return request.tokenClaims
}
