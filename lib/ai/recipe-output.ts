// What the model must send back: one JSON object (AiRecipeOutput), read tolerantly (code fences, prose around the
// object, a `{ "recipe": {...} }` wrapper), checked with TypeBox's compiled validator, cleaned (sanitizer, no NUL or
// lone surrogates) and normalised into a GeneratedRecipe whose ingredient lines went through the ingredient parser.
// The grounding check then asks whether the recipe uses the ingredients the user asked for.
// Bounds for storage (RECIPE_LIMITS) are applied where the recipe is created (services/ai-recipes.ts): lib/ may not
// import schemas/.
import { Type, type Static } from 'typebox'
import { Compile } from 'typebox/compile'
import { validationDetails } from '../error-body.js'
import { normalizeIngredients, type Ingredient } from '../ingredients.js'
// The folding nutrition matches names with (case, accents, punctuation, asides, plurals with their exceptions).
import { words } from '../nutrition/text.js'
import { sanitizeString } from '../sanitize.js'

const Text = Type.String()
const MaybeText = Type.Optional(Type.Union([Type.String(), Type.Null()]))
/** Numbers may come as text ("1/2", "30 minutes", "PT1H"): they are read, not refused. */
const NumberLike = Type.Optional(Type.Union([Type.Number(), Type.String(), Type.Null()]))

export const AiIngredientOutput = Type.Union([
  Type.String({ minLength: 1 }),
  Type.Object({
    name: Type.Optional(Text),
    quantity: NumberLike,
    unit: MaybeText,
    note: MaybeText,
    text: MaybeText
  })
], { description: 'A line such as "200 g spaghetti", or { name, quantity, unit, note }' })

export const AiInstructionOutput = Type.Union([
  Type.String({ minLength: 1 }),
  Type.Object({ text: Type.String({ minLength: 1 }) })
], { description: 'One step: a string, or { text }' })

/** The JSON object the system prompt asks for. Unknown keys are ignored. */
export const AiRecipeOutput = Type.Object({
  title: Type.String({ minLength: 1 }),
  description: MaybeText,
  type: MaybeText,
  cuisine: MaybeText,
  difficulty: MaybeText,
  servings: NumberLike,
  prepTime: NumberLike,
  cookTime: NumberLike,
  totalTime: NumberLike,
  ingredients: Type.Array(AiIngredientOutput, { minItems: 1 }),
  instructions: Type.Array(AiInstructionOutput, { minItems: 1 }),
  tags: Type.Optional(Type.Array(Type.String()))
})
export type AiRecipeOutputValue = Static<typeof AiRecipeOutput>

const checker = Compile(AiRecipeOutput)

/** A recipe as the model wrote it, cleaned and normalised (not yet cut to storage bounds). */
export interface GeneratedRecipe {
  title: string
  description: string | null
  type: 'food' | 'drink' | null
  difficulty: 'easy' | 'medium' | 'hard' | null
  cuisine: string | null
  servings: number | null
  prepTime: number | null
  cookTime: number | null
  totalTime: number | null
  ingredients: Ingredient[]
  instructions: string[]
  tags: string[]
}

export type ReadResult =
  | { ok: true, recipe: GeneratedRecipe }
  | { ok: false, refusal: string }
  | { ok: false, problems: string[] }

const isObject = (value: unknown): value is Record<string, unknown> => value != null && typeof value === 'object' && !Array.isArray(value)

/** The first balanced `{...}` starting at `from`, strings and escapes respected; null when it never closes. */
function balancedObject (text: string, from: number): string | null {
  let depth = 0
  let inString = false
  for (let i = from; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') {
      inString = true
    } else if (c === '{') {
      depth++
    } else if (c === '}') {
      depth--
      if (depth === 0) return text.slice(from, i + 1)
    }
  }
  return null
}

const tryParse = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * The JSON object in a model's reply: the whole reply, else a fenced block, else the first balanced object in the
 * text (prose before or after it). Undefined when there is none.
 */
export function extractJson (content: string): Record<string, unknown> | undefined {
  const candidates = [content.trim()]
  for (const fence of content.matchAll(/```[a-zA-Z]*\s*\n?([\s\S]*?)```/g)) candidates.push(fence[1].trim())
  for (const candidate of candidates) {
    const parsed = tryParse(candidate)
    if (isObject(parsed)) return parsed
  }
  for (let start = content.indexOf('{'); start !== -1; start = content.indexOf('{', start + 1)) {
    const object = balancedObject(content, start)
    if (object == null) break
    const parsed = tryParse(object)
    if (isObject(parsed)) return parsed
  }
  return undefined
}

/** Text safe to store: no NUL, no lone surrogate, no markup the body sanitizer would remove, trimmed. */
export function cleanText (value: string): string {
  return sanitizeString(value.replaceAll('\u0000', '').toWellFormed()).trim()
}
const cleanOrNull = (value: string | null | undefined) => {
  if (value == null) return null
  const text = cleanText(value)
  return text === '' ? null : text
}

