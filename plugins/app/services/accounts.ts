// Accounts: registration, sign-in with lockout, tokens (refresh, logout), password change and reset, external
// sign-in (ID tokens verified against the provider's JWKS with jose) and the one-time code exchange.
import { createHash, randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose'
import {
  AccountBanned, AccountDeactivated, accountLocked, DuplicateAccount, InvalidCode, InvalidCredentials,
  InvalidIdentityToken, InvalidResetToken, InvalidToken, isUniqueViolation, ProviderNotConfigured, validationError,
  WrongCurrentPassword
} from '../../../lib/errors.js'
import { isReservedUsername, normalizeEmail, passwordProblems, usernameFromEmail, usernameKey } from '../../../lib/identity.js'
import type { LoginInput, RegisterInput } from '../../../schemas/auth.js'
import type { UserSelfView } from '../../../schemas/users.js'
import { type AccessClaims, type AuthUser, TOKEN_LIFETIME_SECONDS } from '../auth.js'
import type { AccountRow } from '../repositories/users.js'

/** decisions.md: 5 failed attempts lock the account for 15 minutes; the lock expires by itself. */
export const LOCKOUT_ATTEMPTS = 5
export const LOCKOUT_SECONDS = 15 * 60
const RESET_TOKEN_TTL_MS = 60 * 60 * 1000
const OAUTH_CODE_TTL_SECONDS = 60
const ID_TOKEN_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA']

export interface Session { user: UserSelfView, token: string }

declare module 'fastify' {
  interface FastifyInstance {
    accountService: ReturnType<typeof createAccountService>
  }
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')

function assertPassword (password: string, field = 'password'): void {
  const problems = passwordProblems(password, field)
  if (problems.length > 0) throw validationError(problems)
}

/** Banned or deactivated accounts cannot sign in (banned first: it is the stronger reason). */
function assertUsable (account: Pick<AccountRow, 'active' | 'bannedAt'>): void {
  if (account.bannedAt != null) throw new AccountBanned()
  if (!account.active) throw new AccountDeactivated()
}

const PASSWORD_RESET_JOB = 'auth.password-reset'

export function createAccountService (fastify: FastifyInstance) {
  const { usersRepository: users, tokens, passwords } = fastify
  const keySets = new Map<string, JWTVerifyGetKey>()

  /** The signed-in answer: the own profile and a fresh token at the account's current token version. */
  async function session (account: Pick<AccountRow, 'id' | 'email' | 'tokenVersion'>): Promise<Session> {
    const [user, { token }] = await Promise.all([users.self(fastify.db, account.id), tokens.issue(account)])
    if (user == null) throw new InvalidCredentials()
    return { user, token }
  }

  /**
   * Counts one password attempt against the account BEFORE the password is compared, so however many requests run
   * at once, at most LOCKOUT_ATTEMPTS passwords are ever compared per lock period. Locked: 423, nothing compared.
   */
  async function reserveAttempt (userId: string): Promise<void> {
    const attempt = await users.reserveLoginAttempt(fastify.db, userId, LOCKOUT_ATTEMPTS, LOCKOUT_SECONDS)
    if (attempt != null) return
    const left = await users.lockSecondsLeft(fastify.db, userId, LOCKOUT_SECONDS)
    throw accountLocked(left ?? 1)
  }

  /** `password` against `hash` under a reserved lockout attempt (Passwords.verifyCounted). */
  async function verifyCounted (userId: string, password: string, hash: string | null): Promise<boolean> {
    return await passwords.verifyCounted(password, hash, {
      account: userId,
      reserve: async () => { await reserveAttempt(userId) },
      release: async () => { await users.releaseLoginAttempt(fastify.db, userId, LOCKOUT_ATTEMPTS, LOCKOUT_SECONDS) }
    })
  }

  async function verifyIdToken (provider: string, idToken: string): Promise<{ subject: string, email: string, emailVerified: boolean }> {
    const config = fastify.config.oauthProviders[provider]
    if (config == null) throw ProviderNotConfigured()
    let keys = keySets.get(provider)
    if (keys == null) {
      keys = createRemoteJWKSet(new URL(config.jwksUrl), { timeoutDuration: 5000, cooldownDuration: 30_000 })
      keySets.set(provider, keys)
    }
    try {
      const { payload } = await jwtVerify(idToken, keys, { issuer: config.issuer, audience: config.audience, algorithms: ID_TOKEN_ALGORITHMS })
      if (typeof payload.sub !== 'string' || typeof payload.email !== 'string') throw new Error('subject and email required')
      return { subject: payload.sub, email: normalizeEmail(payload.email), emailVerified: payload.email_verified === true }
    } catch (err) {
      fastify.log.info({ err: err instanceof Error ? err.message : String(err), provider }, 'identity token refused')
      throw new InvalidIdentityToken()
    }
  }

  /** A free username based on `base`; the unique index settles races (the caller retries). */
  async function freeUsername (base: string): Promise<string> {
    for (let i = 0; i < 20; i++) {
      const candidate = i === 0 ? base : `${base.slice(0, 24)}${randomBytes(2).readUInt16BE() % 10_000}`
      if (!isReservedUsername(candidate) && !(await users.usernameTaken(fastify.db, usernameKey(candidate)))) return candidate
    }
    return `user${randomBytes(6).toString('hex')}`
  }

  /** A one-time code (stored hashed, 60 s) that exchangeCode turns into a session for `userId`. */
  async function issueCode (userId: string): Promise<{ code: string, expiresIn: number }> {
    const code = randomBytes(32).toString('base64url')
    await fastify.cache.set(`oauth-code:${sha256(code)}`, userId, OAUTH_CODE_TTL_SECONDS)
    return { code, expiresIn: OAUTH_CODE_TTL_SECONDS }
  }

  /** The account of an external identity: found by the identity, linked by a verified email, or created. */
  /** A new account and its welcome email, together or not at all. */
  async function createAccount (row: Parameters<typeof users.create>[1]): Promise<AccountRow> {
    return await fastify.transaction(async tx => {
      const account = await users.create(tx, row)
      await fastify.emailService.welcome(tx, account)
      return account
    })
  }

  async function externalAccount (provider: string, idToken: string): Promise<AccountRow> {
    const identity = await verifyIdToken(provider, idToken)
    const linked = await users.findByOAuth(fastify.db, provider, identity.subject)
    if (linked != null) {
      assertUsable(linked)
      return linked
    }
    const byEmail = await users.findForLogin(fastify.db, { email: identity.email })
    if (byEmail != null) {
      // Linking to an existing account only on the provider's word that the address is verified.
      if (!identity.emailVerified) throw new DuplicateAccount()
      assertUsable(byEmail)
      await users.linkOAuth(fastify.db, byEmail.id, provider, identity.subject)
      return byEmail
    }
    const randomPassword = await passwords.hash(randomBytes(32).toString('base64url'))
    for (let attempt = 0; ; attempt++) {
      const username = await freeUsername(usernameFromEmail(identity.email))
      try {
        return await createAccount({
          email: identity.email,
          username,
          usernameKey: usernameKey(username),
          password: randomPassword,
          oauthProvider: provider,
          oauthId: identity.subject
        })
      } catch (err) {
        if (!isUniqueViolation(err) || attempt >= 3) throw err
        // Lost a race: the identity may now exist (the same sign-in twice) or the username was taken.
        const winner = await users.findByOAuth(fastify.db, provider, identity.subject)
        if (winner != null) return winner
      }
    }
  }

  return {
    async register (input: RegisterInput): Promise<Session> {
      assertPassword(input.password)
      if (isReservedUsername(input.username)) throw new DuplicateAccount()
      const email = normalizeEmail(input.email)
      const key = usernameKey(input.username)
      // Cheap early answer; the unique indexes remain the real guard against concurrent registrations.
      if (await users.exists(fastify.db, email, key)) throw new DuplicateAccount()
      const hash = await passwords.hash(input.password)
      let account: AccountRow
      try {
        account = await createAccount({
          email,
          username: input.username,
          usernameKey: key,
          password: hash,
          firstName: input.firstName ?? null,
          lastName: input.lastName ?? null
        })
      } catch (err) {
        if (isUniqueViolation(err)) throw new DuplicateAccount()
        throw err
      }
      return await session(account)
    },

    /** Same answer and one bcrypt comparison whether or not the account exists; the status only after the password. */
    async login (input: LoginInput): Promise<Session> {
      const identifier = input.identifier ?? input.email ?? input.username
      if (identifier == null) throw validationError(['identifier: is required'])
      const by = identifier.includes('@') ? { email: normalizeEmail(identifier) } : { usernameKey: usernameKey(identifier) }
      const account = await users.findForLogin(fastify.db, by)
      if (account == null) {
        await passwords.verify(input.password, null)
        throw new InvalidCredentials()
      }
      if (!(await verifyCounted(account.id, input.password, account.password))) throw new InvalidCredentials()
      assertUsable(account)
      await users.recordSuccessfulLogin(fastify.db, account.id)
      return await session(account)
    },

    /** A new token for the presented one, which is revoked: of concurrent refreshes of one token, only one wins. */
    async refresh (user: AuthUser, claims: AccessClaims): Promise<{ token: string, expiresIn: number }> {
      if (!(await tokens.revoke(claims))) throw new InvalidToken()
      const { token } = await tokens.issue({ id: user.id, email: user.email, tokenVersion: claims.ver })
      return { token, expiresIn: TOKEN_LIFETIME_SECONDS }
    },

    async logout (claims: AccessClaims): Promise<void> {
      await tokens.revoke(claims)
    },

    /**
     * Wrong current passwords count against the account like failed sign-ins (423 once locked). Every token issued
     * before stops working; the answer carries a fresh one.
     */
    async changePassword (user: AuthUser, currentPassword: string, newPassword: string): Promise<{ token: string }> {
      assertPassword(newPassword, 'newPassword')
      if (!(await verifyCounted(user.id, currentPassword, await users.passwordHash(fastify.db, user.id)))) throw new WrongCurrentPassword()
      const tokenVersion = await users.setPassword(fastify.db, user.id, await passwords.hash(newPassword))
      if (tokenVersion == null) throw new InvalidToken()
      await fastify.invalidateAuthState(user.id)
      const { token } = await tokens.issue({ id: user.id, email: user.email, tokenVersion })
      return { token }
    },

    /**
     * Answers the same way for every address, after the same work (queueing a job): whether the account exists is
     * only looked at by the job, which writes the token and the email in one transaction.
     */
    async requestPasswordReset (emailInput: string): Promise<void> {
      await fastify.queue.send(PASSWORD_RESET_JOB, { email: normalizeEmail(emailInput) })
    },

    async resetPassword (token: string, password: string): Promise<void> {
      const tokenHash = sha256(token)
      if (!(await users.resetTokenValid(fastify.db, tokenHash))) throw new InvalidResetToken()
      assertPassword(password)
      // The update re-checks the token, so two concurrent resets with one token cannot both succeed.
      const userId = await users.resetPassword(fastify.db, tokenHash, await passwords.hash(password))
      if (userId == null) throw new InvalidResetToken()
      await fastify.invalidateAuthState(userId)
    },

    async oauthSignIn (provider: string, idToken: string): Promise<Session> {
      return await session(await externalAccount(provider, idToken))
    },

    /** For browser redirects: a one-time code stands in for the token in the URL. */
    async oauthCode (provider: string, idToken: string): Promise<{ code: string, expiresIn: number }> {
      const account = await externalAccount(provider, idToken)
      return await issueCode(account.id)
    },

    issueCode,

    /** Works once, even for concurrent callers (the cache hands the value out once). */
    async exchangeCode (code: string): Promise<Session> {
      const userId = await fastify.cache.take<string>(`oauth-code:${sha256(code)}`)
      if (userId == null) throw new InvalidCode()
      const state = await users.authState(fastify.db, userId)
      if (state == null) throw new InvalidCode()
      if (state.banned) throw new AccountBanned()
      if (!state.active) throw new AccountDeactivated()
      return await session(state)
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('accountService', createAccountService(fastify))
  const users = fastify.usersRepository
  await fastify.queue.work<{ email: string }>(PASSWORD_RESET_JOB, async ({ email }) => {
    const account = await users.findForLogin(fastify.db, { email })
    if (account == null || !account.active || account.bannedAt != null) return
    const token = randomBytes(32).toString('base64url')
    const link = `${fastify.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`
    await fastify.transaction(async tx => {
      await users.setResetToken(tx, account.id, sha256(token), new Date(Date.now() + RESET_TOKEN_TTL_MS))
      await fastify.emailService.passwordReset(tx, account, link, RESET_TOKEN_TTL_MS / 60_000)
    })
  })
}, { name: 'account-service', dependencies: ['auth', 'users-repository', 'password', 'email-service', 'queue', 'cache', 'db'] })
