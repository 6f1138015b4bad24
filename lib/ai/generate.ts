// One generation: the request to the model, then at most one repair retry (the reply was not a valid recipe: the
// problems go back to the model) and at most one grounding retry (the recipe left out too many of the requested
// ingredients). Provider failures (AiProviderError) are never retried here. `stats` is filled as calls are made, so
// the caller can log attempts and tokens whatever the outcome.
import { groundingPrompt, repairPrompt, SYSTEM_PROMPT, userPrompt, type AiRequest } from './prompts.js'
import type { ChatClient, ChatMessage } from './provider.js'
import { checkGrounding, readRecipe, type GeneratedRecipe, type ReadResult } from './recipe-output.js'

export interface GenerationStats {
  /** Provider calls made. */
  attempts: number
  promptTokens: number | null
  completionTokens: number | null
  totalTokens: number | null
  /** The model that answered last (as the provider names it), else the one asked for. */
  model: string
}

export const newStats = (model: string): GenerationStats =>
  ({ attempts: 0, promptTokens: null, completionTokens: null, totalTokens: null, model })

/** The model's replies could not be used, after the retries: `details` says why, attempt by attempt. */
export class UnusableRecipe extends Error {
  override name = 'UnusableRecipe'
  constructor (readonly details: string[]) {
    super('unusable recipe')
  }
}

/** The model declined the request (`refusal`). */
export class ModelRefusal extends Error {
  override name = 'ModelRefusal'
  constructor (readonly reason: string) {
    super('the model declined')
  }
}

/** A reply is sent back to the model at most this long (a repair needs the gist, not every byte). */
const MAX_ECHO = 20_000

export interface GenerationOptions {
  signal?: AbortSignal
  stats: GenerationStats
  /** Reads a reply (readRecipe by default; the service reads large ones off the event loop: reply-reader.ts). */
  read?: (content: string | null) => ReadResult | Promise<ReadResult>
}

export async function generateRecipe (chat: ChatClient, request: AiRequest, options: GenerationOptions): Promise<GeneratedRecipe> {
  const messages: ChatMessage[] = [{ role: 'system', content: SYSTEM_PROMPT }, { role: 'user', content: userPrompt(request) }]
  const requested = (request.ingredients ?? []).length
  return await converse(chat, messages, options, recipe => {
    const grounding = checkGrounding(request.ingredients ?? [], recipe)
    if (grounding.ok) return { ok: true }
    return {
      ok: false,
      detail: `ingredients: uses ${grounding.used.length} of the ${requested} requested (at least ${grounding.required} needed); ` +
        `missing: ${grounding.missing.join(', ')}`,
      prompt: groundingPrompt(grounding.missing, grounding.required, requested)
    }
  })
}

/** What a grounding check says of a readable recipe: fine, or what is wrong and what to tell the model. */
export type Grounding = { ok: true } | { ok: false, detail: string, prompt: string }

/**
 * The exchange every use of the model holds (generation, the video import): ask, read the reply, send its problems
 * back once (repair), check the recipe against what it must rest on (`ground`) and send that back once; then the
 * recipe, or UnusableRecipe with every attempt's problems. A refusal ends it at once (ModelRefusal).
 */
export async function converse (chat: ChatClient, messages: ChatMessage[], options: GenerationOptions,
  ground: (recipe: GeneratedRecipe) => Grounding): Promise<GeneratedRecipe> {
  const { stats, read: readReply = readRecipe } = options
  const details: string[] = []
  let repairs = 1
  let groundings = 1
  for (;;) {
    stats.attempts++
    const completion = await chat.complete(messages, { signal: options.signal })
    if (completion.usage != null) {
      stats.promptTokens = (stats.promptTokens ?? 0) + completion.usage.promptTokens
      stats.completionTokens = (stats.completionTokens ?? 0) + completion.usage.completionTokens
      stats.totalTokens = (stats.totalTokens ?? 0) + completion.usage.totalTokens
    }
    if (completion.model != null) stats.model = completion.model.slice(0, 200)
    if (completion.refusal != null) throw new ModelRefusal(completion.refusal.slice(0, 500))

    const read = await readReply(completion.content)
    const reply: ChatMessage = { role: 'assistant', content: (completion.content ?? '').slice(0, MAX_ECHO) }
    if (!read.ok && 'refusal' in read) throw new ModelRefusal(read.refusal)
    if (!read.ok) {
      const truncated = completion.finishReason === 'length' ? ['reply: was cut off at the output token limit'] : []
      details.push(...[...truncated, ...read.problems].map(p => `attempt ${stats.attempts}: ${p}`))
      if (repairs-- > 0) {
        messages.push(reply, { role: 'user', content: repairPrompt(read.problems) })
        continue
      }
      throw new UnusableRecipe(details.slice(0, 20))
    }
    const grounding = ground(read.recipe)
    if (!grounding.ok) {
      details.push(`attempt ${stats.attempts}: ${grounding.detail}`)
      if (groundings-- > 0) {
        messages.push(reply, { role: 'user', content: grounding.prompt })
        continue
      }
      throw new UnusableRecipe(details.slice(0, 20))
    }
    return read.recipe
  }
}
