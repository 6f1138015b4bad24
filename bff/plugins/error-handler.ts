// Error and 404 bodies of the web proxy: the API's own shapes (decisions.md section 1), so a browser sees one error
// format whichever side failed, and never an upstream address, stack or driver message.
import type { FastifyError } from 'fastify'
import fp from 'fastify-plugin'
import { mapError, sendError } from '../../lib/error-body.js'

/** The API could not be reached or gave no usable answer (refused, reset, timed out). */
export class UpstreamUnavailableError extends Error {
  override name = 'UpstreamUnavailableError'
  readonly statusCode = 502

  constructor (cause: unknown) {
    super('API unreachable', { cause })
  }
}

export default fp(async fastify => {
  fastify.setErrorHandler(function (err: FastifyError, request, reply) {
    const { status, body } = err instanceof UpstreamUnavailableError
      ? { status: 502, body: { error: 'Service unavailable' } }
      : mapError(err)
    if (status >= 500) request.log.error({ err }, 'request failed')
    else request.log.debug({ status, error: body.error }, 'request rejected')
    return sendError(request, reply, status, body)
  })

  fastify.setNotFoundHandler(function (request, reply) {
    return sendError(request, reply, 404, { error: 'Not found' })
  })
}, { name: 'bff-error-handler' })
