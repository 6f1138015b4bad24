// Reports of a recipe, comment or user that exists and that the reporter can see; one open report per target.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { ErrorRef, ref } from '../../../schemas/common.js'
import { Report, ReportBody } from '../../../schemas/social.js'

const reports: FastifyPluginAsyncTypebox = async fastify => {
  fastify.post('/', {
    schema: {
      operationId: 'reports.create',
      summary: 'Report a recipe, comment or user',
      description: 'The target must exist and be visible to you (404 otherwise). While your report on a target is open, another is 409.',
      body: ReportBody,
      response: { 201: Type.Object({ report: ref(Report) }, { description: 'The new report' }), 404: ErrorRef, 409: ErrorRef }
    }
  }, async (request, reply) => {
    const report = await fastify.reportService.report(currentUser(request).id, request.body)
    return await reply.code(201).send({ report })
  })
}

export default reports
