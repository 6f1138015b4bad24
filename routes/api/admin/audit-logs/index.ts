// The audit log of admin requests.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { AuditLogList, AuditLogQuery } from '../../../../schemas/admin-audit.js'

const auditLogs: FastifyPluginAsyncTypebox = async fastify => {
  fastify.get('/', {
    schema: {
      operationId: 'admin.auditLogs.list',
      summary: 'Admin requests, newest first',
      description: 'Every request to /api/admin once answered, sign-in attempts included. The total is counted up to ' +
        '10,000 (`totalExact: false` beyond).',
      querystring: AuditLogQuery,
      response: { 200: AuditLogList }
    }
  }, async request => {
    const { page, limit, ...filters } = request.query
    return await fastify.adminAuditService.list(filters, page, limit)
  })
}

export default auditLogs
