// Email preferences (free-form, merged) and notification settings (validated digest schedule).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { validationError } from '../../../lib/errors.js'
import { DIGEST_FREQUENCIES, WEEKDAYS } from '../../../db/schema/index.js'
import { StringEnum } from '../../../schemas/common.js'

const TIME_ZONES = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC', 'Etc/UTC'])
const COLUMNS = ['emailLikes', 'emailComments', 'digestFrequency', 'digestDay', 'digestTime', 'digestTimezone'] as const

const Preferences = Type.Record(Type.String({ maxLength: 64 }), Type.Unknown(), { maxProperties: 100 })

const Settings = Type.Object({
  emailLikes: Type.Boolean(),
  emailComments: Type.Boolean(),
  digestFrequency: StringEnum(DIGEST_FREQUENCIES),
  digestDay: StringEnum(WEEKDAYS),
  digestTime: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, 24 hours' }),
  digestTimezone: Type.String({ description: 'IANA time zone, e.g. Europe/Paris' })
}, { additionalProperties: true })

// Known fields are validated; other keys are kept and returned ("passed through"), never written to a column.
const SettingsBody = Type.Object({
  emailLikes: Type.Optional(Settings.properties.emailLikes),
  emailComments: Type.Optional(Settings.properties.emailComments),
  digestFrequency: Type.Optional(Settings.properties.digestFrequency),
  digestDay: Type.Optional(Settings.properties.digestDay),
  digestTime: Type.Optional(Settings.properties.digestTime),
  digestTimezone: Type.Optional(Settings.properties.digestTimezone)
}, { patternProperties: { '^[A-Za-z][A-Za-z0-9_]{0,63}$': {} }, maxProperties: 50 })

const preferences: FastifyPluginAsyncTypebox = async fastify => {
  const repo = fastify.usersRepository

  fastify.get('/email-preferences', {
    onRequest: fastify.authenticate,
    schema: { summary: 'Your email and push preferences', response: { 200: Type.Object({ preferences: Preferences }) } }
  }, async request => ({ preferences: await repo.emailPreferences(currentUser(request).id) }))

  fastify.post('/email-preferences', {
    onRequest: fastify.authenticate,
    schema: {
      summary: 'Merge keys into your email preferences',
      description: 'Any JSON object; its keys replace the same keys, others stay.',
      body: Preferences,
      response: { 200: Type.Object({ preferences: Preferences }) }
    }
  }, async request => ({ preferences: await repo.mergeEmailPreferences(currentUser(request).id, request.body) }))

  async function current (userId: string) {
    const row = await repo.notificationSettings(userId)
    const defaults = { emailLikes: true, emailComments: true, digestFrequency: 'weekly', digestDay: 'monday', digestTime: '09:00', digestTimezone: 'UTC' } as const
    if (row == null) return defaults
    const { extra, userId: _u, updatedAt: _t, ...columns } = row
    return { ...extra, ...columns }
  }

  fastify.get('/notification-settings', {
    onRequest: fastify.authenticate,
    schema: { summary: 'Your notification settings', response: { 200: Type.Object({ settings: Settings }) } }
  }, async request => ({ settings: await current(currentUser(request).id) }))

  fastify.put('/notification-settings', {
    onRequest: fastify.authenticate,
    schema: {
      summary: 'Update your notification settings',
      description: 'digestFrequency none|daily|weekly, digestDay monday..sunday, digestTime HH:MM, digestTimezone IANA. ' +
        'Other keys are stored and returned as they are.',
      body: SettingsBody,
      response: { 200: Type.Object({ settings: Settings }) }
    }
  }, async request => {
    const userId = currentUser(request).id
    const body = request.body as Record<string, unknown>
    if (typeof body.digestTimezone === 'string' && !TIME_ZONES.has(body.digestTimezone)) {
      throw validationError(['digestTimezone: must be an IANA time zone'])
    }
    const columns: Record<string, unknown> = {}
    const extra: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(body)) {
      if ((COLUMNS as readonly string[]).includes(key)) columns[key] = value
      else extra[key] = value
    }
    const existing = await repo.notificationSettings(userId)
    await repo.saveNotificationSettings(userId, { ...columns, extra: { ...(existing?.extra ?? {}), ...extra } })
    return { settings: await current(userId) }
  })
}

export default preferences
