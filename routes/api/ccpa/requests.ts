// CCPA requests: do-not-sell and the other consumer requests. Public with an optional sign-in (a token that fails the
// check is ignored, never a 401): signed in, the request is kept with the account.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorRef } from '../../../schemas/common.js'
import { CCPA_LIMITS, ccpaAcknowledgement, CcpaConsumerRequestBody, CcpaDoNotSellBody } from '../../../schemas/ccpa.js'

const COMMON = 'Sign-in is optional: with a valid Bearer token the request is kept with your account. The same request ' +
  `(same sender, type and details) within ${CCPA_LIMITS.duplicateHours} hours answers 200 with the first request's id ` +
  `and stores nothing new, even when sent twice at once. At most ${CCPA_LIMITS.perHour} CCPA requests an hour per ` +
  'client address, both routes together (429 with retryAfter), on top of the API\'s rate limits.'

const responses = {
  200: ccpaAcknowledgement('The same request was received already: its id'),
  201: ccpaAcknowledgement('The request was received: its id'),
  429: ErrorRef
}

const ccpa: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.ccpaService

  fastify.post('/do-not-sell/request', {
    onRequest: fastify.optionalAuth,
    schema: {
      operationId: 'ccpa.doNotSell',
      summary: 'Opt out of the sale or sharing of your personal information (CCPA)',
      description: 'Stored as a `do-not-sell` request (a `requestType` in the body is ignored). Signed in, your account is ' +
        'opted out at once, in the same step (the `doNotSell` of GET /api/analytics/config turns true). Anonymous, the ' +
        'request is stored only and no account is opted out, even when the address is an account\'s (anyone could type ' +
        `anyone's address): sign in to opt your account out at once. ${COMMON}`,
      body: CcpaDoNotSellBody,
      response: responses
    }
  }, async (request, reply) => {
    const { created, requestId } = await service.submit(request.user ?? null, request.ip, { ...request.body, requestType: 'do-not-sell' })
    return await reply.code(created ? 201 : 200).send({ success: true as const, requestId })
  })

  fastify.post('/consumer-request', {
    onRequest: fastify.optionalAuth,
    schema: {
      operationId: 'ccpa.consumerRequest',
      summary: 'Make a CCPA consumer request (know, access, delete, correct, opt out...)',
      description: '`requestType` defaults to `know`. A signed-in `do-not-sell` or `opt-out` request opts your account ' +
        `out as POST /api/ccpa/do-not-sell/request does. ${COMMON}`,
      body: CcpaConsumerRequestBody,
      response: responses
    }
  }, async (request, reply) => {
    const { requestType = 'know', ...fields } = request.body
    const { created, requestId } = await service.submit(request.user ?? null, request.ip, { ...fields, requestType })
    return await reply.code(created ? 201 : 200).send({ success: true as const, requestId })
  })
}

export default ccpa
