// The admin audit log: one row per admin request, read back with filters, newest first.
import { createId } from '@paralleldrive/cuid2'
import fp from 'fastify-plugin'
import type { adminAuditLogs } from '../../../db/schema/index.js'
import { json, type Db } from '../../external/db.js'
import type { Page } from './recipe-queries.js'
import { countUpTo } from './sql.js'

declare module 'fastify' {
  interface FastifyInstance {
    adminAuditRepository: typeof adminAuditRepository
  }
}

export type AuditRow = typeof adminAuditLogs.$inferSelect
export type AuditEntry = Omit<AuditRow, 'id' | 'createdAt'>

export interface AuditFilters {
  adminId?: string
  action?: string
  method?: string
  status?: number
  from?: string
  to?: string
}

export const adminAuditRepository = {
  async insert (db: Db, entry: AuditEntry): Promise<void> {
    await db`insert into admin_audit_logs ${db({ ...entry, id: createId(), body: entry.body == null ? null : json(db, entry.body) })}`
  },

  /** A page of entries; the total is counted up to `countCap` (the log only grows). */
  async list (db: Db, filters: AuditFilters, page: number, limit: number, countCap: number): Promise<Page<AuditRow>> {
    const where = db`true
      ${filters.adminId != null ? db`and admin_id = ${filters.adminId}` : db``}
      ${filters.action != null ? db`and action = ${filters.action}` : db``}
      ${filters.method != null ? db`and method = ${filters.method}` : db``}
      ${filters.status != null ? db`and status = ${filters.status}` : db``}
      ${filters.from != null ? db`and created_at >= ${filters.from}` : db``}
      ${filters.to != null ? db`and created_at < ${filters.to}` : db``}`
    const [items, total] = await Promise.all([
      db<AuditRow[]>`select * from admin_audit_logs where ${where}
        order by created_at desc, id desc limit ${limit} offset ${(page - 1) * limit}`,
      countUpTo(db, db`admin_audit_logs`, where, countCap)
    ])
    return { items, total }
  }
}

export default fp(async fastify => {
  fastify.decorate('adminAuditRepository', adminAuditRepository)
}, { name: 'admin-audit-repository' })
