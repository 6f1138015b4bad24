// Users as clients see them (public and own), the profile body, email preferences and notification settings.
import { Type, type Static } from 'typebox'
import { DIGEST_FREQUENCIES, NOTIFICATION_SETTINGS_DEFAULTS, notificationSettings, users, WEEKDAYS } from '../db/schema/users.js'
import { pick, tableColumns } from './columns.js'
import { described, Nullable, StringEnum } from './common.js'

export const TEXT_LIMITS = { firstName: 100, lastName: 100, bio: 2000, location: 200 } as const

const Counts = Type.Object({
  recipes: Type.Integer({ minimum: 0, description: 'Recipes of theirs the caller may see' }),
  followers: Type.Integer({ minimum: 0 }),
  following: Type.Integer({ minimum: 0 })
})

const user = tableColumns(users)

const publicFields = {
  ...pick(user, ['id', 'username', 'firstName', 'lastName', 'bio', 'location', 'avatarUrl', 'verified', 'createdAt']),
  _count: Counts
}

export const UserPublic = Type.Object({
  ...publicFields,
  isFollowing: Type.Boolean({ description: 'Whether the caller follows this user (false when anonymous)' })
}, { $id: 'UserPublic', description: 'A user as anyone may see them: never an email address or a secret' })
export type UserPublicView = Static<typeof UserPublic>

export const UserSelf = Type.Object({
  ...publicFields,
  ...pick(user, ['email'], { email: Type.String({ format: 'email' }) }),
  plan: described('Subscription plan key', user.planId),
  ...pick(user, ['updatedAt'])
}, { $id: 'UserSelf', description: 'The caller\'s own account' })
export type UserSelfView = Static<typeof UserSelf>

export const ProfileBody = Type.Object({
  firstName: Type.Optional(Nullable(Type.String({ maxLength: TEXT_LIMITS.firstName }))),
  lastName: Type.Optional(Nullable(Type.String({ maxLength: TEXT_LIMITS.lastName }))),
  bio: Type.Optional(Nullable(Type.String({ maxLength: TEXT_LIMITS.bio }))),
  location: Type.Optional(Nullable(Type.String({ maxLength: TEXT_LIMITS.location })))
})
export type ProfileInput = Static<typeof ProfileBody>

export const UsernameParams = Type.Object({ username: Type.String({ minLength: 1, maxLength: 100 }) })
export const UserRecipeParams = Type.Object({ ...UsernameParams.properties, slug: Type.String({ minLength: 1, maxLength: 250 }) })
export const UserSearchQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 100 })),
  query: Type.Optional(Type.String({ maxLength: 100, description: 'Alias of q' })),
  limit: Type.Integer({ minimum: 1, maximum: 50, default: 20 })
})

/** Email and push switches and their values for a user who never set them. */
export const EMAIL_PREFERENCE_DEFAULTS = {
  unsubscribedAll: false,
  newsletter: false,
  productUpdates: false,
  emailLikes: NOTIFICATION_SETTINGS_DEFAULTS.emailLikes,
  emailComments: NOTIFICATION_SETTINGS_DEFAULTS.emailComments,
  emailFollows: true,
  emailNewRecipes: true,
  pushLikes: true,
  pushComments: true,
  pushFollows: true,
  pushNewRecipes: true
} as const satisfies Record<string, boolean>
export type EmailPreferenceKey = keyof typeof EMAIL_PREFERENCE_DEFAULTS

const Switch = (key: EmailPreferenceKey, description: string) =>
  Type.Boolean({ description: `${description} (default ${String(EMAIL_PREFERENCE_DEFAULTS[key])})` })

/**
 * A fixed set of switches: a body with any other key is refused (decisions.md), nothing else is ever stored.
 * `emailLikes` and `emailComments` are the notification settings' switches of the same name (one stored value, two
 * views).
 */
export const EmailPreferences = Type.Object({
  unsubscribedAll: Switch('unsubscribedAll', 'No notification email at all; set by the one-click unsubscribe'),
  newsletter: Switch('newsletter', 'The newsletter (opt-in)'),
  productUpdates: Switch('productUpdates', 'Announcements of new features (opt-in)'),
  emailLikes: Switch('emailLikes', 'Email when someone likes your recipe; same as notification settings emailLikes'),
  emailComments: Switch('emailComments', 'Email when someone comments on your recipe; same as notification settings emailComments'),
  emailFollows: Switch('emailFollows', 'Email when someone follows you'),
  emailNewRecipes: Switch('emailNewRecipes', 'Email when someone you follow publishes a recipe'),
  pushLikes: Switch('pushLikes', 'Push notification when someone likes your recipe'),
  pushComments: Switch('pushComments', 'Push notification when someone comments on your recipe'),
  pushFollows: Switch('pushFollows', 'Push notification when someone follows you'),
  pushNewRecipes: Switch('pushNewRecipes', 'Push notification when someone you follow publishes a recipe')
}, { $id: 'EmailPreferences', description: 'Email and push switches; every key is always present (defaults filled in)' })
export type EmailPreferencesView = Static<typeof EmailPreferences>
export const EmailPreferencesBody = Type.Partial(EmailPreferences, {
  additionalProperties: false,
  description: 'Any subset of the switches: each one given replaces the stored one, the others stay. Any other key, or a ' +
    'value that is not a boolean, is 400 `Validation error` naming the key, and nothing of the body is stored.'
})
export type EmailPreferencesInput = Partial<EmailPreferencesView>

const HHMM = '^([01][0-9]|2[0-3]):[0-5][0-9]$'

export const NotificationSettings = Type.Object(pick(tableColumns(notificationSettings),
  ['emailLikes', 'emailComments', 'digestFrequency', 'digestDay', 'digestTime', 'digestTimezone'], {
    emailLikes: 'Email when someone likes your recipe',
    emailComments: 'Email when someone comments on your recipe',
    digestFrequency: StringEnum(DIGEST_FREQUENCIES, { description: 'none, daily or weekly' }),
    digestDay: StringEnum(WEEKDAYS, { description: 'Day of a weekly digest' }),
    digestTime: Type.String({ pattern: HHMM, description: 'HH:MM, 24 hours, in digestTimezone' }),
    digestTimezone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. Europe/Paris' })
  }), { $id: 'NotificationSettings', description: 'Which emails you get and when the digest is sent' })
export type NotificationSettingsView = Static<typeof NotificationSettings>
export const NotificationSettingsBody = Type.Partial(NotificationSettings, {
  description: 'Any subset of the settings; the others stay. Unknown keys are ignored.'
})
export type NotificationSettingsInput = Partial<NotificationSettingsView>
