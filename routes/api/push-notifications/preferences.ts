// The caller's push switch per notification type (the push switches of /api/users/email-preferences are views of these).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser, sessionValue } from '../../../plugins/app/auth.js'
import { ref } from '../../../schemas/common.js'
import { PushPreferences, PushPreferencesBody, type PushPreferencesView } from '../../../schemas/push.js'

const PreferencesResponse = Type.Object({ preferences: ref(PushPreferences) }, { description: 'Every notification type\'s push switch' })

const preferenceRoutes: FastifyPluginAsyncTypebox = async fastify => {
  const push = fastify.pushService

  fastify.get('/preferences', {
    onRequest: fastify.authenticate,
    // The session check reads the preferences too: one statement.
    config: { sessionRead: push.preferencesSession },
    schema: {
      operationId: 'pushNotifications.preferences',
      summary: 'Which notification types are pushed to you',
      response: { 200: PreferencesResponse }
    }
  }, async request => ({ preferences: sessionValue<PushPreferencesView>(request) }))

  fastify.put('/preferences', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'pushNotifications.updatePreferences',
      summary: 'Turn pushes of some notification types on or off',
      description: 'Types given are set, the others stay. pushLikes, pushComments (comment and reply), pushFollows and ' +
        'pushNewRecipes of /api/users/email-preferences are the same switches.',
      body: PushPreferencesBody,
      response: { 200: PreferencesResponse }
    }
  }, async request => ({ preferences: await push.updatePreferences(currentUser(request).id, request.body) }))
}

export default preferenceRoutes
