// The admin audit log's shapes.
import { Type } from 'typebox'
import { adminAuditLogs } from '../db/schema/admin.js'
import { pick, tableColumns } from './columns.js'
import { Id, Pagination, PaginationQuery, ref } from './common.js'

export const AuditLogQuery = Type.Object({
  ...PaginationQuery.properties,
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
  adminId: Type.Optional(Id),
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'operationId of the route, e.g. admin.users.ban' })),
  method: Type.Optional(Type.Union([Type.Literal('GET'), Type.Literal('POST'), Type.Literal('PUT'), Type.Literal('PATCH'), Type.Literal('DELETE')])),
  status: Type.Optional(Type.Integer({ minimum: 100, maximum: 599 })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Entries at or after this instant' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Entries before this instant' }))
})

export const AuditLogEntry = Type.Object(pick(tableColumns(adminAuditLogs),
  ['id', 'adminId', 'action', 'method', 'path', 'body', 'ip', 'userAgent', 'status', 'createdAt'], {
    adminId: 'null when no admin was signed in (failed sign-ins, refused tokens)',
    body: Type.Unknown({ description: 'The request body with password, code, token and secret fields redacted' })
  }
))

export const AuditLogList = Type.Object({
  auditLogs: Type.Array(AuditLogEntry),
  pagination: ref(Pagination)
}, { description: 'Entries, newest first' })
