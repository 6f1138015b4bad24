// What the BFF's OpenAPI document says about the session cookie, the origin check and the proxy, built from the
// constants the code enforces so the text cannot drift from the behaviour.
import { Type } from 'typebox'
import { described, ErrorRef, ref } from '../schemas/common.js'
import { UserSelf } from '../schemas/users.js'
import { BLOCKED_PATHS, PROXY_PREFIX } from './plugins/api-proxy.js'
import { SAFE_METHODS } from './plugins/origin-check.js'
import type { AuthLimits, Limit } from './plugins/rate-limit.js'
import { PAGE_CSP, PAGE_FILES } from './plugins/page.js'
import { SESSION_MAX_AGE_SECONDS } from './session-cookie.js'

export const DOCS_PATH = '/bff/docs/json'
export const SESSION_TAG = 'session'

const code = (values: Iterable<string>): string => [...values].map(value => `\`${value}\``).join(', ')

export const cookieNote = (cookieName: string): string =>
  `Session: the httpOnly cookie \`${cookieName}\` (named by AUTH_COOKIE, default \`auth_token\`; Secure, SameSite=Lax, ` +
  `Path=/, ${SESSION_MAX_AGE_SECONDS / 3600} hours) holds the token, which never appears in a response body.`

/** The GET routes' counterpart of the origin check. */
export const READ_NOTE = 'Origin check: a GET is not checked, and this route answers without CORS headers, so a page of ' +
  'another origin may cause the request but its script cannot read the answer.'

export const ORIGIN_NOTE = `Origin check (every method but ${[...SAFE_METHODS].join(', ')}): refused with 403 ` +
  '`{ "error": "Forbidden" }`, before the API is called, when `Sec-Fetch-Site` is `cross-site` or an `Origin` header ' +
  'is present and not exactly one of ALLOWED_ORIGINS; a request without `Origin` (same-origin navigation, non-browser ' +
  'client) passes.'

const per = ({ max, windowMs }: Limit): string => `${max} per ${windowMs / 1000} s`

/** The 429 of a session route, naming the proxy's limit it counts against. */
export const limitNote = (limit: Limit, what: string): string =>
  `Rate limit reached: the proxy's own limit on ${what}, ${per(limit)} per client address (\`limit\` "auth"); ` +
  '`retryAfter` and the `Retry-After` header say when to try again'

export function infoDescription (cookieName: string, timeoutMs: number, limits: AuthLimits): string {
  return [
    'The web proxy (BFF) for browser pages: it keeps the session token in an httpOnly cookie so page scripts never see it. ' +
      'This document covers the BFF\'s own routes; errors are `{ error, details? }` as in the API.',
    cookieNote(cookieName),
    ORIGIN_NOTE,
    `Rate limits of its own, per client address, before the API's: sign-in (login, one-time code exchange) ${per(limits.signIn)}, ` +
      `every attempt counting; the signed-in session (refresh, session, logout) ${per(limits.session)}. Over a limit: 429 ` +
      '`{ "error": "Too many requests", "retryAfter", "limit": "auth" }` with `Retry-After`; `X-RateLimit-Limit` and ' +
      '`X-RateLimit-Remaining` on every answer of these routes.',
    `A sign-in page for browsers: \`GET /\` and its script (${code(PAGE_FILES.filter(file => file.url !== '/').map(file => file.url))}), ` +
      'which use only these routes and the proxy, served with ' +
      `\`Content-Security-Policy: ${PAGE_CSP}\`.`,
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
      'segments dropped, `;` parameters cut off a segment, as some routers read them); ' +
      `${code(BLOCKED_PATHS)} and everything under them get 404 \`{ "error": "Not found" }\`, as if they did not exist, ` +
      'and never reach the API; so does a path with a `..` segment (raw or encoded) or a backslash, which another ' +
      'router could resolve into them. A NUL or a malformed escape gets 400 with details `["path: malformed"]`.',
    `- The API cannot be reached or does not answer within ${timeoutMs / 1000} s: 502 \`{ "error": "Service unavailable" }\`.`,
    '**Stored images: `/uploads/<path>` → API `/uploads/<path>`**, GET and HEAD only, with neither the cookie nor an ' +
      '`Authorization` header sent on (the files are public). With local storage, set `STORAGE_PUBLIC_URL` to this ' +
      'proxy\'s origin and a browser that reaches only the proxy loads them through it; other methods get 404.',
    'Everywhere: a `#` in the request target gets 400 with details `["path: must not contain a fragment"]`; unknown paths ' +
      `get 404 \`{ "error": "Not found" }\`. This document: \`${DOCS_PATH}\`, no cookie or Origin ` +
      'needed.'
  ].join('\n\n')
}

/** What the session routes answer on success: the API's answer less the token. */
export const SignedIn = Type.Object({ message: Type.String(), user: ref(UserSelf) })
export const Exchanged = Type.Object({ user: ref(UserSelf) })
export const SessionState = Type.Object({ user: ref(UserSelf) })
export const Refreshed = Type.Object({ expiresIn: Type.Integer({ description: 'Seconds the renewed session lasts' }) })

const error = (description: string) => described(description, ErrorRef)

/** The error answers every session route can give, with the ones a route adds or words differently, less `omit`. */
export function errorResponses (extra: Record<number, string> = {}, omit: string[] = []): Record<number, typeof ErrorRef> {
  const descriptions: Record<number, string> = {
    400: 'Malformed JSON body or a `#` in the request target',
    403: 'Refused by the origin check (cross-site, or an Origin not in ALLOWED_ORIGINS)',
    413: 'The body is larger than the server\'s body limit',
    415: 'Unsupported media type: send `application/json`',
    500: 'Unexpected error (the body never carries details)',
    502: 'The API could not be reached, did not answer in time or did not answer a JSON object: `{ "error": "Service unavailable" }`',
    ...extra
  }
  return Object.fromEntries(Object.entries(descriptions).filter(([status]) => !omit.includes(status)).map(([status, text]) => [status, error(text)]))
}