/** Minutes from a number or text: 45, "45", "45 minutes", "1 hour 30 min", "1h30", "PT1H30M". Null when unreadable. */
export function toMinutes (value: number | string | null | undefined): number | null {
  if (value == null) return null
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(value) : null
  const text = value.trim().toLowerCase()
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text))
  const iso = /^p(?:(\d+)d)?t?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text)
  if (iso != null && text !== 'p' && text !== 'pt') {
    const [, d, h, m] = iso.map(part => Number(part ?? 0))
    return d * 1440 + h * 60 + m
  }
  const hours = /(\d+(?:\.\d+)?)\s*(?:h|hr|hrs|hour|hours)\b/.exec(text) ?? /(\d+(?:\.\d+)?)\s*h(?=\d)/.exec(text)
  const minutes = /(\d+)\s*(?:m|min|mins|minute|minutes)\b/.exec(text) ?? /h(\d+)$/.exec(text)
  if (hours == null && minutes == null) return null
  return Math.round(Number(hours?.[1] ?? 0) * 60 + Number(minutes?.[1] ?? 0))
}

/** A positive whole number from a number or text ("4", "serves 4", "4-6 people": 4). */
function toServings (value: number | string | null | undefined): number | null {
  if (value == null) return null
  const n = typeof value === 'number' ? value : Number(/\d+(\.\d+)?/.exec(value)?.[0])
  return Number.isFinite(n) && n >= 1 ? Math.round(n) : null
}

/** A quantity from a number or text ("1/2", "1 1/2", "½"), through the ingredient parser. */
function toQuantity (value: number | string | null | undefined): number | null {
  if (value == null) return null
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : null
  const [parsed] = normalizeIngredients([`${value} x`])
  return parsed?.quantity != null && parsed.quantity >= 0 ? parsed.quantity : null
}

function oneOf<const T extends readonly string[]> (values: T, value: string | null | undefined): T[number] | null {
  const v = value?.trim().toLowerCase()
  return v != null && (values as readonly string[]).includes(v) ? v : null
}

function normalize (output: AiRecipeOutputValue): GeneratedRecipe {
  const lines: unknown[] = output.ingredients.map(item => {
    if (typeof item === 'string') return cleanText(item)
    return {
      name: cleanOrNull(item.name) ?? '',
      quantity: toQuantity(item.quantity),
      unit: cleanOrNull(item.unit),
      note: cleanOrNull(item.note),
      text: cleanOrNull(item.text) ?? undefined
    }
  })
  return {
    title: cleanText(output.title),
    description: cleanOrNull(output.description),
    type: oneOf(['food', 'drink'] as const, output.type),
    difficulty: oneOf(['easy', 'medium', 'hard'] as const, output.difficulty),
    cuisine: cleanOrNull(output.cuisine),
    servings: toServings(output.servings),
    prepTime: toMinutes(output.prepTime),
    cookTime: toMinutes(output.cookTime),
    totalTime: toMinutes(output.totalTime),
    ingredients: normalizeIngredients(lines),
    instructions: output.instructions.map(step => cleanText(typeof step === 'string' ? step : step.text)).filter(step => step !== ''),
    tags: (output.tags ?? []).map(tag => cleanText(tag).toLowerCase()).filter(tag => tag !== '')
  }
}

/**
 * Reads a model's reply: a recipe, a refusal (`{ "refusal": "..." }` with no recipe), or the problems to send back
 * in a repair request.
 */
export function readRecipe (content: string | null): ReadResult {
  if (content == null || content.trim() === '') return { ok: false, problems: ['reply: is empty'] }
  let value = extractJson(content)
  if (value == null) return { ok: false, problems: ['reply: is not a JSON object'] }
  if (!('title' in value) && isObject(value.recipe)) value = value.recipe
  if (!('title' in value) && typeof value.refusal === 'string' && value.refusal.trim() !== '') {
    return { ok: false, refusal: cleanText(value.refusal).slice(0, 500) }
  }
  if (!checker.Check(value)) {
    return { ok: false, problems: validationDetails(checker.Errors(value), 'reply').slice(0, 10) }
  }
  const recipe = normalize(value)
  const problems: string[] = []
  if (recipe.title === '') problems.push('title: must not be blank')
  if (recipe.ingredients.length === 0) problems.push('ingredients: must list at least one ingredient')
  if (recipe.instructions.length === 0) problems.push('instructions: must have at least one step')
  return problems.length > 0 ? { ok: false, problems } : { ok: true, recipe }
}

// ---- Grounding ----

/** Share of the requested ingredients a recipe must use (rounded up: 3 of 4, 2 of 3, 1 of 1). */
export const GROUNDING_SHARE = 0.6

/** Whether `phrase` (words) occurs as whole consecutive words in `text` (words). */
function containsPhrase (text: string[], phrase: string[]): boolean {
  if (phrase.length === 0) return false
  for (let i = 0; i + phrase.length <= text.length; i++) {
    if (phrase.every((word, j) => text[i + j] === word)) return true
  }
  return false
}

export interface Grounding {
  ok: boolean
  /** Requested ingredients found in the recipe's ingredient names. */
  used: string[]
  missing: string[]
  required: number
}

/**
 * Whether the recipe uses enough of the requested ingredients: each counts as used when its words appear, whole and
 * in order, in one ingredient's name (singular and plural alike, case and accents ignored). Nothing requested: ok.
 */
export function checkGrounding (requested: string[], recipe: Pick<GeneratedRecipe, 'ingredients'>): Grounding {
  if (requested.length === 0) return { ok: true, used: [], missing: [], required: 0 }
  const names = recipe.ingredients.map(line => words(line.name))
  const used: string[] = []
  const missing: string[] = []
  for (const item of requested) {
    const phrase = words(item)
    if (names.some(name => containsPhrase(name, phrase))) used.push(item)
    else missing.push(item)
  }
  const required = Math.ceil(requested.length * GROUNDING_SHARE)
  return { ok: used.length >= required, used, missing, required }
}
