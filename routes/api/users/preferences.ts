// The caller's email preferences (fixed switches, merged key by key; any other key is refused) and notification
// settings (digest schedule).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { closedBodyValidator } from '../../../lib/closed-body-validator.js'
import { currentUser } from '../../../plugins/app/auth.js'
import { ref } from '../../../schemas/common.js'
import { EmailPreferences, EmailPreferencesBody, NotificationSettings, NotificationSettingsBody } from '../../../schemas/users.js'

const PreferencesResponse = Type.Object({ preferences: ref(EmailPreferences) }, { description: 'Your email and push preferences' })
const SettingsResponse = Type.Object({ settings: ref(NotificationSettings) }, { description: 'Your notification settings' })

const preferences: FastifyPluginAsyncTypebox = async fastify => {
  const users = fastify.userService

  fastify.get('/email-preferences', {
    onRequest: fastify.authenticate,
    schema: { operationId: 'users.emailPreferences', summary: 'Your email and push preferences', response: { 200: PreferencesResponse } }
  }, async request => ({ preferences: await users.emailPreferences(currentUser(request).id) }))

  fastify.post('/email-preferences', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'users.updateEmailPreferences',
      summary: 'Change some of your email and push preferences',
      description: 'Each switch given replaces the stored one; the others stay. A key that is not a switch, or a value ' +
        'that is not a boolean, is 400 `Validation error` naming the key (`someKey: is not allowed`), and nothing of ' +
        'that body is stored.',
      body: EmailPreferencesBody,
      response: { 200: PreferencesResponse }
    },
    // Unknown keys are an error here, not dropped as in other bodies (decisions.md, Email preferences).
    validatorCompiler: closedBodyValidator
  }, async request => ({ preferences: await users.updateEmailPreferences(currentUser(request).id, request.body) }))

  fastify.get('/notification-settings', {
    onRequest: fastify.authenticate,
    schema: { operationId: 'users.notificationSettings', summary: 'Your notification settings', response: { 200: SettingsResponse } }
  }, async request => ({ settings: await users.notificationSettings(currentUser(request).id) }))

  fastify.put('/notification-settings', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'users.updateNotificationSettings',
      summary: 'Change some of your notification settings',
      description: 'digestFrequency none|daily|weekly, digestDay monday..sunday, digestTime HH:MM (24 h), digestTimezone ' +
        'an IANA zone. Settings not given stay; other keys are ignored.',
      body: NotificationSettingsBody,
      response: { 200: SettingsResponse }
    }
  }, async request => ({ settings: await users.updateNotificationSettings(currentUser(request).id, request.body) }))
}

export default preferences
