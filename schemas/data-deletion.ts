import { Type, type Static } from 'typebox'
import { DateTime, Id, Nullable, StringEnum } from './common.js'
import { DELETE_TYPES, DELETION_STATUSES } from '../db/schema/compliance.js'

export const DELETION_REASON_MAX = 1000

export const DataDeletionRequest = Type.Object({
  id: Id,
  email: Type.String({ description: 'The account\'s address; masked (`j***@example.com`) on the public status route and once carried out' }),
  deleteType: StringEnum(DELETE_TYPES, { description: '`account`: the account and everything in it; `data`: the content, keeping the account' }),
  status: StringEnum(DELETION_STATUSES, { description: 'pending -> processing -> completed, or cancelled / failed' }),
  reason: Nullable(Type.String(), { description: 'As given (never on the public status route)' }),
  createdAt: DateTime,
  scheduledFor: Type.String({ format: 'date-time', description: 'When it is carried out; cancellable until then' }),
  startedAt: Nullable(DateTime),
  completedAt: Nullable(DateTime),
  cancelledAt: Nullable(DateTime)
}, { $id: 'DataDeletionRequest', description: 'A request to delete an account or its data' })
export type DataDeletionRequestView = Static<typeof DataDeletionRequest>

export const DataDeletionBody = Type.Object({
  deleteType: StringEnum(DELETE_TYPES),
  reason: Type.Optional(Type.String({ maxLength: DELETION_REASON_MAX, description: `Optional, at most ${DELETION_REASON_MAX} characters` }))
})

export const DeletionRequestParams = Type.Object({ requestId: Id })
