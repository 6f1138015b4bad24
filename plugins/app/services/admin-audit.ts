// The admin audit log: every request under /api/admin is recorded once answered (routes/api/admin/autohooks.ts),
// with its body's secret fields redacted; admins read it back with filters.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { redactSecrets } from '../../../lib/redact.js'
import { pagination } from '../../../schemas/common.js'
import type { AuditFilters } from '../repositories/admin-audit.js'

declare module 'fastify' {
  interface FastifyInstance {
    adminAuditService: ReturnType<typeof createAdminAuditService>
  }
  interface FastifyRequest {
    /** Set by routes that identify an admin without a session yet (a successful sign-in). */
    auditAdminId: string | null
  }
}

/** The audit list counts matching entries up to this (`totalExact: false` beyond). */
export const AUDIT_COUNT_CAP = 10_000

export function createAdminAuditService (fastify: FastifyInstance) {
  const repo = fastify.adminAuditRepository
  return {
    /** Records an answered admin request; a failure is logged, never turned into an error for the client. */
    async record (request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const route = request.routeOptions
      const operationId = (route.schema as { operationId?: string } | undefined)?.operationId
      try {
        await repo.insert(fastify.db, {
          adminId: request.admin?.id ?? request.auditAdminId,
          action: operationId ?? `${request.method} ${route.url ?? ''}`,
          method: request.method,
          path: request.url.slice(0, 2000),
          body: request.body == null ? null : redactSecrets(request.body),
          ip: request.ip,
          userAgent: request.headers['user-agent']?.slice(0, 500) ?? null,
          status: reply.statusCode
        })
      } catch (err) {
        request.log.error({ err }, 'admin audit entry not written')
      }
    },

    async list (filters: AuditFilters, page: number, limit: number) {
      const { items, total } = await repo.list(fastify.db, filters, page, limit, AUDIT_COUNT_CAP)
      return {
        auditLogs: items.map(row => ({ ...row, createdAt: row.createdAt.toISOString() })),
        pagination: pagination(page, limit, total, { totalExact: total < AUDIT_COUNT_CAP })
      }
    }
  }
}

export default fp(async fastify => {
  fastify.decorateRequest('auditAdminId', null)
  fastify.decorate('adminAuditService', createAdminAuditService(fastify))
}, { name: 'admin-audit-service', dependencies: ['admin-audit-repository'] })
