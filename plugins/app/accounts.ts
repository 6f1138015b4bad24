// Account flows (register, sign-in, external identity, password reset) shared by the auth routes.
import { createHash, randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose'
import { accountLocked, HttpError, postgresCode, validationError } from '../../lib/errors.js'
import { isReservedUsername, normalizeEmail, passwordProblems, usernameFromEmail, usernameKey } from '../../lib/identity.js'
import type { SelfUserRow } from './repositories/users.js'
import { LOCKOUT_ATTEMPTS, LOCKOUT_SECONDS } from './repositories/users.js'

export const DUPLICATE_ACCOUNT = 'An account with these details already exists'
export const INVALID_CREDENTIALS = 'Invalid credentials'
const RESET_TOKEN_TTL_MS = 60 * 60 * 1000
const OAUTH_CODE_TTL_SECONDS = 60

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')

export function selfView (row: SelfUserRow) {
  const { planId, emailPreferences: _prefs, ...rest } = row
  return { ...rest, plan: planId }
}

export interface Session { user: ReturnType<typeof selfView>, token: string }

declare module 'fastify' {
  interface FastifyInstance {
    accounts: ReturnType<typeof createAccounts>
  }
}

const isUniqueViolation = (err: unknown) => postgresCode(err) === '23505'

/** Seconds left of a lock set at `lockedAt` (0 or less: expired). */
const lockSecondsLeft = (lockedAt: Date) => Math.ceil((lockedAt.getTime() + LOCKOUT_SECONDS * 1000 - Date.now()) / 1000)

export function createAccounts (fastify: FastifyInstance) {
  const repo = fastify.usersRepository
  const keySets = new Map<string, JWTVerifyGetKey>()

  async function session (userId: string): Promise<Session> {
    const user = await repo.self(userId)
    if (user == null) throw new HttpError(401, INVALID_CREDENTIALS)
    const { token } = await fastify.tokens.issue({ id: user.id, email: user.email })
    return { user: selfView(user), token }
  }

  function assertPassword (password: string, field = 'password'): void {
    const problems = passwordProblems(password, field)
    if (problems.length > 0) throw validationError(problems)
  }

  async function verifyIdToken (provider: string, idToken: string): Promise<{ subject: string, email: string, emailVerified: boolean }> {
    const config = fastify.config.oauthProviders[provider]
    if (config == null) throw validationError(['provider: is not configured'])
    let keys = keySets.get(provider)
    if (keys == null) {
      keys = createRemoteJWKSet(new URL(config.jwksUrl), { timeoutDuration: 5000, cooldownDuration: 30_000 })
      keySets.set(provider, keys)
    }
    try {
      const { payload } = await jwtVerify(idToken, keys, {
        issuer: config.issuer,
        audience: config.audience,
        algorithms: ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA']
      })
      if (typeof payload.sub !== 'string' || typeof payload.email !== 'string') throw new Error('subject and email required')
      return { subject: payload.sub, email: normalizeEmail(payload.email), emailVerified: payload.email_verified === true }
    } catch (err) {
      fastify.log.info({ err: (err as Error).message, provider }, 'identity token refused')
      throw new HttpError(401, 'Invalid identity token')
    }
  }

  /** A free username based on `base`; the unique index settles races (the caller retries). */
  async function freeUsername (base: string): Promise<string> {
    for (let i = 0; i < 20; i++) {
      const candidate = i === 0 ? base : `${base.slice(0, 24)}${randomBytes(2).readUInt16BE() % 10_000}`
      if (!isReservedUsername(candidate) && !(await repo.usernameTaken(usernameKey(candidate)))) return candidate
    }
    return `user${randomBytes(6).toString('hex')}`
  }

  return {
    session,

    async register (input: { email: string, username: string, password: string, firstName?: string, lastName?: string }): Promise<Session> {
      assertPassword(input.password)
      if (isReservedUsername(input.username)) throw new HttpError(409, DUPLICATE_ACCOUNT)
      const email = normalizeEmail(input.email)
      const key = usernameKey(input.username)
      // Cheap early answer; the unique indexes remain the real guard against concurrent registrations.
      if (await repo.exists(email, key)) throw new HttpError(409, DUPLICATE_ACCOUNT)
      const hash = await fastify.passwords.hash(input.password)
      try {
        const user = await repo.create({
          email,
          username: input.username,
          usernameKey: key,
          password: hash,
          firstName: input.firstName ?? null,
          lastName: input.lastName ?? null
        })
        return await session(user.id)
      } catch (err) {
        if (isUniqueViolation(err)) throw new HttpError(409, DUPLICATE_ACCOUNT)
        throw err
      }
    },

    async login (identifier: string, password: string): Promise<Session> {
      const user = await repo.findForLogin(identifier.includes('@') ? { email: normalizeEmail(identifier) } : { usernameKey: usernameKey(identifier) })
      const lockedFor = user?.lockedAt == null ? 0 : lockSecondsLeft(user.lockedAt)
      if (lockedFor > 0) throw accountLocked(lockedFor)
      // Always one bcrypt comparison, so an unknown account answers as slowly as a wrong password.
      const valid = await fastify.passwords.verify(password, user?.password)
      if (user == null) throw new HttpError(401, INVALID_CREDENTIALS)
      if (!valid) {
        const { attempts, lockedAt } = await repo.recordFailedLogin(user.id)
        if (lockedAt != null && attempts > LOCKOUT_ATTEMPTS) {
          throw accountLocked(lockSecondsLeft(lockedAt))
        }
        throw new HttpError(401, INVALID_CREDENTIALS)
      }
      if (user.bannedAt != null) throw new HttpError(403, 'Account is banned')
      if (!user.active) throw new HttpError(403, 'Account is deactivated')
      await repo.recordSuccessfulLogin(user.id)
      return await session(user.id)
    },

    async changePassword (userId: string, currentPassword: string, newPassword: string): Promise<void> {
      const hash = await repo.passwordHash(userId)
      if (!(await fastify.passwords.verify(currentPassword, hash))) throw new HttpError(400, 'Current password is incorrect')
      assertPassword(newPassword, 'newPassword')
      await repo.setPassword(userId, await fastify.passwords.hash(newPassword))
      await fastify.invalidateAuthState(userId)
    },

    /** Always resolves the same way; the email (if any) is prepared in the background so timing says nothing. */
    requestPasswordReset (emailInput: string): void {
      fastify.background('password-reset-email', async () => {
        const user = await repo.findForLogin({ email: normalizeEmail(emailInput) })
        if (user == null || !user.active || user.bannedAt != null) return
        const token = randomBytes(32).toString('base64url')
        await repo.setResetToken(user.id, sha256(token), new Date(Date.now() + RESET_TOKEN_TTL_MS))
        const link = `${fastify.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`
        await fastify.mailer.send({
          to: user.email,
          userId: user.id,
          kind: 'password-reset',
          subject: 'Reset your password',
          text: `Someone asked to reset the password of your account "${user.username}".\n\n` +
            `Open this link within one hour to choose a new password:\n${link}\n\n` +
            'If it was not you, ignore this email: your password stays as it is.'
        })
      })
    },

    async resetPassword (token: string, password: string): Promise<void> {
      const tokenHash = sha256(token)
      if ((await repo.findByResetToken(tokenHash)) == null) throw new HttpError(400, 'Invalid or expired reset token')
      assertPassword(password)
      // The update re-checks the token, so two concurrent resets with one token cannot both succeed.
      const userId = await repo.resetPassword(tokenHash, await fastify.passwords.hash(password))
      if (userId == null) throw new HttpError(400, 'Invalid or expired reset token')
      await fastify.invalidateAuthState(userId)
    },

    /** Finds or creates the account of an external identity; returns its id. */
    async externalSignIn (provider: string, idToken: string): Promise<string> {
      const identity = await verifyIdToken(provider, idToken)
      const linked = await repo.findByOAuth(provider, identity.subject)
      if (linked != null) {
        if (linked.bannedAt != null || !linked.active) throw new HttpError(403, 'Account is deactivated')
        return linked.id
      }
      const byEmail = await repo.findForLogin({ email: identity.email })
      if (byEmail != null) {
        // Linking to an existing account only on the provider's word that the address is verified.
        if (!identity.emailVerified) throw new HttpError(409, DUPLICATE_ACCOUNT)
        if (byEmail.bannedAt != null || !byEmail.active) throw new HttpError(403, 'Account is deactivated')
        await repo.linkOAuth(byEmail.id, provider, identity.subject)
        return byEmail.id
      }
      const randomPassword = await fastify.passwords.hash(randomBytes(32).toString('base64url'))
      for (let attempt = 0; ; attempt++) {
        const username = await freeUsername(usernameFromEmail(identity.email))
        try {
          const user = await repo.create({
            email: identity.email,
            username,
            usernameKey: usernameKey(username),
            password: randomPassword,
            oauthProvider: provider,
            oauthId: identity.subject
          })
          return user.id
        } catch (err) {
          if (!isUniqueViolation(err) || attempt >= 3) throw err
          // Lost a race: the identity may now exist (same sign-in twice) or the username was taken.
          const winner = await repo.findByOAuth(provider, identity.subject)
          if (winner != null) return winner.id
        }
      }
    },

    async issueCode (userId: string): Promise<{ code: string, expiresIn: number }> {
      const code = randomBytes(32).toString('base64url')
      await fastify.cache.set(`oauth-code:${sha256(code)}`, userId, OAUTH_CODE_TTL_SECONDS)
      return { code, expiresIn: OAUTH_CODE_TTL_SECONDS }
    },

    async exchangeCode (code: string): Promise<Session> {
      const userId = await fastify.cache.take<string>(`oauth-code:${sha256(code)}`)
      if (userId == null) throw new HttpError(400, 'Invalid or expired code')
      return await session(userId)
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('accounts', createAccounts(fastify))
}, { name: 'accounts', dependencies: ['auth', 'users-repository', 'password', 'mailer', 'background', 'cache'] })
