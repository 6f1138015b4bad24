// Admin tokens and `requireAdmin`. Admin tokens are the 'admin' namespace of @fastify/jwt, signed with
// ADMIN_JWT_SECRET (which config.ts makes differ from JWT_SECRET), so a user token never passes `requireAdmin` and an
// admin token never passes `authenticate`. Each token is bound to an admin_sessions row by its hash: every admin
// request checks, in one statement, that the session is not revoked, not past 8 h and used within 30 min, and that its
// admin is active.
import { createHash } from 'node:crypto'
import fastifyJwt from '@fastify/jwt'
import { createId } from '@paralleldrive/cuid2'
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import { AdminAuthRequired, InvalidAdminToken, ServiceUnavailable } from '../../lib/errors.js'
import type { AdminPrincipal } from './repositories/admins.js'
import { documentErrors } from './schemas.js'

export const ADMIN_SESSION_SECONDS = 8 * 60 * 60
export const ADMIN_IDLE_SECONDS = 30 * 60
const AUDIENCE = 'admin'

interface AdminClaims { sub: string, sid: string, aud: string, typ: string }

export interface AdminTokens {
  /** A new session for the admin and the token bound to it. */
  issue: (adminId: string, client: { ip: string, userAgent: string | null }) => Promise<{ token: string, sessionId: string, expiresAt: Date }>
}

declare module 'fastify' {
  interface FastifyInstance {
    adminTokens: AdminTokens
    requireAdmin: onRequestAsyncHookHandler
  }
  interface FastifyRequest {
    /** The signed-in admin on routes behind `requireAdmin`. */
    admin: AdminPrincipal | null
  }
}

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('base64url')

function isAdminClaims (payload: unknown): payload is AdminClaims {
  if (payload == null || typeof payload !== 'object') return false
  const claims: Record<string, unknown> = { ...payload }
  return typeof claims.sub === 'string' && typeof claims.sid === 'string' && claims.aud === AUDIENCE && claims.typ === 'admin'
}

function bearerToken (request: FastifyRequest): string | null | undefined {
  const header = request.headers.authorization
  if (header == null || header === '') return undefined
  return /^Bearer\s+([A-Za-z0-9_.~+/=-]+)\s*$/i.exec(header)?.[1] ?? null
}

export default fp(async fastify => {
  const admins = fastify.adminsRepository
  await fastify.register(fastifyJwt, {
    namespace: 'admin',
    secret: fastify.config.adminJwtSecret,
    sign: { algorithm: 'HS256', expiresIn: ADMIN_SESSION_SECONDS, aud: AUDIENCE },
    verify: { algorithms: ['HS256'], allowedAud: AUDIENCE },
    decoratorName: 'jwtPayload'
  })
  const jwt = fastify.jwt.admin
  fastify.decorateRequest('admin', null)

  fastify.decorate('adminTokens', {
    async issue (adminId, client) {
      const sessionId = createId()
      const token = jwt.sign({ sub: adminId, sid: sessionId, typ: 'admin' })
      const expiresAt = new Date(Date.now() + ADMIN_SESSION_SECONDS * 1000)
      await admins.createSession(fastify.db, {
        id: sessionId,
        adminId,
        tokenHash: tokenHash(token),
        ip: client.ip,
        userAgent: client.userAgent?.slice(0, 500) ?? null,
        expiresAt
      })
      return { token, sessionId, expiresAt }
    }
  } satisfies AdminTokens)

  fastify.decorate('requireAdmin', async function (request: FastifyRequest, _reply: FastifyReply) {
    const token = bearerToken(request)
    if (token === undefined) throw new AdminAuthRequired()
    if (token === null) throw new InvalidAdminToken()
    let claims: AdminClaims
    try {
      const payload = jwt.verify<object>(token)
      if (!isAdminClaims(payload)) throw new Error('not an admin token')
      claims = payload
    } catch {
      throw new InvalidAdminToken()
    }
    let admin: AdminPrincipal | null
    try {
      admin = await admins.touchSession(fastify.db, claims.sid, tokenHash(token), ADMIN_IDLE_SECONDS)
    } catch (err) {
      request.log.error({ err }, 'admin session state unavailable')
      throw new ServiceUnavailable()
    }
    if (admin == null || admin.id !== claims.sub) throw new InvalidAdminToken()
    request.admin = admin
  })

  // Purge sessions long over: a timed job, so one instance does it per tick.
  const PURGE_JOB = 'admin.purge-sessions'
  await fastify.queue.work(PURGE_JOB, async () => {
    while (await admins.purgeEnded(fastify.db, 5000) === 5000);
  })
  await fastify.queue.schedule(PURGE_JOB, '17 * * * *')
}, { name: 'admin-auth', dependencies: ['auth', 'db', 'queue', 'admins-repository'] })

/** Marks a route as needing an admin token in the OpenAPI document, with its 401 answer. */
export function documentAdminAuth (route: RouteOptions): void {
  if (route.schema == null) return
  route.schema.security ??= [{ adminBearerAuth: [] }]
  documentErrors(route, [401])
}

/** The signed-in admin on a route behind `requireAdmin`. */
export function currentAdmin (request: FastifyRequest): AdminPrincipal {
  if (request.admin == null) throw new AdminAuthRequired()
  return request.admin
}
