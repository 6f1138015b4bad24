// Identity rules of decisions.md: usernames and emails compare in NFKC, case-folded form; the password policy.

export const USERNAME_PATTERN = '^[A-Za-z0-9_.-]{3,30}$'

/** Paths under /api/users that would otherwise be shadowed by a user of that name. */
const RESERVED_USERNAMES = new Set([
  'profile', 'recent', 'search', 'avatar', 'email-preferences', 'notification-settings', 'me', 'admin',
  'administrator', 'root', 'support', 'system', 'api', 'null', 'undefined'
])

export function normalizeEmail (email: string): string {
  return email.normalize('NFKC').trim().toLowerCase()
}

export function usernameKey (username: string): string {
  return username.normalize('NFKC').trim().toLowerCase()
}

export function isReservedUsername (username: string): boolean {
  return RESERVED_USERNAMES.has(usernameKey(username))
}

/** Problems with a password under the registration policy (8+, upper, lower, digit); empty when it passes. */
/** The rules a new password breaks, each as `must ...`. */
export function passwordRuleBreaks (password: string): string[] {
  const problems: string[] = []
  if ([...password].length < 8) problems.push('must be at least 8 characters')
  if (!/\p{Lu}/u.test(password)) problems.push('must contain an uppercase letter')
  if (!/\p{Ll}/u.test(password)) problems.push('must contain a lowercase letter')
  if (!/\p{Nd}/u.test(password)) problems.push('must contain a digit')
  return problems
}

export function passwordProblems (password: string, field = 'password'): string[] {
  return passwordRuleBreaks(password).map(problem => `${field}: ${problem}`)
}

/** The schema keyword of a new password: its rules reported by validation, with the body's other errors. */
export const PASSWORD_RULE_KEYWORD = 'x-password-rule'

/** A username for an account created by external sign-in, from the email's local part. */
export function usernameFromEmail (email: string): string {
  const base = email.split('@')[0].normalize('NFKD').replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 24)
  return base.length >= 3 ? base : `user${base}`
}
