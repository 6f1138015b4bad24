// The admin API's own accounts: sign-in, MFA, sessions and other admins. (Moderation, analytics, backups and the
// rest have their shapes in schemas/admin-*.ts.)
import { Type, type Static } from 'typebox'
import { adminSessions, adminUsers } from '../db/schema/admin.js'
import { pick, tableColumns } from './columns.js'
import { DateTime, Id, Nullable, ref } from './common.js'

export const AdminSessionParams = Type.Object({ sessionId: Id })

const admin = tableColumns(adminUsers)

export const Admin = Type.Object({
  ...pick(admin, ['id', 'email', 'username', 'active']),
  mfaEnabled: Type.Boolean(),
  lockedUntil: Nullable(DateTime, { description: 'While too many failed sign-ins lock the account: when the lock ends (another admin can end it sooner)' }),
  ...pick(admin, ['lastLoginAt', 'createdAt'])
}, { $id: 'Admin', description: 'An admin account (never its password or MFA secret)' })
export type AdminOut = Static<typeof Admin>

const TotpCode = Type.String({ pattern: '^[0-9]{6}$', description: 'Six-digit code from the authenticator app', examples: ['123456'] })
const BackupCode = Type.String({ minLength: 1, maxLength: 32, description: 'One of the backup codes shown when MFA was enabled' })

export const AdminLoginBody = Type.Object({
  identifier: Type.String({ minLength: 1, maxLength: 254, description: 'Email (any case) or username (exact case)' }),
  password: Type.String({ minLength: 1, maxLength: 200 }),
  totpCode: Type.Optional(TotpCode),
  backupCode: Type.Optional(BackupCode)
})
export type AdminLoginInput = Static<typeof AdminLoginBody>

export const AdminLoginResponse = Type.Union([
  Type.Object({ mfaRequired: Type.Literal(true) }, { description: 'Password right; send it again with totpCode or backupCode' }),
  Type.Object({
    token: Type.String({ description: 'Admin Bearer token, bound to a session: 8 h at most, ends after 30 min unused' }),
    expiresAt: DateTime,
    admin: ref(Admin)
  }, { description: 'Signed in' })
])
export type AdminLoginResult = Static<typeof AdminLoginResponse>

export const AdminMe = Type.Object({
  ...Admin.properties,
  backupCodesLeft: Type.Integer({ minimum: 0, description: 'Unused MFA backup codes' })
}, { description: 'The signed-in admin' })

export const AdminChangePasswordBody = Type.Object({
  currentPassword: Type.String({ minLength: 1, maxLength: 200 }),
  newPassword: Type.String({ minLength: 12, maxLength: 200, description: 'At least 12 characters (at most 72 bytes)' })
})

export const AdminSession = Type.Object({
  ...pick(tableColumns(adminSessions), ['id', 'ip', 'userAgent', 'createdAt', 'lastSeenAt', 'expiresAt']),
  current: Type.Boolean({ description: 'The session of the token making this request' })
})
export const AdminSessionList = Type.Object({ sessions: Type.Array(AdminSession) }, { description: 'Your live sessions, newest first' })

export const MfaSetupResponse = Type.Object({
  secret: Type.String({ description: 'Base32 TOTP secret, for manual entry' }),
  otpauthUrl: Type.String({ description: 'otpauth:// URI for a QR code' })
}, { description: 'A pending secret: confirm it with mfa/enable' })
/** Changing the second factor needs more than a session: the password too, checked and counted like a sign-in. */
const CurrentPassword = Type.String({ minLength: 1, maxLength: 200, description: 'Your current password; a wrong one is 401 and counts against the lockout like a failed sign-in' })
export const MfaSetupBody = Type.Object({ password: CurrentPassword })
export const MfaEnableBody = Type.Object({ password: CurrentPassword, code: TotpCode })
export const MfaEnableResponse = Type.Object({
  backupCodes: Type.Array(Type.String(), { minItems: 10, maxItems: 10, description: 'Single-use codes, shown only now' })
}, { description: 'MFA is on' })
export const MfaDisableBody = Type.Object({
  password: Type.String({ minLength: 1, maxLength: 200 }),
  code: Type.String({ minLength: 1, maxLength: 32, description: 'A current TOTP code or an unused backup code' })
})

export const AdminCreateBody = Type.Object({
  email: Type.String({ minLength: 3, maxLength: 254, format: 'email' }),
  username: Type.String({ minLength: 3, maxLength: 50, pattern: '^[A-Za-z0-9_.-]+$' }),
  password: Type.String({ minLength: 12, maxLength: 200, description: 'At least 12 characters (at most 72 bytes)' })
})
export type AdminCreateInput = Static<typeof AdminCreateBody>

export const AdminTestResponse = Type.Object({
  message: Type.String(),
  admin: Id
}, { description: 'The admin token works' })
