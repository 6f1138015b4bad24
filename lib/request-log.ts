// One log line per request, when it completes: `GET /api/recipes?page=2 200 3.1ms`, with the fields for JSON.
import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify'

const SECRET_QUERY = /([?&](?:token|code|idToken|access_token)=)[^&#]*/gi

/** The URL with one-time tokens and codes in its query string replaced by `[redacted]`. */
export const redactUrl = (url: string): string => url.includes('=') ? url.replace(SECRET_QUERY, '$1[redacted]') : url

/** Whether the logger writes `level` (pino can tell; any other logger is asked to write). */
const writes = (log: FastifyBaseLogger, level: 'debug' | 'info'): boolean =>
  (log as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.(level) ?? true

/** The request-line fields: pretty output hides them, as the message already reads `GET /api/x 200 3.1ms`. */
export const REQUEST_LINE_FIELDS = ['method', 'url', 'statusCode', 'responseTime', 'remoteAddress']

/**
 * Replaces Fastify's "incoming request" + "request completed" pair. A log controller (the `logController` server
 * option, which Fastify 5.12 recommends over `disableRequestLogging`) rather than an onResponse hook, so every
 * instance built from serverOptions (API, web proxy, tests) logs the same way. "incoming" stays at debug level to
 * follow a request that never finishes.
 */
export class RequestLog extends LogController {
  override incomingRequest (request: FastifyRequest): void {
    if (!writes(request.log, 'debug')) return
    const url = redactUrl(request.url)
    request.log.debug({ method: request.method, url }, `incoming ${request.method} ${url}`)
  }

  override requestCompleted (err: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    // Routes that log at `warn` (probes) skip their request line; nothing is built for a line nobody writes.
    if (err == null && !writes(request.log, 'info')) return
    const fields = {
      method: request.method,
      url: redactUrl(request.url),
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
      remoteAddress: request.ip
    }
    const line = `${fields.method} ${fields.url} ${fields.statusCode} ${fields.responseTime}ms`
    // An error here is the response stream failing after the error handler's turn (client gone, stream error).
    if (err != null) request.log.error({ ...fields, err }, line)
    else request.log.info(fields, line)
  }

  // The request line already says 404.
  override routeNotFound (): void {}
}

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const
type Level = typeof LEVELS[number]

/**
 * A route's log level: `floor` (e.g. probes log only warnings) unless the server is quieter already, so a route never
 * logs more than LOG_LEVEL allows (`silent` stays silent).
 */
export function quietAt (log: { level: string }, floor: Level): Level {
  const current = LEVELS.indexOf(log.level as Level)
  return current > LEVELS.indexOf(floor) ? LEVELS[current] : floor
}
