// Fastify options shared by server.ts and the tests, so both validate and log the same way.
import { randomUUID } from 'node:crypto'
import { createRequire } from 'node:module'
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyBaseLogger, FastifyHttpOptions, FastifyRequest, FastifyServerOptions } from 'fastify'
import proxyAddr from 'proxy-addr'
import type { Config } from './config.js'
import { frameworkErrorHandler } from './lib/error-body.js'
import { passwordRule } from './lib/ajv-keywords.js'
import { errorForLog, redactLogFields } from './lib/redact.js'
import { buildValidator } from './lib/request-validators.js'
import { buildSerializer } from './lib/response-serializers.js'
import { redactUrl, REQUEST_LINE_FIELDS, RequestLog } from './lib/request-log.js'

const require = createRequire(import.meta.url)

export const BODY_LIMIT = 1024 * 1024

/**
 * One trusted proxy hop: the socket peer is trusted to set X-Forwarded-For only when its own address matches
 * TRUST_PROXY, so a client connecting directly from a public address cannot spoof its IP.
 */
export function trustProxyFunction (setting: string): false | ((address: string, hop: number) => boolean) {
  if (/^(false|none|0)$/i.test(setting.trim())) return false
  const list = setting.split(',').map(s => s.trim()).filter(Boolean)
  const trusted = proxyAddr.compile(list)
  return (address, hop) => hop === 0 && trusted(address, hop)
}

/** What a proxy may pass on as X-Request-Id: it lands in every log line, so no spaces, quotes or newlines. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * The request id: the X-Request-Id a trusted proxy (the TRUST_PROXY rule, e.g. the BFF on loopback) passed on,
 * when well-formed; otherwise a fresh UUID, so a client cannot choose or forge the id its log lines carry.
 */
export function requestIdGenerator (trustProxy: string): (req: IncomingMessage) => string {
  const trusted = trustProxyFunction(trustProxy)
  return req => {
    const given = req.headers['x-request-id']
    const peer = req.socket?.remoteAddress
    if (trusted !== false && typeof given === 'string' && REQUEST_ID.test(given) && peer != null && trusted(peer, 0)) return given
    return randomUUID()
  }
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request header fields too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timeout']
}

/**
 * Requests Node's HTTP parser refuses (oversized headers, garbage, timeouts) never reach Fastify; answer them with
 * our error body instead of Fastify's default `{ error, message, statusCode }`.
 */
function clientErrorHandler (err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  const [status, error] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'Bad request']
  const body = JSON.stringify({ error })
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`)
  }
  socket.destroy(err)
}

function prettyTransport (): FastifyServerOptions['logger'] {
  try {
    require.resolve('pino-pretty')
    return {
      transport: {
        target: 'pino-pretty',
        options: {
          translateTime: 'HH:MM:ss.l',
          // One terminal line per request; JSON logs keep reqId and the request fields for correlation.
          ignore: ['pid', 'hostname', 'instance', 'reqId', ...REQUEST_LINE_FIELDS].join(','),
          messageFormat: '{if instance}[{instance}] {end}{msg}'
        }
      }
    }
  } catch {
    return {}
  }
}

export function loggerOptions (config: Pick<Config, 'logLevel'>, pretty = process.stdout.isTTY === true): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    formatters: { log: redactLogFields },
    serializers: {
      err: errorForLog,
      req (req: FastifyRequest) {
        return {
          method: req.method,
          url: redactUrl(req.url),
          remoteAddress: req.ip,
          reqId: req.id
        }
      }
    },
    ...(pretty ? prettyTransport() as object : {})
  }
}

export type ServerOptions = FastifyHttpOptions<Server, FastifyBaseLogger>

/** `loggerInstance` replaces the logger options (server.ts shares one pino instance between its two servers). */
export function serverOptions (config: Config, overrides: Partial<ServerOptions> = {}): ServerOptions {
  return {
    ...(overrides.loggerInstance == null && { logger: loggerOptions(config) }),
    trustProxy: trustProxyFunction(config.trustProxy),
    bodyLimit: BODY_LIMIT,
    // Unknown body fields are dropped (decisions.md 1), `__proto__`/`constructor` keys are removed, not merged.
    onProtoPoisoning: 'remove',
    onConstructorPoisoning: 'remove',
    ajv: {
      customOptions: {
        removeAdditional: 'all',
        coerceTypes: 'array',
        useDefaults: true,
        allErrors: true
      },
      plugins: [passwordRule]
    },
    schemaController: { compilersFactory: { buildValidator: buildValidator as never, buildSerializer: buildSerializer as never } },
    requestIdHeader: false,
    genReqId: requestIdGenerator(config.trustProxy),
    logController: new RequestLog(),
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    connectionTimeout: 30_000,
    keepAliveTimeout: 72_000,
    requestTimeout: 60_000,
    forceCloseConnections: 'idle',
    // Start-up connects to PostgreSQL, Redis and the job queue and compiles every route's schemas: avvio's 10 s per
    // plugin is too tight for an instance starting beside others on a busy host (seen in the two-instance check).
    pluginTimeout: 30_000,
    return503OnClosing: true,
    // A longer path segment is FST_ERR_MAX_PARAM_LENGTH, which frameworkErrorHandler answers 404 like any bad id.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    ...overrides
  }
}
