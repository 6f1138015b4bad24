// The BFF's own OpenAPI 3.1 document at /bff/docs/json: the session routes, and the proxy's rules in info.description
// (the proxied operations are the API's, in the API's own document). JSON only, no UI.
import swagger from '@fastify/swagger'
import fp from 'fastify-plugin'
import { documentOptions } from '../../lib/openapi-document.js'
import { DOCS_PATH, infoDescription, SESSION_TAG } from '../openapi.js'
import type { AuthLimits } from './rate-limit.js'

export default fp(async (fastify, opts: { cookieName: string, timeoutMs: number, limits: AuthLimits }) => {
  await fastify.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Recipe Platform web proxy (BFF)', version: '1.0.0', description: infoDescription(opts.cookieName, opts.timeoutMs, opts.limits) },
      servers: [{ url: '/' }],
      tags: [{ name: SESSION_TAG, description: 'The browser session, held in the httpOnly cookie' }],
      components: {
        securitySchemes: {
          sessionCookie: { type: 'apiKey', in: 'cookie', name: opts.cookieName, description: 'The httpOnly session cookie (AUTH_COOKIE)' }
        }
      }
    },
    // Only tagged routes: @fastify/http-proxy's catch-all routes (every method on /bff/api and /bff/api/*) take no
    // schema and stand for all of the API's operations, which info.description covers instead; this route is untagged too.
    hideUntagged: true,
    // As in the API's document: named bodies for generated clients, registered schemas under their own names.
    ...documentOptions
  })

  // A GET, so the origin check lets it through; outside /bff/api, so it is never proxied.
  fastify.get(DOCS_PATH, async () => fastify.swagger())
}, { name: 'bff-docs' })
