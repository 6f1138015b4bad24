// Errors that carry their HTTP status and, where decisions.md asks for them, extra body fields.

export class HttpError extends Error {
  readonly statusCode: number
  readonly details?: string[]
  /** Extra body fields next to `error` (retryAfter, limit, used...). */
  readonly extra?: Record<string, unknown>

  constructor (statusCode: number, message: string, options: { details?: string[], extra?: Record<string, unknown> } = {}) {
    super(message)
    this.name = 'HttpError'
    this.statusCode = statusCode
    this.details = options.details
    this.extra = options.extra
  }
}

/** The SQLSTATE of a postgres.js error, also when Drizzle wraps it (DrizzleQueryError.cause). */
export function postgresCode (err: unknown): string | undefined {
  for (let e = err as { code?: unknown, cause?: unknown, name?: string } | undefined, i = 0; e != null && i < 3; e = e.cause as typeof e, i++) {
    if (e.name === 'PostgresError' && typeof e.code === 'string') return e.code
  }
  return undefined
}

export const validationError = (details: string[]) => new HttpError(400, 'Validation error', { details })

export const tooManyRequests = (retryAfter: number) => new HttpError(429, 'Too many requests', { extra: { retryAfter } })

export const accountLocked = (retryAfter: number) => new HttpError(423, 'Account temporarily locked', { extra: { retryAfter } })
