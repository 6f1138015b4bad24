// AI recipe generation (decisions.md "AI"): the generation request, its answers, the monthly usage and the history of
// the caller's generations. Failures use the import/AI envelope (EnvelopeError).
import { Type, type Static } from 'typebox'
import { AI_GENERATION_STATUSES, RECIPE_TYPES } from '../db/schema/recipes.js'
import { DateTime, Id, Nullable, Pagination, PaginationQuery, ref, StringEnum } from './common.js'
import { Recipe } from './recipes.js'

export const AI_LIMITS = {
  prompt: 2000,
  ingredients: 30,
  ingredient: 100,
  cuisine: 100,
  dietaryItems: 10,
  dietaryItem: 50,
  /** `dietary` given as one comma-separated string. */
  dietaryText: 500,
  servings: 100,
  idempotencyKey: 200
} as const

const Dietary = Type.Union([
  Type.Array(Type.String({ minLength: 1, maxLength: AI_LIMITS.dietaryItem }), { maxItems: AI_LIMITS.dietaryItems }),
  Type.String({ maxLength: AI_LIMITS.dietaryText })
], {
  description: `Requirements the recipe must respect (e.g. ["vegan", "gluten-free"]): at most ${AI_LIMITS.dietaryItems} of at most ` +
    `${AI_LIMITS.dietaryItem} characters, or one comma-separated string`
})

export const GenerateBody = Type.Object({
  prompt: Type.Optional(Type.String({ maxLength: AI_LIMITS.prompt, description: 'What to make, in your words' })),
  ingredients: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: AI_LIMITS.ingredient }), {
    maxItems: AI_LIMITS.ingredients,
    description: 'Ingredients to use: the recipe must use at least 60% of them (checked; the model is asked again once otherwise)'
  })),
  cuisine: Type.Optional(Type.String({ maxLength: AI_LIMITS.cuisine })),
  type: Type.Optional(StringEnum(RECIPE_TYPES)),
  dietary: Type.Optional(Dietary),
  servings: Type.Optional(Type.Integer({ minimum: 1, maximum: AI_LIMITS.servings }))
}, { description: 'At least one of `prompt` and `ingredients` (400 otherwise)' })
export type GenerateInput = Static<typeof GenerateBody>

export const GenerateHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({
    minLength: 1,
    maxLength: AI_LIMITS.idempotencyKey,
    description: 'Makes retries safe for 24 hours: the same key with the same body answers 200 with the first generation ' +
      '(nothing spent again); with another body 422. Without it, an identical body within 60 seconds counts as a double submit.'
  }))
})

export const GeneratedResponse = Type.Object({
  success: Type.Literal(true),
  recipe: ref(Recipe),
  generationId: Id
}, { description: 'The generated recipe, saved as your draft (unpublished, tagged `ai-generated`), and the generation\'s id' })

export const AiUsageResponse = Type.Object({
  success: Type.Literal(true),
  period: Type.String({ description: 'The month counted, YYYY-MM (UTC)' }),
  used: Type.Integer({ minimum: 0, description: 'Generations counted this month (one in progress counts; a failed one is given back)' }),
  limit: Nullable(Type.Integer({ minimum: 0 }), { description: 'Your plan\'s monthly generations; null: unlimited' }),
  resetsAt: DateTime
}, { description: 'Your AI generations this month' })

/** The request as stored: trimmed, blanks and duplicates dropped, `dietary` as a list. */
export const AiGenerationRequest = Type.Object({
  prompt: Type.Optional(Type.String()),
  ingredients: Type.Optional(Type.Array(Type.String())),
  cuisine: Type.Optional(Type.String()),
  type: Type.Optional(StringEnum(RECIPE_TYPES)),
  dietary: Type.Optional(Type.Array(Type.String())),
  servings: Type.Optional(Type.Integer())
})
export type AiGenerationRequestView = Static<typeof AiGenerationRequest>

const Tokens = Nullable(Type.Integer({ minimum: 0 }))

export const AiGeneration = Type.Object({
  id: Id,
  status: StringEnum(AI_GENERATION_STATUSES, { description: 'pending (in progress), success, failed (the provider or its reply failed), refused (not allowed, or declined)' }),
  prompt: Nullable(Type.String({ description: 'The instructions sent to the model, built from the request' })),
  request: AiGenerationRequest,
  model: Nullable(Type.String()),
  tokens: Type.Object({ prompt: Tokens, completion: Tokens, total: Tokens }, { description: 'As the provider counted them, over every attempt; null when not reported' }),
  attempts: Type.Integer({ minimum: 0, description: 'Calls to the provider (a repair or grounding retry adds one)' }),
  latencyMs: Nullable(Type.Integer({ minimum: 0 })),
  recipeId: Nullable(Id, { description: 'The recipe made; null when none was, or it was deleted since' }),
  error: Nullable(Type.String({ description: 'Why it failed or was refused' })),
  createdAt: DateTime,
  finishedAt: Nullable(DateTime)
}, { $id: 'AiGeneration', description: 'One AI generation request and what came of it' })
export type AiGenerationView = Static<typeof AiGeneration>

export const AiHistoryQuery = PaginationQuery

export const AiHistoryResponse = Type.Object({
  success: Type.Literal(true),
  generations: Type.Array(ref(AiGeneration)),
  pagination: ref(Pagination)
}, { description: 'A page of your generations, newest first' })
