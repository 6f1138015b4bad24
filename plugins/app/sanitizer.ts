// Runs every JSON body through the sanitizer and refuses NUL bytes and lone surrogates in bodies, queries and params.
import type { FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { validationError } from '../../lib/errors.js'
import { hasInvalidCharacters, sanitizeString } from '../../lib/sanitize.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Extra top-level body keys whose string values this route keeps verbatim. */
    sanitizeSkip?: string[]
  }
}

/**
 * Top-level fields kept verbatim: secrets and codes are compared, never shown, and the import routes' `html` and
 * `image` are parsed as markup or data. Only a top-level string is exempt; any nested string is sanitized,
 * whatever its key.
 */
export const NEVER_SANITIZED = new Set([
  'password', 'currentPassword', 'newPassword', 'token', 'idToken', 'refreshToken', 'code', 'totpCode',
  'backupCode', 'secret', 'inviteCode', 'html', 'image'
])

const MAX_DEPTH = 64

class InvalidInput extends Error {}

/** `exempt` names keys of this object (the body itself) whose string values are kept verbatim; it is not passed down. */
function clean (value: unknown, path: string, depth: number, exempt?: Set<string>): unknown {
  if (typeof value === 'string') {
    if (hasInvalidCharacters(value)) throw new InvalidInput(`${path}: contains a NUL byte or an invalid Unicode character`)
    return sanitizeString(value)
  }
  if (value === null || typeof value !== 'object') return value
  if (depth > MAX_DEPTH) throw new InvalidInput(`${path}: nested too deeply`)
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = clean(value[i], `${path}[${i}]`, depth + 1)
    return value
  }
  const record = value as Record<string, unknown>
  for (const key of Object.keys(record)) {
    if (hasInvalidCharacters(key)) throw new InvalidInput(`${path}: a key contains a NUL byte or an invalid Unicode character`)
    const childPath = path === '' ? key : `${path}.${key}`
    const child = record[key]
    if (typeof child === 'string' && exempt?.has(key) === true) {
      if (hasInvalidCharacters(child)) throw new InvalidInput(`${childPath}: contains a NUL byte or an invalid Unicode character`)
    } else {
      record[key] = clean(child, childPath, depth + 1)
    }
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
  // A callback hook: every request passes through it, and an async one would cost each a promise.
  fastify.addHook('preValidation', (request: FastifyRequest, _reply, done) => {
    try {
      checkStrings(request.query, 'query')
      checkStrings(request.params, 'params')
      if (request.body != null && typeof request.body === 'object') {
        const extra = request.routeOptions.config.sanitizeSkip
        const skip = extra == null ? NEVER_SANITIZED : new Set([...NEVER_SANITIZED, ...extra])
        clean(request.body, '', 0, skip)
      } else if (typeof request.body === 'string') {
        request.body = clean(request.body, 'body', 0)
      }
    } catch (err) {
      done(err instanceof InvalidInput ? validationError([err.message.replace(/^: /, 'body: ')]) : err as Error)
      return
    }
    done()
  })
}, { name: 'sanitizer' })
