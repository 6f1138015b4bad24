// Profiles (own and public), user search, recent authors, follow lists, a user's recipes, email preferences and
// notification settings. Only shown users (active, not banned) are visible to others.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { NOTIFICATION_SETTINGS_DEFAULTS } from '../../../db/schema/index.js'
import { UserNotFound, validationError } from '../../../lib/errors.js'
import type { SessionRead } from '../auth.js'
import type { RecipeView } from '../../../schemas/recipes.js'
import type { NotificationType } from '../../../schemas/push.js'
import {
  EMAIL_PREFERENCE_DEFAULTS, type EmailPreferenceKey, type EmailPreferencesInput, type EmailPreferencesView,
  type NotificationSettingsInput, type NotificationSettingsView, type ProfileInput, type UserPublicView, type UserSelfView
} from '../../../schemas/users.js'
import type { Db } from '../../external/db.js'
import type { Page } from '../repositories/recipes.js'
import type { UploadedFile } from './media.js'

declare module 'fastify' {
  interface FastifyInstance {
    userService: ReturnType<typeof createUserService>
  }
}

/**
 * The push switches are views of the push preferences per notification type (notification_preferences, the one
 * source of truth the push sender reads); pushComments covers comments and replies.
 */
const PUSH_SWITCHES = {
  pushLikes: ['like'],
  pushComments: ['comment', 'reply'],
  pushFollows: ['follow'],
  pushNewRecipes: ['new_recipe']
} as const satisfies Partial<Record<EmailPreferenceKey, readonly NotificationType[]>>
type PushSwitch = keyof typeof PUSH_SWITCHES

/** Switches kept in the email_preferences column; emailLikes/emailComments live in notification_settings. */
export const STORED_PREFERENCES = Object.keys(EMAIL_PREFERENCE_DEFAULTS)
  .filter(key => key !== 'emailLikes' && key !== 'emailComments' && !(key in PUSH_SWITCHES))

/** A push switch is on when every type it covers is pushed. */
function pushSwitches (types: Record<NotificationType, boolean>): Record<PushSwitch, boolean> {
  const entries = Object.entries(PUSH_SWITCHES).map(([key, covered]) => [key, covered.every(type => types[type])])
  return Object.fromEntries(entries) as Record<PushSwitch, boolean>
}

function pushPatch (input: EmailPreferencesInput): Partial<Record<NotificationType, boolean>> {
  const patch: Partial<Record<NotificationType, boolean>> = {}
  for (const [key, covered] of Object.entries(PUSH_SWITCHES) as Array<[PushSwitch, readonly NotificationType[]]>) {
    const value = input[key]
    if (value !== undefined) for (const type of covered) patch[type] = value
  }
  return patch
}

/** The canonical name of an IANA time zone (`europe/paris` -> `Europe/Paris`), or null; offsets are not zones. */
export function ianaTimeZone (name: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return null
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone
  } catch {
    return null
  }
}

