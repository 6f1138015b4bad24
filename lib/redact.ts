// What an audit log may keep of a request body: every field whose name suggests a credential is replaced, at any
// depth, and the copy is bounded so a large body cannot bloat the log.

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
