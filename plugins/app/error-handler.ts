// The one place error bodies are made (decisions.md section 1). Clients never see a stack trace, SQL or driver text.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { HttpError, postgresCode } from '../../lib/errors.js'

interface ErrorBody {
  error: string
  details?: string[]
  [extra: string]: unknown
}

interface Mapped { status: number, body: ErrorBody }

interface AjvIssue { instancePath?: string, message?: string, keyword?: string, params?: Record<string, unknown> }

function fieldName (issue: AjvIssue, context: string | undefined): string {
  const segments = (issue.instancePath ?? '').split('/').filter(Boolean)
  if (issue.keyword === 'required' && typeof issue.params?.missingProperty === 'string') segments.push(issue.params.missingProperty)
  if (segments.length === 0) return context ?? 'body'
  return segments.map((s, i) => /^\d+$/.test(s) ? `[${s}]` : (i === 0 ? s : `.${s}`)).join('')
}

function problem (issue: AjvIssue): string {
  if (issue.keyword === 'required') return 'is required'
  if (issue.keyword === 'enum' && Array.isArray(issue.params?.allowedValues)) {
    return `must be one of ${(issue.params.allowedValues as unknown[]).join(', ')}`
  }
  return issue.message ?? 'is invalid'
}

/**
 * One line per failing field. A union of literals fails as one `const` error per branch plus an `anyOf`
 * summary; those collapse into "must be one of a, b".
 */
export function validationDetails (issues: AjvIssue[], context?: string): string[] {
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

const POSTGRES_INVALID_INPUT = new Set(['22P02', '22001', '22003', '22007', '22008', '22P05', '23502', '23514', '2201X', '2201W'])

function fromPostgres (code: string): Mapped | undefined {
  if (code === '23505') return { status: 409, body: { error: 'Resource already exists' } }
  if (code === '23503') return { status: 404, body: { error: 'Referenced resource not found' } }
  if (POSTGRES_INVALID_INPUT.has(code)) return { status: 400, body: { error: 'Validation error', details: ['body: contains an invalid value'] } }
  if (code === '40001' || code === '40P01' || code === '55P03' || code === '57014') {
    return { status: 503, body: { error: 'Service busy, please retry' } }
  }
  return undefined
}

const FASTIFY_CODES: Record<string, Mapped> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, body: { error: 'Payload too large' } },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, body: { error: 'Unsupported media type' } },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, body: { error: 'Validation error', details: ['body: content length does not match'] } },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, body: { error: 'Validation error', details: ['body: must not be empty'] } },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, body: { error: 'Validation error', details: ['body: malformed JSON'] } },
  FST_ERR_CTP_INVALID_TYPE: { status: 415, body: { error: 'Unsupported media type' } },
  FST_ERR_CTP_INVALID_CONTENT_TYPE: { status: 415, body: { error: 'Unsupported media type' } }
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
  429: 'Too many requests'
}

export function mapError (err: FastifyError | HttpError | Error): Mapped {
  if (err instanceof HttpError) {
    return { status: err.statusCode, body: { error: err.message, ...(err.details != null && { details: err.details }), ...err.extra } }
  }
  const fe = err as FastifyError & { expose?: boolean }
  if (fe.validation != null) {
    return { status: 400, body: { error: 'Validation error', details: validationDetails(fe.validation as AjvIssue[], fe.validationContext) } }
  }
  if (fe.code != null && FASTIFY_CODES[fe.code] != null) return FASTIFY_CODES[fe.code]
  // JSON.parse failures surface as SyntaxError with a 400 status.
  if (err instanceof SyntaxError && fe.statusCode === 400) return FASTIFY_CODES.FST_ERR_CTP_INVALID_JSON_BODY

  const pgCode = postgresCode(err)
  if (pgCode != null) return fromPostgres(pgCode) ?? { status: 500, body: { error: 'Internal server error' } }

  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500
  if (status >= 400 && status < 500) {
    // http-errors (sensible) carry a client-safe message; Fastify's own FST_ codes get the generic text.
    const safe = fe.code == null || !fe.code.startsWith('FST_')
    return { status, body: { error: safe && err.message !== '' ? err.message : (STATUS_TEXT[status] ?? 'Bad request') } }
  }
  if (status >= 500 && status < 600 && fe.expose === true) return { status, body: { error: err.message } }
  return { status: status >= 500 && status < 600 ? status : 500, body: { error: 'Internal server error' } }
}

export function sendError (request: FastifyRequest, reply: FastifyReply, status: number, body: ErrorBody): FastifyReply {
  if (typeof body.retryAfter === 'number') reply.header('retry-after', body.retryAfter)
  const payload = request.routeOptions.config?.envelope === true
    ? { success: false, error: body.error, details: body.details ?? [] }
    : body
  return reply.code(status).type('application/json; charset=utf-8').send(payload)
}

export default fp(async fastify => {
  fastify.setErrorHandler(function (err: FastifyError, request, reply) {
    const { status, body } = mapError(err)
    if (status >= 500) request.log.error({ err }, 'request failed')
    else request.log.info({ status, error: body.error }, 'request rejected')
    return sendError(request, reply, status, body)
  })

  fastify.setNotFoundHandler({ preHandler: fastify.rateLimits.global }, function (request, reply) {
    return sendError(request, reply, 404, { error: 'Not found' })
  })
}, { name: 'error-handler', dependencies: ['rate-limit'] })
