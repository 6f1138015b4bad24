// The API's error and 404 handlers: every body comes from lib/error-body.ts. No stack trace, SQL or driver text.
import fp from 'fastify-plugin'
import { handleError, sendError } from '../../lib/error-body.js'

export default fp(async fastify => {
  fastify.setErrorHandler(handleError)

  fastify.setNotFoundHandler({ preHandler: fastify.rateLimits.global }, function (request, reply) {
    return sendError(request, reply, 404, { error: 'Not found' })
  })
}, { name: 'error-handler', dependencies: ['rate-limit'] })
