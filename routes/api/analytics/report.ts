// GET /api/analytics: the admin analytics report (decisions.md section 4: the same as GET /api/admin/analytics, and
// admin only). This folder is not under /api/admin, so the route takes the admin check and the audit entry itself.
// GET /api/analytics/config (config.ts) stays public. (Not index.ts: autoload would then skip config.ts.)
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ANALYTICS_DESCRIPTION, AnalyticsReport } from '../../../schemas/admin-analytics.js'
import { described, ErrorRef, ref } from '../../../schemas/common.js'

const analytics: FastifyPluginAsyncTypebox = async fastify => {
  fastify.get('/', {
    onRequest: fastify.requireAdmin,
    onResponse: async (request, reply) => { await fastify.adminAuditService.record(request, reply) },
    schema: {
      operationId: 'analytics.get',
      summary: 'Platform analytics (admin token)',
      description: `${ANALYTICS_DESCRIPTION} The same report as GET /api/admin/analytics; needs an admin token, and ` +
        'is written to the admin audit log.',
      security: [{ adminBearerAuth: [] }],
      response: { 200: described('The report', ref(AnalyticsReport)), 401: ErrorRef }
    }
  }, async () => await fastify.analyticsService.report())
}

export default analytics
