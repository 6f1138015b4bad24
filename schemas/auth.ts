// Bodies and answers of the auth routes (decisions.md section 2).
import { Type, type Static } from 'typebox'
import { ref } from './common.js'
import { PASSWORD_RULE_KEYWORD, USERNAME_PATTERN } from '../lib/identity.js'
import { UserSelf } from './users.js'

const Password = Type.String({
  minLength: 1,
  maxLength: 200,
  [PASSWORD_RULE_KEYWORD]: true,
  description: 'At least 8 characters with an uppercase letter, a lowercase letter and a digit'
})

export const RegisterBody = Type.Object({
  email: Type.String({ format: 'email', maxLength: 254 }),
  username: Type.String({ pattern: USERNAME_PATTERN, description: '3-30 of A-Z a-z 0-9 _ . -' }),
  password: Password,
  firstName: Type.Optional(Type.String({ maxLength: 100 })),
  lastName: Type.Optional(Type.String({ maxLength: 100 }))
})
export type RegisterInput = Static<typeof RegisterBody>

export const LoginBody = Type.Object({
  identifier: Type.Optional(Type.String({ minLength: 1, maxLength: 254, description: 'Email address or username' })),
  email: Type.Optional(Type.String({ minLength: 1, maxLength: 254, description: 'Accepted in place of identifier' })),
  username: Type.Optional(Type.String({ minLength: 1, maxLength: 254, description: 'Accepted in place of identifier' })),
  password: Type.String({ minLength: 1, maxLength: 200 })
}, { description: 'One of identifier, email or username, and the password' })
export type LoginInput = Static<typeof LoginBody>

export const SessionResponse = Type.Object({
  message: Type.String(),
  user: ref(UserSelf),
  token: Type.String({ description: 'Bearer token, valid 24 hours' })
})

export const MeResponse = Type.Object({ user: ref(UserSelf) })

export const TokenResponse = Type.Object({
  token: Type.String({ description: 'A new Bearer token, valid 24 hours; the presented one is revoked' }),
  expiresIn: Type.Integer({ description: 'Seconds' })
})

export const ChangePasswordBody = Type.Object({ currentPassword: Type.String({ minLength: 1, maxLength: 200 }), newPassword: Password })
export const ChangePasswordResponse = Type.Object({ message: Type.String(), token: Type.String({ description: 'A fresh token: older ones stop working' }) })

export const ForgotPasswordBody = Type.Object({ email: Type.String({ minLength: 1, maxLength: 254 }) })
export const ResetPasswordBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }), password: Password })

export const OAuthBody = Type.Object({
  provider: Type.String({ minLength: 1, maxLength: 40 }),
  idToken: Type.String({ minLength: 1, maxLength: 16_384, description: 'ID token issued by the provider' })
})
export const OAuthCodeResponse = Type.Object({ code: Type.String(), expiresIn: Type.Integer({ description: 'Seconds; the code works once' }) })
export const OAuthExchangeBody = Type.Object({ code: Type.String({ minLength: 1, maxLength: 200 }) })
export const OAuthExchangeResponse = Type.Object({ user: ref(UserSelf), token: Type.String() })
