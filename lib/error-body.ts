// Error bodies of decisions.md section 1, made in one place for the API and the web proxy alike.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { HttpError, isUnreachable, postgresCode } from './errors.js'

interface ErrorBody {
  error: string
  details?: string[]
  [extra: string]: unknown
}

interface Mapped { status: number, body: ErrorBody, headers?: Record<string, number> }

/** Seconds a client waits before retrying work the database could not take on now (decisions.md's Retry-After). */
export const RETRY_AFTER_SECONDS = 2

/** The database (or Redis) is away, overloaded or locked: passing trouble of the service, never a 500 or a hang. */
export const UNAVAILABLE: Mapped = {
  status: 503,
  body: { error: 'Service temporarily unavailable' },
  headers: { 'retry-after': RETRY_AFTER_SECONDS }
}

interface AjvIssue { instancePath?: string, message?: string, keyword?: string, params?: Record<string, unknown> }

/** The key of an object that takes no other keys (Ajv's `additionalProperties` issue), cut short: it is the client's text. */
function extraKey (issue: AjvIssue): string | undefined {
  const key = issue.keyword === 'additionalProperties' ? issue.params?.additionalProperty : undefined
  if (typeof key !== 'string') return undefined
  return key.length > 100 ? `${key.slice(0, 100)}...` : key
}

function fieldName (issue: AjvIssue, context: string | undefined): string {
  const segments = (issue.instancePath ?? '').split('/').filter(Boolean)
  if (issue.keyword === 'required' && typeof issue.params?.missingProperty === 'string') segments.push(issue.params.missingProperty)
  const extra = extraKey(issue)
  if (extra != null) segments.push(extra)
  if (segments.length === 0) return context ?? 'body'
  return segments.map((s, i) => /^\d+$/.test(s) ? `[${s}]` : (i === 0 ? s : `.${s}`)).join('')
}

function problem (issue: AjvIssue): string {
  if (issue.keyword === 'required') return 'is required'
  if (extraKey(issue) != null) return 'is not allowed'
  if (issue.keyword === 'enum' && Array.isArray(issue.params?.allowedValues)) {
    return `must be one of ${(issue.params.allowedValues as unknown[]).join(', ')}`
  }
  return issue.message ?? 'is invalid'
}

/**
 * One line per failing field. A union of literals fails as one `const` error per branch plus an `anyOf`
 * summary; those collapse into "must be one of a, b".
 */
export function validationDetails (reported: AjvIssue[], context?: string): string[] {
  // TypeBox's own checker (the AI reply reader) names every missing key of an object in one issue; Ajv one per key.
  const issues = reported.flatMap(issue => issue.keyword === 'required' && Array.isArray(issue.params?.requiredProperties)
    ? (issue.params.requiredProperties as unknown[]).map(key => ({ ...issue, params: { missingProperty: String(key) } }))
    : [issue])
  const unionPaths = new Set(issues.filter(i => i.keyword === 'anyOf').map(i => i.instancePath ?? ''))
  const allowed = new Map<string, unknown[]>()
  const details: string[] = []
  for (const issue of issues) {
    const path = issue.instancePath ?? ''
    if (unionPaths.has(path) && issue.keyword !== 'anyOf') {
      if (issue.keyword === 'const') allowed.set(path, [...(allowed.get(path) ?? []), issue.params?.allowedValue])
      continue
    }
    const message = issue.keyword === 'anyOf'
      ? (allowed.has(path) ? `must be one of ${allowed.get(path)!.join(', ')}` : 'is not an allowed value')
      : problem(issue)
    details.push(`${fieldName(issue, context)}: ${message}`)
  }
  return [...new Set(details)]
}

// Class 22 is "data exception" (bad cast, out of range, invalid time zone, division by zero...): the input was
// wrong, wherever it came from (body, query or a cursor), so the detail does not name a part of the request.
const INVALID_VALUE: Mapped = { status: 400, body: { error: 'Validation error', details: ['request: contains an invalid value'] } }

function fromPostgres (code: string): Mapped | undefined {
  if (code === '23505') return { status: 409, body: { error: 'Resource already exists' } }
  if (code === '23503') return { status: 404, body: { error: 'Referenced resource not found' } }
  // 23502 not-null and 23514 check violations are input the schema let through.
  if (code.startsWith('22') || code === '23502' || code === '23514') return INVALID_VALUE
  // Serialization failure, deadlock: this attempt lost a race; the same request again will likely succeed.
  if (code === '40001' || code === '40P01') {
    return { status: 503, body: { error: 'Service busy, please retry' }, headers: { 'retry-after': 1 } }
  }
  // 55P03 lock_timeout, 57014 statement_timeout or a statement dropped after waiting DB_POOL_WAIT_MS for a
  // connection (plugins/external/db.ts); 57P01-57P03: the server is shutting down or starting.
  if (code === '55P03' || code === '57014' || code === '57P01' || code === '57P02' || code === '57P03') return UNAVAILABLE
  return undefined
}

const NOT_FOUND: Mapped = { status: 404, body: { error: 'Not found' } }

