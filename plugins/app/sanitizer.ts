// Runs every JSON body through the sanitizer and refuses NUL bytes and lone surrogates in bodies, queries and params.
import type { FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { validationError } from '../../lib/errors.js'
import { hasInvalidCharacters, sanitizeString } from '../../lib/sanitize.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Extra body keys this route keeps verbatim (e.g. `html` of the import routes, parsed as markup). */
    sanitizeSkip?: string[]
  }
}

/** Secrets and codes are compared, never shown: the sanitizer must not alter them. */
export const NEVER_SANITIZED = new Set([
  'password', 'currentPassword', 'newPassword', 'token', 'idToken', 'refreshToken', 'code', 'totpCode',
  'backupCode', 'secret', 'inviteCode', 'html', 'image', 'endpoint', 'keys', 'p256dh', 'auth'
])

const MAX_DEPTH = 64

class InvalidInput extends Error {}

function clean (value: unknown, path: string, skip: Set<string>, depth: number, sanitize: boolean): unknown {
  if (typeof value === 'string') {
    if (hasInvalidCharacters(value)) throw new InvalidInput(`${path}: contains a NUL byte or an invalid Unicode character`)
    return sanitize ? sanitizeString(value) : value
  }
  if (value === null || typeof value !== 'object') return value
  if (depth > MAX_DEPTH) throw new InvalidInput(`${path}: nested too deeply`)
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = clean(value[i], `${path}[${i}]`, skip, depth + 1, sanitize)
    return value
  }
  const record = value as Record<string, unknown>
  for (const key of Object.keys(record)) {
    if (hasInvalidCharacters(key)) throw new InvalidInput(`${path}: a key contains a NUL byte or an invalid Unicode character`)
    const childPath = path === '' ? key : `${path}.${key}`
    record[key] = clean(record[key], childPath, skip, depth + 1, sanitize && !skip.has(key))
  }
  return value
}

function checkStrings (source: unknown, label: string): void {
  if (source == null || typeof source !== 'object') return
  for (const [key, value] of Object.entries(source)) {
    const values = Array.isArray(value) ? value : [value]
    if (hasInvalidCharacters(key) || values.some(v => typeof v === 'string' && hasInvalidCharacters(v))) {
      throw new InvalidInput(`${label}.${key}: contains a NUL byte or an invalid Unicode character`)
    }
  }
}

export default fp(async fastify => {
  fastify.addHook('preValidation', async (request: FastifyRequest) => {
    try {
      checkStrings(request.query, 'query')
      checkStrings(request.params, 'params')
      if (request.body != null && typeof request.body === 'object') {
        const extra = request.routeOptions.config.sanitizeSkip
        const skip = extra == null ? NEVER_SANITIZED : new Set([...NEVER_SANITIZED, ...extra])
        clean(request.body, '', skip, 0, true)
      } else if (typeof request.body === 'string') {
        request.body = clean(request.body, 'body', NEVER_SANITIZED, 0, true)
      }
    } catch (err) {
      if (err instanceof InvalidInput) throw validationError([err.message.replace(/^: /, 'body: ')])
      throw err
    }
  })
}, { name: 'sanitizer' })
