// The caller's privacy choices (GDPR consent): read them, change any of them.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { ref } from '../../../schemas/common.js'
import { Consent, ConsentBody } from '../../../schemas/gdpr.js'

const consentRoutes: FastifyPluginAsyncTypebox = async fastify => {
  const consents = fastify.consentService

  fastify.get('/consent', {
    schema: {
      operationId: 'gdpr.getConsent',
      summary: 'Your privacy choices',
      description: 'Analytics, marketing and personalization are off until you turn them on (policyVersion and updatedAt null).',
      response: { 200: Type.Object({ consent: ref(Consent) }, { description: 'Your choices' }) }
    }
  }, async request => ({ consent: await consents.get(currentUser(request).id) }))

  fastify.put('/consent', {
    schema: {
      operationId: 'gdpr.updateConsent',
      summary: 'Change your privacy choices',
      description: 'Send any subset of analytics, marketing, personalization and policyVersion (the policy version you ' +
        'accepted them under): those given replace the stored ones, the others stay. Repeating a request changes nothing more.',
      body: ConsentBody,
      response: { 200: Type.Object({ consent: ref(Consent) }, { description: 'All your choices, as saved' }) }
    }
  }, async request => ({ consent: await consents.update(currentUser(request).id, request.body) }))
}

export default consentRoutes
