// The 404 of /api/admin: it runs this folder's hooks, so a path that matches no admin route is audited like any
// admin request (probing shows in the log). An admin token comes first, as on every admin route: a caller without one
// learns nothing of which admin paths exist (401); an admin gets the usual 404.
import type { FastifyPluginAsync } from 'fastify'
import { sendError } from '../../../lib/error-body.js'

const adminNotFound: FastifyPluginAsync = async fastify => {
  fastify.setNotFoundHandler({ preHandler: [fastify.rateLimits.global, fastify.requireAdmin] }, async function (request, reply) {
    return await sendError(request, reply, 404, { error: 'Not found' })
  })
}

export default adminNotFound
