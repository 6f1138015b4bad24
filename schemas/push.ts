// Web Push: a browser's subscription (as PushSubscription.toJSON() gives it), what the API shows of one, the push
// switch per notification type, and the payload a push carries.
import { Type, type Static } from 'typebox'
import { NOTIFICATION_TYPES } from '../db/schema/social.js'
import { DateTime, Id, Nullable } from './common.js'

export type NotificationType = typeof NOTIFICATION_TYPES[number]

export const ENDPOINT_MAX_LENGTH = 2048

const Endpoint = Type.String({
  minLength: 1,
  maxLength: ENDPOINT_MAX_LENGTH,
  description: 'The push service address the browser gave (PushSubscription.endpoint); must belong to a known push service'
})

export const PushSubscribeBody = Type.Object({
  endpoint: Endpoint,
  keys: Type.Object({
    p256dh: Type.String({ minLength: 1, maxLength: 200, description: 'base64url of the browser\'s 65-byte uncompressed P-256 public key' }),
    auth: Type.String({ minLength: 1, maxLength: 100, description: 'base64url of the 16-byte authentication secret' })
  }),
  expirationTime: Type.Optional(Nullable(Type.Number({ description: 'As the browser reports it; not used' })))
}, { description: 'The browser\'s PushSubscription.toJSON()' })
export type PushSubscribeInput = Static<typeof PushSubscribeBody>

export const PushUnsubscribeBody = Type.Object({ endpoint: Endpoint }, { description: 'The endpoint of the subscription to remove' })

/** A subscription as its owner sees it: the endpoint is a capability URL, so only its origin is shown; keys never. */
export const PushSubscription = Type.Object({
  id: Id,
  origin: Type.String({ description: 'The push service, e.g. https://fcm.googleapis.com' }),
  userAgent: Nullable(Type.String({ description: 'The browser that subscribed, as it named itself' })),
  createdAt: DateTime,
  lastSuccessAt: Nullable(DateTime, { description: 'Last push the service accepted' })
}, { $id: 'PushSubscription', description: 'One of your browsers that receives push notifications' })
export type PushSubscriptionView = Static<typeof PushSubscription>

const typeSwitch = (type: NotificationType) => Type.Boolean({ description: `Push for ${type} notifications` })

export const PushPreferences = Type.Object(
  Object.fromEntries(NOTIFICATION_TYPES.map(type => [type, typeSwitch(type)])) as Record<NotificationType, ReturnType<typeof Type.Boolean>>,
  { $id: 'PushPreferences', description: 'Push switch per notification type; every type is present (on unless turned off)' }
)
export type PushPreferencesView = Record<NotificationType, boolean>

export const PushPreferencesBody = Type.Partial(Type.Object(
  Object.fromEntries(NOTIFICATION_TYPES.map(type => [type, typeSwitch(type)])) as Record<NotificationType, ReturnType<typeof Type.Boolean>>
), { additionalProperties: false, description: 'Any subset of the types: each one given replaces the stored switch, the others stay. Unknown keys are ignored.' })

/** What one push carries (JSON, encrypted for the browser). Never emails or tokens; ids only as notificationId or in url. */
export interface PushPayload {
  title: string
  body: string
  /** Where the notification leads: a path of the web app (`/recipes/...`) or an http(s) URL. */
  url?: string
  /** Replaces an earlier notification with the same tag on the device. */
  tag?: string
  notificationId?: string
}
