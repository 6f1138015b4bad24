// Platform analytics for admins; GET /api/analytics (routes/api/analytics/index.ts) serves the same report.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ANALYTICS_DESCRIPTION, AnalyticsReport } from '../../../../schemas/admin-analytics.js'
import { described, ref } from '../../../../schemas/common.js'

const analytics: FastifyPluginAsyncTypebox = async fastify => {
  fastify.get('/', {
    schema: {
      operationId: 'admin.analytics.get',
      summary: 'Platform analytics',
      description: `${ANALYTICS_DESCRIPTION} Also served at GET /api/analytics.`,
      response: { 200: described('The report', ref(AnalyticsReport)) }
    }
  }, async () => await fastify.analyticsService.report())
}

export default analytics