const FASTIFY_CODES: Record<string, Mapped> = {
  // Router errors (reached through the frameworkErrors server option). A path segment too long for the router
  // cannot name anything, like an id that fails its schema (decisions.md: malformed id in a path is 404).
  FST_ERR_BAD_URL: { status: 400, body: { error: 'Validation error', details: ['path: is not a valid URL'] } },
  FST_ERR_MAX_PARAM_LENGTH: NOT_FOUND,
  FST_ERR_ASYNC_CONSTRAINT: { status: 500, body: { error: 'Internal server error' } },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, body: { error: 'Payload too large' } },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, body: { error: 'Unsupported media type' } },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, body: { error: 'Validation error', details: ['body: content length does not match'] } },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, body: { error: 'Validation error', details: ['body: malformed JSON'] } },
  FST_ERR_CTP_INVALID_TYPE: { status: 415, body: { error: 'Unsupported media type' } },
  FST_ERR_CTP_INVALID_CONTENT_TYPE: { status: 415, body: { error: 'Unsupported media type' } },
  // @fastify/multipart (upload routes): its bounds are the body limit of a multipart request.
  FST_REQ_FILE_TOO_LARGE: { status: 413, body: { error: 'Payload too large' } },
  FST_PARTS_LIMIT: { status: 413, body: { error: 'Payload too large' } },
  FST_FILES_LIMIT: { status: 413, body: { error: 'Payload too large' } },
  FST_FIELDS_LIMIT: { status: 413, body: { error: 'Payload too large' } },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { status: 415, body: { error: 'Unsupported media type', details: ['body: must be multipart/form-data'] } },
  FST_PROTO_VIOLATION: { status: 400, body: { error: 'Validation error', details: ['body: a field name is not allowed'] } },
  FST_MP_PREMATURE_CLOSE: { status: 400, body: { error: 'Validation error', details: ['body: the multipart data ended early'] } }
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Authentication required',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  406: 'Not acceptable',
  408: 'Request timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Unprocessable entity',
  423: 'Locked',
  429: 'Too many requests',
  507: 'Insufficient storage'
}

export function mapError (err: FastifyError | HttpError | Error): Mapped {
  if (err instanceof HttpError) {
    return { status: err.statusCode, body: { error: err.message, ...(err.details != null && { details: err.details }), ...err.extra } }
  }
  const fe = err as FastifyError & { expose?: boolean }
  if (fe.validation != null) {
    // A path parameter that fails its schema (an over-long or malformed id) names no resource.
    if (fe.validationContext === 'params') return NOT_FOUND
    return { status: 400, body: { error: 'Validation error', details: validationDetails(fe.validation as AjvIssue[], fe.validationContext) } }
  }
  if (fe.code != null && FASTIFY_CODES[fe.code] != null) return FASTIFY_CODES[fe.code]
  // JSON.parse failures surface as SyntaxError with a 400 status.
  if (err instanceof SyntaxError && fe.statusCode === 400) return FASTIFY_CODES.FST_ERR_CTP_INVALID_JSON_BODY

  // A database (or Redis) that cannot be reached is the service's trouble, and passing: not a 500.
  if (isUnreachable(err)) return UNAVAILABLE
  const pgCode = postgresCode(err)
  if (pgCode != null) return fromPostgres(pgCode) ?? { status: 500, body: { error: 'Internal server error' } }

  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500
  if (status >= 400 && status < 500) {
    // Other libraries' client errors carry a client-safe message; Fastify's own FST_ codes get the generic text.
    const safe = fe.code == null || !fe.code.startsWith('FST_')
    return { status, body: { error: safe && err.message !== '' ? err.message : (STATUS_TEXT[status] ?? 'Bad request') } }
  }
  if (status >= 500 && status < 600 && fe.expose === true) return { status, body: { error: err.message } }
  return { status: status >= 500 && status < 600 ? status : 500, body: { error: 'Internal server error' } }
}

export function sendError (request: FastifyRequest, reply: FastifyReply, status: number, body: ErrorBody): FastifyReply {
  if (typeof body.retryAfter === 'number') reply.header('retry-after', body.retryAfter)
  const payload = request.routeOptions?.config?.envelope === true
    ? { success: false, error: body.error, details: body.details ?? [] }
    : body
  // Sent as a string: error bodies are built here, field by field, so they skip the route's response serializer,
  // which would drop or fail on a field a route's declared error schema lacks (e.g. 429 `limit`).
  return reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(payload))
}

export function handleError (err: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { status, body, headers } = mapError(err)
  if (err instanceof HttpError && err.headers != null) reply.headers(err.headers)
  if (headers != null) reply.headers(headers)
  if (status === 503) request.log.warn({ err }, 'request refused: service unavailable')
  else if (status >= 500) request.log.error({ err }, 'request failed')
  else request.log.debug({ status, error: body.error }, 'request rejected')
  return sendError(request, reply, status, body)
}

/**
 * The `frameworkErrors` server option: errors the router raises before any route or hook runs (undecodable
 * path, over-long parameter) get the same bodies as everything else.
 */
export function frameworkErrorHandler (err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  // No route, so no helmet hook: keep the nosniff promise of decisions.md for these bodies too.
  reply.header('x-content-type-options', 'nosniff')
  handleError(err, request, reply)
}