export function createUserService (fastify: FastifyInstance) {
  const { usersRepository: users } = fastify

  async function idOf (username: string): Promise<string> {
    const id = await users.idByUsername(fastify.db, username)
    if (id == null) throw new UserNotFound()
    return id
  }

  async function own (userId: string, db: Db = fastify.db): Promise<UserSelfView> {
    const user = await users.self(db, userId)
    if (user == null) throw new UserNotFound()
    return user
  }

  async function notificationSettings (userId: string, db: Db = fastify.db): Promise<NotificationSettingsView> {
    return { ...NOTIFICATION_SETTINGS_DEFAULTS, ...(await users.notificationSettings(db, userId)) }
  }

  async function emailPreferences (userId: string, db: Db = fastify.db): Promise<EmailPreferencesView> {
    const [stored, settings, push] = await Promise.all([
      users.emailPreferences(db, userId, STORED_PREFERENCES),
      notificationSettings(userId, db),
      fastify.pushService.preferences(userId, db)
    ])
    if (stored == null) throw new UserNotFound()
    return { ...EMAIL_PREFERENCE_DEFAULTS, ...stored, emailLikes: settings.emailLikes, emailComments: settings.emailComments, ...pushSwitches(push) }
  }

  return {
    own,

    /** The own profile read with the strict session check (a `sessionRead`): GET /api/auth/me in one statement. */
    ownSession: users.selfSessions satisfies SessionRead<UserSelfView>,

    /** Only the profile fields are taken; the answer is the updated own profile. */
    async updateProfile (userId: string, input: ProfileInput): Promise<UserSelfView> {
      const { firstName, lastName, bio, location } = input
      await users.updateProfile(fastify.db, userId, { firstName, lastName, bio, location })
      return await own(userId)
    },

    /** Makes the uploaded image the caller's avatar; the answer is the own profile with its new avatarUrl. */
    async setAvatar (userId: string, file: UploadedFile): Promise<UserSelfView> {
      await fastify.mediaService.setAvatar(userId, file)
      return await own(userId)
    },

    async removeAvatar (userId: string): Promise<void> {
      await fastify.mediaService.removeAvatar(userId)
    },

    async profile (username: string, viewerId: string | null): Promise<UserPublicView> {
      const user = await users.byUsername(fastify.db, username, viewerId)
      if (user == null) throw new UserNotFound()
      return user
    },

    async recipes (username: string, viewerId: string | null, page: number, limit: number): Promise<Page<RecipeView>> {
      return await fastify.recipeService.byAuthor(await idOf(username), viewerId, page, limit)
    },

    /** One recipe of the user by its slug, under the usual visibility rules (404 when the viewer may not see it). */
    async recipe (username: string, slug: string, viewerId: string | null): Promise<RecipeView> {
      return await fastify.recipeService.bySlug(await idOf(username), slug, viewerId)
    },

    async search (text: string, limit: number, viewerId: string | null): Promise<{ users: UserPublicView[], total: number, query: string }> {
      const query = text.trim()
      if (query === '') return { users: [], total: 0, query }
      return { ...(await users.search(fastify.db, query, limit, viewerId)), query }
    },

    async recent (limit: number, viewerId: string | null): Promise<UserPublicView[]> {
      return await users.recent(fastify.db, limit, viewerId)
    },

    async connections (username: string, direction: 'followers' | 'following', viewerId: string | null, page: number, limit: number) {
      return await users.connections(fastify.db, await idOf(username), direction, viewerId, page, limit)
    },

    emailPreferences,

    /**
     * Each given switch replaces the stored one; emailLikes/emailComments go to the notification settings, the push
     * switches to the push preferences of the types they cover.
     */
    async updateEmailPreferences (userId: string, input: EmailPreferencesInput): Promise<EmailPreferencesView> {
      const { emailLikes, emailComments, pushLikes, pushComments, pushFollows, pushNewRecipes, ...stored } = input
      const push = pushPatch({ pushLikes, pushComments, pushFollows, pushNewRecipes })
      return await fastify.transaction(async tx => {
        await users.mergeEmailPreferences(tx, userId, STORED_PREFERENCES, stored)
        if (emailLikes !== undefined || emailComments !== undefined) {
          await users.saveNotificationSettings(tx, userId, { emailLikes, emailComments })
        }
        if (Object.keys(push).length > 0) await fastify.pushService.updatePreferences(userId, push, tx)
        return await emailPreferences(userId, tx)
      })
    },

    notificationSettings,

    async updateNotificationSettings (userId: string, input: NotificationSettingsInput): Promise<NotificationSettingsView> {
      const { emailLikes, emailComments, digestFrequency, digestDay, digestTime } = input
      let digestTimezone: string | undefined
      if (input.digestTimezone !== undefined) {
        digestTimezone = ianaTimeZone(input.digestTimezone) ?? undefined
        if (digestTimezone == null) throw validationError(['digestTimezone: must be an IANA time zone, e.g. Europe/Paris'])
      }
      await users.saveNotificationSettings(fastify.db, userId, { emailLikes, emailComments, digestFrequency, digestDay, digestTime, digestTimezone })
      return await notificationSettings(userId)
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('userService', createUserService(fastify))
}, { name: 'user-service', dependencies: ['users-repository', 'recipe-service', 'media-service', 'push-service', 'db'] })
