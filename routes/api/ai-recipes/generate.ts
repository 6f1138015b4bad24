// POST /api/ai-recipes/generate: a recipe written by the configured OpenAI-compatible model, saved as your draft.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { AI_TAG, REPEAT_SECONDS } from '../../../plugins/app/services/ai-recipes.js'
import { GenerateBody, GenerateHeaders, GeneratedResponse } from '../../../schemas/ai-recipes.js'
import { described, EnvelopeError, ref } from '../../../schemas/common.js'

const Envelope = ref(EnvelopeError)

const description = (perHour: number, timeoutMs: number) => 'Needs the `ai-recipes` feature for your account and plan (403), a configured provider (503 ' +
  '`AI provider not configured`), room under your plan\'s recipe limit and a monthly AI generation left (403); at most ' +
  `${perHour} requests an hour (429). The generation is counted before the model is asked and given back ` +
  'if it fails. The model must answer with a valid recipe (asked once more with the problems otherwise) that uses at least ' +
  '60% of the requested `ingredients` (asked once more otherwise); still unusable: 502 with the reasons in `details`. ' +
  'The provider is not retried: its 5xx or a broken answer is 502, its 429 is 503 (with Retry-After), no answer in ' +
  `${timeoutMs / 1000} s is 504. The recipe is saved as your draft (unpublished, only you see it) tagged \`${AI_TAG}\`. ` +
  'Repeats: with an `Idempotency-Key`, the same key and body within 24 hours answers 200 with the first generation ' +
  `(another body: 422); without one, the same body within ${REPEAT_SECONDS} seconds does. A repeat spends nothing. ` +
  'An identical request still running: 409. Every request is logged in your history (`GET /api/ai-recipes/history`).'

const generate: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.aiRecipeService

  fastify.post('/generate', {
    config: { envelope: true },
    schema: {
      operationId: 'aiRecipes.generate',
      summary: 'Generate a recipe with AI',
      description: description(fastify.config.rateLimit.aiPerHour, fastify.config.ai.timeoutMs),
      headers: GenerateHeaders,
      body: GenerateBody,
      response: {
        200: described('A repeat: the recipe and generation of the first identical request (nothing spent)', GeneratedResponse),
        201: GeneratedResponse,
        400: Envelope,
        403: described('The `ai-recipes` feature is off for you, or a plan limit (recipes, monthly AI generations) is reached', Envelope),
        409: described('An identical generation is in progress', Envelope),
        422: described('The Idempotency-Key was used with another body, or the AI declined the request (`details` says why)', Envelope),
        429: Envelope,
        502: described('The provider failed, or its replies were not a usable recipe (`details` says why)', Envelope),
        503: described('No provider is configured, or it is rate-limiting us (Retry-After)', Envelope),
        504: described('The provider did not answer in time', Envelope)
      }
    }
  }, async (request, reply) => {
    // The client going away aborts the provider call (the generation is logged failed and its allowance given back).
    const abandon = new AbortController()
    const onClose = () => { if (!reply.raw.writableFinished) abandon.abort(new Error('client closed the connection')) }
    reply.raw.once('close', onClose)
    try {
      const { recipe, generationId, created } = await service.generate(currentUser(request).id, request.body, {
        idempotencyKey: request.headers['idempotency-key'],
        signal: abandon.signal
      })
      return await reply.code(created ? 201 : 200).send({ success: true, recipe, generationId })
    } finally {
      reply.raw.off('close', onClose)
    }
  })
}

export default generate
