// OpenAPI 3.1 generated from the route schemas; Swagger UI at /api/docs, the document at /api/docs/json.
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import fp from 'fastify-plugin'
import { documentOptions } from '../../lib/openapi-document.js'

export default fp(async fastify => {
  await fastify.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Recipe Platform API',
        version: '1.0.0',
        description: 'Social recipe platform: recipes, social graph, meal planning, grocery lists, imports, AI, ' +
          'notifications, compliance and an admin API. Errors are `{ error, details? }`; import and AI routes use ' +
          '`{ success: false, error, details }`. Lists are paginated with `page` (>= 1) and `limit` (1-50, default 12).'
      },
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
