// AI recipe generation: the gate (per-user rate, the `ai-recipes` flag, a configured provider, the recipe limit, the
// monthly allowance), idempotency (Idempotency-Key, or the body's hash against double submits), the provider call
// with its repair and grounding retries (lib/ai), the recipe saved as a draft, and a log row for every request.
//
// The allowance is reserved before the provider is called (the call costs money): one short transaction counts it,
// the counter row's lock making the limit exact under concurrent requests, and rolls back past the limit. A
// generation that then fails gives it back; the recipe is created without spending anything more.
import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { generateRecipe, ModelRefusal, newStats, UnusableRecipe, type GenerationStats } from '../../../lib/ai/generate.js'
import { canonicalJson, normalizeRequest, requestHash, userPrompt, type AiRequest } from '../../../lib/ai/prompts.js'
import { AiProviderError, createChatClient, DEFAULT_MAX_RESPONSE_BYTES } from '../../../lib/ai/provider.js'
import type { GeneratedRecipe } from '../../../lib/ai/recipe-output.js'
import { createReplyReader } from '../../../lib/ai/reply-reader.js'
import {
  AiGenerationInProgress, AiLimitReached, AiProviderNotConfigured, aiProviderBusy, aiProviderFailed, aiProviderTimeout,
  AiRecipesDisabled, aiRequestDeclined, aiUnusableRecipe, HttpError, IdempotencyKeyReused, RecipeLimitReached, RecipeNotFound,
  RequestAbandoned, validationError
} from '../../../lib/errors.js'
import { detached } from '../../../lib/request-scope.js'
import type { GenerateInput } from '../../../schemas/ai-recipes.js'
import { RECIPE_LIMITS, type RecipeInput, type RecipeView } from '../../../schemas/recipes.js'
import { usagePeriod } from './plans.js'
import { boundedIngredients, boundedMinutes, boundedServings, cutText } from './recipe-fields.js'

declare module 'fastify' {
  interface FastifyInstance {
    aiRecipeService: ReturnType<typeof createAiRecipeService>
  }
}

/** How long an Idempotency-Key answers with its first generation. */
export const IDEMPOTENCY_KEY_SECONDS = 24 * 3600
/** Without a key, an identical body within this time is a double submit and gets the first generation. */
export const REPEAT_SECONDS = 60
/** Every generated recipe carries this tag. */
export const AI_TAG = 'ai-generated'
/** A pending generation older than this was abandoned (its process died): it no longer blocks identical requests. */
const STALE_SECONDS = 15 * 60

export interface Generated { recipe: RecipeView, generationId: string, created: boolean }

/** The recipe the model wrote, as recipe input: a draft, cut to the recipe bounds, tagged `ai-generated`. */
export function generatedToRecipe (generated: GeneratedRecipe, request: AiRequest): RecipeInput & { title: string } {
  const tags = [...new Set(generated.tags.map(tag => tag.slice(0, RECIPE_LIMITS.tagName).trim()).filter(tag => tag !== '' && tag !== AI_TAG))]
  return {
    title: cutText(generated.title, RECIPE_LIMITS.title) ?? 'AI recipe',
    description: cutText(generated.description, RECIPE_LIMITS.description),
    type: request.type ?? generated.type ?? 'food',
    difficulty: generated.difficulty ?? 'medium',
    published: false,
    cuisine: cutText(generated.cuisine ?? request.cuisine, 100),
    prepTime: boundedMinutes(generated.prepTime),
    cookTime: boundedMinutes(generated.cookTime),
    ...(generated.totalTime != null && { totalTime: boundedMinutes(generated.totalTime) }),
    servings: boundedServings(generated.servings ?? request.servings),
    ingredients: boundedIngredients(generated.ingredients),
    instructions: generated.instructions.slice(0, RECIPE_LIMITS.instructions).map((text, i) => ({ step: i + 1, text: text.slice(0, 5000) })),
    imageUrl: null,
    sourceUrl: null,
    tags: [...tags.slice(0, RECIPE_LIMITS.tags - 1), AI_TAG]
  }
}

/** The start of the month after `period` (YYYY-MM, UTC), when the allowance starts again. */
export function periodEnd (period: string): string {
  const [year, month] = period.split('-').map(Number)
  return new Date(Date.UTC(year, month, 1)).toISOString()
}

/** Refusals: the request was not allowed (or declined), as opposed to failing. */
const isRefusal = (err: unknown) => err instanceof AiRecipesDisabled || err instanceof AiProviderNotConfigured ||
  err instanceof RecipeLimitReached || err instanceof AiLimitReached || err instanceof IdempotencyKeyReused ||
  (err instanceof HttpError && err.code === 'AI_REQUEST_DECLINED')

