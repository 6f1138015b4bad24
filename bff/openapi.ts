// What the BFF's OpenAPI document says about the session cookie, the origin check and the proxy, built from the
// constants the code enforces so the text cannot drift from the behaviour.
import { Type } from 'typebox'
import { described, ErrorRef, ref } from '../schemas/common.js'
import { UserSelf } from '../schemas/users.js'
import { BLOCKED_PATHS, PROXY_PREFIX } from './plugins/api-proxy.js'
import { SAFE_METHODS } from './plugins/origin-check.js'
import { SESSION_MAX_AGE_SECONDS } from './session-cookie.js'

export const DOCS_PATH = '/bff/docs/json'
export const SESSION_TAG = 'session'

const code = (values: Iterable<string>): string => [...values].map(value => `\`${value}\``).join(', ')

export const cookieNote = (cookieName: string): string =>
  `Session: the httpOnly cookie \`${cookieName}\` (named by AUTH_COOKIE, default \`auth_token\`; Secure, SameSite=Lax, ` +
  `Path=/, ${SESSION_MAX_AGE_SECONDS / 3600} hours) holds the token, which never appears in a response body.`

export const ORIGIN_NOTE = `Origin check (every method but ${[...SAFE_METHODS].join(', ')}): refused with 403 ` +
  '`{ "error": "Forbidden" }`, before the API is called, when `Sec-Fetch-Site` is `cross-site` or an `Origin` header ' +
  'is present and not exactly one of ALLOWED_ORIGINS; a request without `Origin` (same-origin navigation, non-browser ' +
  'client) passes.'

export function infoDescription (cookieName: string, timeoutMs: number): string {
  return [
    'The web proxy (BFF) for browser pages: it keeps the session token in an httpOnly cookie so page scripts never see it. ' +
      'This document covers the BFF\'s own routes; errors are `{ error, details? }` as in the API.',
    cookieNote(cookieName),
    ORIGIN_NOTE,
    `**Proxy: \`${PROXY_PREFIX}/<path>\` → API \`/api/<path>\`**, for GET, HEAD, POST, PUT, PATCH, DELETE and OPTIONS, the ` +
      'query string unchanged. The operations, bodies and answers are the API\'s: see the API\'s own document at ' +
      `\`/api/docs/json\` on the API server (this proxy refuses \`${PROXY_PREFIX}/docs\`).`,
    '- Request: the `Cookie` header is not forwarded; a non-empty session cookie becomes `Authorization: Bearer <token>` ' +
      '(without one, an `Authorization` header passes unchanged). `Accept-Encoding` is dropped; `X-Forwarded-For` is the ' +
      'browser\'s address and `X-Request-Id` the BFF\'s request id.',
    '- Response: the API\'s status and headers (less `Connection` and `Keep-Alive`). In a JSON body (`application/json` ' +
      'or `+json`) a top-level `token` is removed; on a 2xx answer under `/api/auth/` a non-empty string `token` becomes ' +
      `the session cookie. \`POST ${PROXY_PREFIX}/auth/logout\` clears the cookie whatever the API answered.`,
    '- Refused paths: the path is normalised as the API will see it (percent-decoded, lower-cased, empty and `.` ' +
      `segments dropped); ${code(BLOCKED_PATHS)} and everything under them get 403 \`{ "error": "Forbidden" }\` and never ` +
      'reach the API. A `..` segment (raw or encoded), a backslash, a NUL or a malformed escape gets 400 with details ' +
      '`["path: malformed"]`.',
    `- The API cannot be reached or does not answer within ${timeoutMs / 1000} s: 502 \`{ "error": "Service unavailable" }\`.`,
    'Everywhere: a `#` in the request target gets 400 with details `["path: must not contain a fragment"]`; unknown paths ' +
      `get 404 \`{ "error": "Not found" }\`. This document: \`${DOCS_PATH}\`, no cookie or Origin ` +
      'needed.'
  ].join('\n\n')
}

/** What the session routes answer on success: the API's answer less the token. */
export const SignedIn = Type.Object({ message: Type.String(), user: ref(UserSelf) })
export const Exchanged = Type.Object({ user: ref(UserSelf) })

const error = (description: string) => described(description, ErrorRef)

/** The error answers every session route can give, with the ones a route adds or words differently. */
export function errorResponses (extra: Record<number, string> = {}): Record<number, typeof ErrorRef> {
  const descriptions: Record<number, string> = {
    400: 'Malformed JSON body or a `#` in the request target',
    403: 'Refused by the origin check (cross-site, or an Origin not in ALLOWED_ORIGINS)',
    413: 'The body is larger than the server\'s body limit',
    415: 'Unsupported media type: send `application/json`',
    500: 'Unexpected error (the body never carries details)',
    502: 'The API could not be reached, did not answer in time or did not answer a JSON object: `{ "error": "Service unavailable" }`',
    ...extra
  }
  return Object.fromEntries(Object.entries(descriptions).map(([status, text]) => [status, error(text)]))
}
