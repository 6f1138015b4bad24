// What an audit log may keep of a request body: every field whose name suggests a credential is replaced, at any
// depth, and the copy is bounded so a large body cannot bloat the log.
import { stdSerializers } from 'pino'

const SECRET_FIELD = /pass(word)?|secret|token|code|otp|api[-_]?key|private[-_]?key|authorization|cookie|credential/i
export const REDACTED = '[redacted]'
const MAX_DEPTH = 6
const MAX_STRING = 500
const MAX_ITEMS = 50

export function redactSecrets (value: unknown, depth = 0): unknown {
  if (value == null || typeof value === 'number' || typeof value === 'boolean') return value
  if (typeof value === 'string') return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value
  if (depth >= MAX_DEPTH) return '[truncated]'
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map(item => redactSecrets(item, depth + 1))
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value).slice(0, MAX_ITEMS)) {
      out[key] = SECRET_FIELD.test(key) ? REDACTED : redactSecrets(item, depth + 1)
    }
    return out
  }
  return String(value)
}

/** Log fields never written, at any depth (pino's wildcard redaction cost about 11 µs a line; this walk well under 1). */
const LOG_SECRETS = new Set(['password', 'currentPassword', 'newPassword', 'token', 'idToken', 'totpCode', 'backupCode',
  'secret', 'authorization', 'cookie', 'x-admin-token', 'set-cookie'])
const LOG_DEPTH = 5

const isPlain = (value: unknown): value is Record<string, unknown> => {
  if (value == null || typeof value !== 'object') return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/**
 * A log line's fields with secrets replaced: the names above anywhere in plain objects and arrays, and `code` at the
 * top or in a `body` (a one-time code; errors keep their `code`, e.g. EADDRINUSE). Objects that hold no secret are
 * returned as they are, so a line without secrets is not copied. Class instances (errors, requests) are left to their
 * serializers, which never write credentials.
 */
export function redactLogFields<T> (fields: T, depth = 0, codeIsSecret = true): T {
  if (depth >= LOG_DEPTH) return fields
  if (Array.isArray(fields)) {
    let copy: unknown[] | undefined
    fields.forEach((item: unknown, i) => {
      const redacted = redactLogFields(item, depth + 1, false)
      if (redacted !== item) (copy ??= fields.slice())[i] = redacted
    })
    return (copy ?? fields) as T
  }
  if (!isPlain(fields)) return fields
  let copy: Record<string, unknown> | undefined
  for (const key in fields) {
    const item = fields[key]
    const redacted = LOG_SECRETS.has(key) || (codeIsSecret && key === 'code')
      ? REDACTED
      : redactLogFields(item, depth + 1, key === 'body')
    if (redacted !== item) (copy ??= { ...fields })[key] = redacted
  }
  return (copy ?? fields) as T
}

/**
 * An error as pino writes it (its causes' messages appended to its own), without the objects libraries hang on errors: pg's DatabaseError
 * carries its whole client, hundreds of lines with the connection settings. Plain values and objects stay.
 */
export function errorForLog (err: Error): ReturnType<typeof stdSerializers.err> {
  const serialized = stdSerializers.err(err)
  for (const key of Object.keys(serialized)) {
    const value = serialized[key]
    if (value != null && typeof value === 'object' && !Array.isArray(value) && !isPlain(value) && key !== 'cause') delete serialized[key]
  }
  return serialized
}