/** The generation's failures as the API's errors (the envelope of decisions.md). */
function httpError (err: unknown, timeoutMs: number): unknown {
  if (err instanceof UnusableRecipe) return aiUnusableRecipe(err.details)
  if (err instanceof ModelRefusal) return aiRequestDeclined(err.reason)
  if (!(err instanceof AiProviderError)) return err
  switch (err.kind) {
    case 'timeout': return aiProviderTimeout(Math.ceil(timeoutMs / 1000))
    case 'aborted': return new RequestAbandoned()
    case 'rate-limited': return aiProviderBusy(err.retryAfter)
    default: return aiProviderFailed(err.message)
  }
}

/** What the log keeps of an error: the message clients see, with its details; internal errors stay in the server log. */
function logMessage (err: unknown): string {
  if (!(err instanceof HttpError)) return 'Internal error'
  const details = err.details != null && err.details.length > 0 ? `: ${err.details.join('; ')}` : ''
  return `${err.message}${details}`.slice(0, 1000)
}

export function createAiRecipeService (fastify: FastifyInstance) {
  const { db, aiGenerationsRepository: generations, planService: plans } = fastify
  const ai = fastify.config.ai
  /** Provider call bounds (AI_TIMEOUT_MS). */
  const limits = { timeoutMs: ai.timeoutMs, maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES }
  // Large replies are read off the event loop.
  const replies = createReplyReader()
  fastify.addHook('onClose', async () => { await replies.close() })

  /**
   * Reserves one generation of this month's allowance, exact under concurrency, held by the generation's row (so a
   * process that dies before giving it back leaves it to `releaseAbandoned`); returns the period it counts in.
   */
  async function reserve (userId: string, generationId: string): Promise<string> {
    const period = usagePeriod()
    await fastify.transaction(async tx => {
      const { limits: planLimits } = await plans.forUser(userId, tx)
      const used = await plans.spend(tx, userId, 'aiGenerations', period)
      const limit = planLimits.aiGenerations
      if (limit != null && used > limit) throw new AiLimitReached({ limit, used: used - 1 })
      await generations.holdAllowance(tx, generationId, period)
    })
    return period
  }

  /** Gives the held allowance back, once: the row's release and the count's decrement commit together. */
  async function refund (userId: string, period: string, generationId: string): Promise<void> {
    await fastify.transaction(async tx => {
      if (await generations.releaseAllowance(tx, generationId)) await plans.refund(tx, userId, 'aiGenerations', period)
    }).catch((err: unknown) => {
      fastify.log.error({ err, userId }, 'AI allowance not given back')
    })
  }

  /** Pending generations older than STALE_SECONDS (their process died) fail, and their held allowance comes back. */
  async function releaseAbandoned (scope?: { userId: string, requestKey: string }): Promise<number> {
    return await fastify.transaction(async tx => {
      const held = await generations.abandon(tx, STALE_SECONDS, scope)
      for (const { userId, allowancePeriod } of held) await plans.refund(tx, userId, 'aiGenerations', allowancePeriod)
      return held.length
    })
  }

  /**
   * The finished generation this request repeats, or null; 422 when an Idempotency-Key comes with another body than
   * its first use (a body key is the body's hash: nothing to compare).
   */
  async function repeatOf (userId: string, id: string, key: string, window: number, request: AiRequest, keyed: boolean): Promise<Generated | null> {
    const finished = await generations.finishedFor(db, userId, key, window, id)
    if (finished == null) return null
    if (keyed && canonicalJson(finished.request) !== canonicalJson(request)) throw new IdempotencyKeyReused()
    try {
      return { recipe: await fastify.recipeService.get(finished.recipeId, userId), generationId: finished.id, created: false }
    } catch (err) {
      // Deleted meanwhile: this request is a new generation.
      if (err instanceof RecipeNotFound) return null
      throw err
    }
  }

  async function recipeRoom (userId: string): Promise<void> {
    const [{ limits: planLimits }, count] = await Promise.all([plans.forUser(userId), fastify.recipesRepository.countByAuthor(db, userId)])
    if (planLimits.recipes != null && count >= planLimits.recipes) throw new RecipeLimitReached({ limit: planLimits.recipes, used: count })
  }

  async function finish (id: string, started: number, stats: GenerationStats, outcome: { status: 'success' | 'failed' | 'refused', error?: string, recipeId?: string }) {
    await generations.finish(db, id, {
      ...outcome,
      model: stats.model,
      promptTokens: stats.promptTokens,
      completionTokens: stats.completionTokens,
      totalTokens: stats.totalTokens,
      attempts: stats.attempts,
      latencyMs: Math.round(performance.now() - started)
    }).catch((err: unknown) => { fastify.log.error({ err, generationId: id }, 'AI generation log not written') })
  }

  return {
    /**
     * Generates a recipe for the caller (strict auth is the route's). `idempotencyKey` is the Idempotency-Key header;
     * `signal` aborts the provider call when the client goes away.
     */
    async generate (userId: string, input: GenerateInput, options: { idempotencyKey?: string, signal?: AbortSignal } = {}): Promise<Generated> {
      const { request, problems } = normalizeRequest(input)
      if (problems.length > 0) throw validationError(problems)
      // Generations a user may start per hour (refusals included), on top of the plan's monthly allowance.
      await fastify.rateLimits.perUser('ai-generate', userId, fastify.config.rateLimit.aiPerHour, 3600)

      const keyed = options.idempotencyKey != null
      const requestKey = keyed
        ? `key:${createHash('sha256').update(options.idempotencyKey!).digest('base64url')}`
        : `body:${requestHash(request)}`
      const window = keyed ? IDEMPOTENCY_KEY_SECONDS : REPEAT_SECONDS
      const entry = { userId, request: { ...request }, prompt: userPrompt(request), model: ai.model, requestKey }

      // The claim comes first: a second identical request waits for nothing and spends nothing (409).
      await releaseAbandoned({ userId, requestKey })
      const id = await generations.start(db, entry)
      if (id == null) {
        const err = new AiGenerationInProgress()
        await generations.refused(db, entry, err.message).catch((e: unknown) => { fastify.log.error({ err: e }, 'AI generation log not written') })
        throw err
      }

      const started = performance.now()
      const stats = newStats(ai.model)
      let reserved: string | null = null
      try {
        if (!(await plans.isEnabled('ai-recipes', userId))) throw new AiRecipesDisabled()
        const repeat = await repeatOf(userId, id, requestKey, window, request, keyed)
        if (repeat != null) {
          await generations.discard(db, id)
          return repeat
        }
        if (ai.baseUrl == null) throw new AiProviderNotConfigured()
        await recipeRoom(userId)
        reserved = await reserve(userId, id)

        const chat = createChatClient({ baseUrl: ai.baseUrl, apiKey: ai.apiKey, model: ai.model, ...limits })
        let generated: GeneratedRecipe
        try {
          generated = await generateRecipe(chat, request, { signal: options.signal, stats, read: replies.read })
        } catch (err) {
          throw httpError(err, limits.timeoutMs)
        }
        // The key is a second guard: the recipe a request with this key already made is returned, not copied.
        const { recipe, created } = await fastify.recipeService.createOnce({ id: userId }, generatedToRecipe(generated, request), {
          key: `ai:${requestKey}`,
          withinSeconds: window
        })
        if (!created) {
          await refund(userId, reserved, id)
          reserved = null
        }
        await finish(id, started, stats, { status: 'success', recipeId: recipe.id })
        return { recipe, generationId: id, created }
      } catch (err) {
        if (!(err instanceof HttpError)) fastify.log.error({ err, generationId: id }, 'AI generation failed')
        // Also when the client has gone (the abort is why we are here): the refund and the record must not be dropped.
        const spent = reserved
        await detached(async () => {
          if (spent != null) await refund(userId, spent, id)
          await finish(id, started, stats, { status: isRefusal(err) ? 'refused' : 'failed', error: logMessage(err) })
        })
        throw err
      }
    },

    releaseAbandoned,

    /** This month's generations against the plan's limit, and when the count starts again. */
    async usage (userId: string) {
      const period = usagePeriod()
      const [{ limits: planLimits }, used] = await Promise.all([plans.forUser(userId), fastify.plansRepository.usage(db, userId, period)])
      return { period, used: used.aiGenerations, limit: planLimits.aiGenerations, resetsAt: periodEnd(period) }
    },

    async history (userId: string, page: number, limit: number) {
      return await generations.page(db, userId, page, limit)
    }
  }
}

/** Every few minutes: generations abandoned by a process that died give their allowance back. */
export const RELEASE_ABANDONED_JOB = 'ai.release-abandoned'

export default fp(async fastify => {
  const service = createAiRecipeService(fastify)
  fastify.decorate('aiRecipeService', service)
  await fastify.queue.work(RELEASE_ABANDONED_JOB, async () => { await service.releaseAbandoned() })
  await fastify.queue.schedule(RELEASE_ABANDONED_JOB, '*/5 * * * *')
}, {
  name: 'ai-recipe-service',
  dependencies: ['ai-generations-repository', 'plan-service', 'plans-repository', 'recipe-service', 'recipes-repository', 'rate-limit', 'queue', 'db']
})
