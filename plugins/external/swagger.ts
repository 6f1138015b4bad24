// OpenAPI 3.1 generated from the route schemas; Swagger UI at /api/docs, the document at /api/docs/json.
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import fp from 'fastify-plugin'
import { API_TAGS, OPERATIONS_TAG } from '../../lib/api-tags.js'
import { documentOptions } from '../../lib/openapi-document.js'

const DESCRIPTION = `Social recipe platform: recipes, social graph, meal planning, grocery lists, imports, AI,
notifications, compliance and an admin API.

## Authentication
1. \`POST /api/auth/register\` (or \`POST /api/auth/login\` with \`{ identifier, password }\`) answers \`{ token, user }\`.
2. Send the token on every call as \`Authorization: Bearer <token>\` (in this page: **Authorize**, scheme
   \`bearerAuth\`, paste the token alone). Tokens last 24 hours (\`POST /api/auth/refresh\` gives a new one);
   \`POST /api/auth/logout\` revokes one at once.
3. The admin API (\`/api/admin\`) takes its own token: \`POST /api/admin/auth/login\` (scheme \`adminBearerAuth\`).

A browser app signs in through the web proxy instead (\`/bff/auth/login\`, an httpOnly cookie), never holding a token.

## Conventions
Errors are \`{ error, details? }\`; import and AI routes use \`{ success: false, error, details }\`. Lists are
paginated with \`page\` (>= 1) and \`limit\` (1-50, default 12). Signed-in \`POST\`s take an \`Idempotency-Key\`
header for safe retries.`

export default fp(async fastify => {
  await fastify.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Recipe Platform API',
        version: '1.0.0',
        description: DESCRIPTION
      },
      tags: [...API_TAGS, OPERATIONS_TAG].map(({ name, description }) => ({ name, description })),
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          adminBearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Admin token from POST /api/admin/auth/login' }
        }
      }
    },
    hideUntagged: true,
    // Named bodies and optional defaulted parameters for generated clients; registered schemas under their own names.
    ...documentOptions
  })
  await fastify.register(swaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true, persistAuthorization: true },
    staticCSP: false
  })
}, { name: 'swagger' })
