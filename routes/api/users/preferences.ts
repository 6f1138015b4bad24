// The caller's email preferences (fixed switches, merged key by key) and notification settings (digest schedule).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
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
      description: 'Each switch given replaces the stored one; the others stay. Keys that are not switches are ignored.',
      body: EmailPreferencesBody,
      response: { 200: PreferencesResponse }
    }
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
