import { Type, type Static } from 'typebox'
import { DateTime, Id, Nullable } from './common.js'
import { NOTIFICATION_TYPES } from '../db/schema/social.js'

export const Notification = Type.Object({
  id: Id,
  type: Type.String({ description: NOTIFICATION_TYPES.join(', ') }),
  message: Type.String(),
  read: Type.Boolean(),
  recipeId: Nullable(Id),
  actor: Nullable(Type.Object({ id: Id, username: Type.String(), avatarUrl: Nullable(Type.String()) })),
  data: Type.Record(Type.String(), Type.Unknown()),
  createdAt: DateTime
}, { $id: 'Notification' })
export type NotificationView = Static<typeof Notification>
