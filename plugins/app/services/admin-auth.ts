// Admin accounts: sign-in with lockout and TOTP MFA, sessions, password change, other admins, the first admin.
import { createHmac, hkdfSync, randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { generateSecret, generateURI, verify as verifyTotp } from 'otplib'
import { normalizeEmail } from '../../../lib/identity.js'
import {
  AccountDeactivated, accountLocked, AdminNotFound, AdminSessionNotFound, DuplicateAdmin, InvalidCredentials, InvalidMfaCode,
  MfaAlreadyEnabled, MfaNotEnabled, MfaSetupMissing, OwnAdminUnlock, validationError, WrongCurrentPassword
} from '../../../lib/errors.js'
import { secretBox } from '../../../lib/secret-box.js'
import type { AdminCreateInput, AdminLoginInput, AdminLoginResult } from '../../../schemas/admin.js'
import { pagination } from '../../../schemas/common.js'
import { ADMIN_IDLE_SECONDS } from '../admin-auth.js'
import type { AdminPrincipal, AdminRow, AdminView } from '../repositories/admins.js'
import { LOCKOUT_ATTEMPTS, LOCKOUT_SECONDS } from './accounts.js'

declare module 'fastify' {
  interface FastifyInstance {
    adminAuthService: ReturnType<typeof createAdminAuthService>
  }
}

export const BACKUP_CODE_COUNT = 10
/** One 30 s step either side of now (RFC 6238 section 5.2). */
const TOTP_TOLERANCE_SECONDS = 30
const TOTP_ISSUER = 'Recipe Platform Admin'
/** bcrypt reads the first 72 bytes of a password; a longer one would be silently cut. */
const MAX_PASSWORD_BYTES = 72
export const MIN_ADMIN_PASSWORD = 12

/** `abcde-fghij`: 50 bits from an unambiguous alphabet. */
function newBackupCode (): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789'
  const bytes = randomBytes(10)
  const chars = [...bytes].map(b => alphabet[b % alphabet.length])
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`
}

const normalizeBackupCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '')

/** The end of a lock still in force; a lock ends LOCKOUT_SECONDS after it began. */
function lockedUntil (lockedAt: Date | null): string | null {
  const until = lockedAt == null ? null : lockedAt.getTime() + LOCKOUT_SECONDS * 1000
  return until != null && until > Date.now() ? new Date(until).toISOString() : null
}

export function adminView (row: AdminView) {
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    active: row.active,
    mfaEnabled: row.mfaEnabled,
    lockedUntil: lockedUntil(row.lockedAt),
    lastLoginAt: row.lastLoginAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString()
  }
}

export function createAdminAuthService (fastify: FastifyInstance) {
  const { adminsRepository: admins, passwords, db } = fastify
  const box = secretBox(fastify.config.adminMfaKey, 'admin-totp')
  const backupKey = Buffer.from(hkdfSync('sha256', fastify.config.adminMfaKey, Buffer.alloc(0), 'admin-backup-codes', 32))
  const hashBackupCode = (adminId: string, code: string) =>
    createHmac('sha256', backupKey).update(`${adminId}:${normalizeBackupCode(code)}`).digest('base64url')

  function checkNewPassword (password: string, field = 'password'): void {
    if (password.length < MIN_ADMIN_PASSWORD) throw validationError([`${field}: must be at least ${MIN_ADMIN_PASSWORD} characters`])
    if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) throw validationError([`${field}: must be at most ${MAX_PASSWORD_BYTES} bytes`])
  }

  /** Counts a password attempt before comparing (423 while locked, nothing compared), as user sign-in does. */
  async function reserveAttempt (adminId: string): Promise<void> {
    if (await admins.reserveLoginAttempt(db, adminId, LOCKOUT_ATTEMPTS, LOCKOUT_SECONDS) != null) return
    throw accountLocked(await admins.lockSecondsLeft(db, adminId, LOCKOUT_SECONDS) ?? 1)
  }

  /** The right password is no failure: its reservation, and a lock that reservation set, are given back. */
  async function releaseAttempt (adminId: string): Promise<void> {
    await admins.releaseLoginAttempt(db, adminId, LOCKOUT_ATTEMPTS, LOCKOUT_SECONDS)
  }

  /** `password` against `hash` under a reserved lockout attempt (Passwords.verifyCounted). */
  async function verifyCounted (adminId: string, password: string, hash: string): Promise<boolean> {
    return await passwords.verifyCounted(password, hash, {
      account: adminId,
      reserve: async () => { await reserveAttempt(adminId) },
      release: async () => { await releaseAttempt(adminId) }
    })
  }

  /**
   * The current password on a signed-in route, checked like a sign-in (decisions.md, MFA): counted against the lockout,
   * 423 while locked, 401 `Invalid credentials` when wrong. A session alone is not enough to change the second factor.
   */
  async function confirmPassword (row: AdminRow, password: string): Promise<void> {
    if (!(await verifyCounted(row.id, password, row.password))) throw new InvalidCredentials()
    await releaseAttempt(row.id)
  }

  /** A TOTP code against a sealed secret; the accepted step is consumed at once (a replay gets false). */
  async function acceptTotp (admin: Pick<AdminRow, 'id' | 'mfaLastStep'>, sealed: string, code: string, consume = true): Promise<number | null> {
    const secret = box.open(sealed)
    if (secret == null || !/^\d{6}$/.test(code)) return null
    const result = await verifyTotp({ secret, token: code, epochTolerance: TOTP_TOLERANCE_SECONDS, afterTimeStep: admin.mfaLastStep ?? undefined })
    // otplib types the result for HOTP and TOTP alike; a TOTP match carries its time step.
    if (!result.valid || !('timeStep' in result)) return null
    if (consume && !(await admins.useTotpStep(db, admin.id, result.timeStep))) return null
    return result.timeStep
  }

  /** The second factor: a TOTP code or an unused backup code. */
  async function secondFactor (admin: AdminRow, code: { totpCode?: string, backupCode?: string }): Promise<boolean> {
    if (admin.mfaSecret == null) return true
    if (code.totpCode != null) return await acceptTotp(admin, admin.mfaSecret, code.totpCode) != null
    if (code.backupCode != null) return await admins.useBackupCode(db, admin.id, hashBackupCode(admin.id, code.backupCode))
    return false
  }

  async function credentials (adminId: string): Promise<AdminRow> {
    const row = await admins.credentials(db, adminId)
    if (row == null) throw new InvalidCredentials()
    return row
  }

  async function create (input: AdminCreateInput, createdBy: string | null): Promise<AdminView> {
    checkNewPassword(input.password)
    if (input.username.includes('@')) throw validationError(['username: must not contain @'])
    const created = await admins.create(db, {
      email: normalizeEmail(input.email),
      username: input.username,
      password: await passwords.hash(input.password),
      createdBy
    })
    if (created == null) throw new DuplicateAdmin()
    return created
  }

  return {
    /**
     * Sign-in: identifier = email (lower-cased) or username (exact case). Wrong password or second factor: 401, counted
     * against the account (5 lock it for 15 minutes). The right password without a code on an MFA account answers
     * `mfaRequired` and counts nothing.
     */
    async login (input: AdminLoginInput, client: { ip: string, userAgent: string | null }): Promise<AdminLoginResult> {
      const admin = await admins.findForLogin(db, input.identifier.includes('@')
        ? { email: normalizeEmail(input.identifier) }
        : { username: input.identifier })
      if (admin == null) {
        await passwords.verify(input.password, null)
        throw new InvalidCredentials()
      }
      if (!(await verifyCounted(admin.id, input.password, admin.password))) throw new InvalidCredentials()
      if (!admin.active) throw new AccountDeactivated()
      if (admin.mfaSecret != null && input.totpCode == null && input.backupCode == null) {
        await releaseAttempt(admin.id)
        return { mfaRequired: true }
      }
      if (!(await secondFactor(admin, input))) throw new InvalidMfaCode()
      await admins.loginSucceeded(db, admin.id)
      const { token, expiresAt } = await fastify.adminTokens.issue(admin.id, client)
      const view = await admins.find(db, admin.id)
      return { token, expiresAt: expiresAt.toISOString(), admin: adminView(view!) }
    },

    async logout (admin: AdminPrincipal): Promise<void> {
      await admins.revokeSession(db, admin.id, admin.sessionId)
    },

    /** Changes the password (12+ characters) and ends every other session of the admin. */
    async changePassword (admin: AdminPrincipal, currentPassword: string, newPassword: string): Promise<void> {
      checkNewPassword(newPassword, 'newPassword')
      const row = await credentials(admin.id)
      if (!(await verifyCounted(admin.id, currentPassword, row.password))) throw new WrongCurrentPassword()
      const hash = await passwords.hash(newPassword)
      await fastify.transaction(async tx => {
        await admins.setPassword(tx, admin.id, hash)
        await admins.revokeOtherSessions(tx, admin.id, admin.sessionId)
      })
    },

    async sessions (admin: AdminPrincipal) {
      const rows = await admins.sessions(db, admin.id, ADMIN_IDLE_SECONDS)
      return rows.map(s => ({
        id: s.id,
        ip: s.ip,
        userAgent: s.userAgent,
        createdAt: s.createdAt.toISOString(),
        lastSeenAt: s.lastSeenAt.toISOString(),
        expiresAt: s.expiresAt.toISOString(),
        current: s.id === admin.sessionId
      }))
    },

    async revokeSession (admin: AdminPrincipal, sessionId: string): Promise<void> {
      if (!(await admins.revokeSession(db, admin.id, sessionId))) throw new AdminSessionNotFound()
    },

    /** A new TOTP secret, pending until `enableMfa` proves the authenticator has it. Needs the current password. */
    async setupMfa (admin: AdminPrincipal, password: string): Promise<{ secret: string, otpauthUrl: string }> {
      const row = await credentials(admin.id)
      if (row.mfaSecret != null) throw new MfaAlreadyEnabled()
      await confirmPassword(row, password)
      const secret = generateSecret()
      await admins.setPendingMfaSecret(db, admin.id, box.seal(secret))
      return { secret, otpauthUrl: generateURI({ issuer: TOTP_ISSUER, label: row.email, secret }) }
    },

    /**
     * Turns MFA on with the current password and the first code of the pending secret; the 10 backup codes are shown
     * this once.
     */
    async enableMfa (admin: AdminPrincipal, password: string, code: string): Promise<{ backupCodes: string[] }> {
      const row = await credentials(admin.id)
      if (row.mfaSecret != null) throw new MfaAlreadyEnabled()
      if (row.mfaPendingSecret == null) throw new MfaSetupMissing()
      await confirmPassword(row, password)
      const step = await acceptTotp({ id: row.id, mfaLastStep: null }, row.mfaPendingSecret, code, false)
      if (step == null) throw new InvalidMfaCode()
      const backupCodes = Array.from({ length: BACKUP_CODE_COUNT }, newBackupCode)
      const enabled = await fastify.transaction(async tx =>
        await admins.enableMfa(tx, admin.id, row.mfaPendingSecret!, step, backupCodes.map(c => hashBackupCode(admin.id, c))))
      if (!enabled) throw new MfaAlreadyEnabled()
      return { backupCodes }
    },

    /** Turns MFA off: the password and a current code (TOTP or backup) are both required. */
    async disableMfa (admin: AdminPrincipal, password: string, code: string): Promise<void> {
      const row = await credentials(admin.id)
      if (row.mfaSecret == null) throw new MfaNotEnabled()
      if (!(await verifyCounted(admin.id, password, row.password))) throw new WrongCurrentPassword()
      const factor = /^\d{6}$/.test(code) ? { totpCode: code } : { backupCode: code }
      if (!(await secondFactor(row, factor))) throw new InvalidMfaCode()
      await fastify.transaction(async tx => {
        await admins.disableMfa(tx, admin.id)
        await admins.loginSucceeded(tx, admin.id)
      })
    },

    async me (admin: AdminPrincipal) {
      const row = await admins.find(db, admin.id)
      if (row == null) throw new InvalidCredentials()
      return { ...adminView(row), backupCodesLeft: row.mfaEnabled ? await admins.unusedBackupCodes(db, admin.id) : 0 }
    },

    async list (page: number, limit: number) {
      const { items, total } = await admins.list(db, page, limit)
      return { admins: items.map(adminView), pagination: pagination(page, limit, total) }
    },

    /**
     * Ends another admin's lock (decisions.md, Admin: `/unlock` as for users). Never one's own: a stolen session could
     * otherwise reset the lockout that guards the password checks of the MFA routes, and guess on.
     */
    async unlock (by: AdminPrincipal, adminId: string) {
      if (adminId === by.id) throw new OwnAdminUnlock()
      if (!await admins.unlock(db, adminId)) throw new AdminNotFound()
      const row = await admins.find(db, adminId)
      if (row == null) throw new AdminNotFound()
      return adminView(row)
    },

    /** Another admin, created by `createdBy` (null: from the command line). */
    async create (input: AdminCreateInput, createdBy: string | null) {
      return adminView(await create(input, createdBy))
    },

    /** The first admin, from ADMIN_BOOTSTRAP_* or `npm run admin:create`, only while no admin exists. */
    async createFirst (input: AdminCreateInput): Promise<AdminView | null> {
      checkNewPassword(input.password)
      return await admins.createFirst(db, {
        email: normalizeEmail(input.email),
        username: input.username,
        password: await passwords.hash(input.password)
      })
    }
  }
}

export default fp(async fastify => {
  const service = createAdminAuthService(fastify)
  fastify.decorate('adminAuthService', service)
  const bootstrap = fastify.config.adminBootstrap
  if (bootstrap != null) {
    const created = await service.createFirst(bootstrap)
    if (created != null) fastify.log.info({ adminId: created.id, username: created.username }, 'first admin created from ADMIN_BOOTSTRAP_*')
  }
}, { name: 'admin-auth-service', dependencies: ['admin-auth', 'admins-repository', 'password', 'db'] })
