// The public client analytics settings (GET /api/analytics/config). GET /api/analytics itself is an admin route.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { AnalyticsConfig } from '../../../schemas/analytics.js'
import { described, ref } from '../../../schemas/common.js'

const analyticsConfig: FastifyPluginAsyncTypebox = async fastify => {
  fastify.get('/config', {
    onRequest: fastify.optionalAuth,
    schema: {
      operationId: 'analytics.config',
      summary: 'Client analytics settings: which provider the web app may load, and under which conditions',
      description: 'Public; sign-in is optional (a token that fails the check is ignored). `enabled` is false when no ' +
        'provider is configured. The web app loads analytics only with the visitor\'s consent and never for browsers ' +
        'asking not to be tracked; for a signed-in caller who opted out of the sale or sharing of their data ' +
        '(POST /api/ccpa/do-not-sell/request), `doNotSell` is true.',
      response: { 200: described('The settings', ref(AnalyticsConfig)) }
    }
  }, async request => await fastify.ccpaService.analyticsConfig(request.user?.id ?? null))
}

export default analyticsConfig
