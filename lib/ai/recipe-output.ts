// What the model must send back: one JSON object (AiRecipeOutput), read tolerantly (code fences, prose around the
// object, a `{ "recipe": {...} }` wrapper), checked with TypeBox's compiled validator, cleaned (sanitizer, no NUL or
// lone surrogates) and normalised into a GeneratedRecipe whose ingredient lines went through the ingredient parser.
// The grounding check then asks whether the recipe uses the ingredients the user asked for.
//
// A reply is outside text of up to 1 MB: its object is found in one pass over it, and its lists and strings are cut
// (READ_LIMITS) before any item is looked at, so no reply costs more to read than a recipe at the bounds does.
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

/** A recipe as the model wrote it, cleaned and normalised; lists within their bounds, strings not yet cut to theirs. */
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

/**
 * How much of a reply is read, from the recipe bounds (RECIPE_LIMITS, which a test holds these equal to, and the
 * service's cuts). Lists are read up to twice their bound and strings up to twice theirs (group headers, blank
 * steps, repeated tags, markup and spaces fall out on the way); the service cuts what is left to the bounds.
 */
export const READ_LIMITS = {
  title: 200,
  description: 5000,
  cuisine: 100,
  ingredients: 200,
  instructions: 200,
  tags: 20,
  tagName: 50,
  /** An ingredient line, its note, a step: the service keeps 500, 500 and 5000 characters. */
  line: 500,
  name: 200,
  unit: 50,
  note: 500,
  step: 5000,
  /** A number or a duration written as text ("1 hour 30 minutes"), a type or a difficulty. */
  word: 100,
  refusal: 500
} as const

/** `value` up to twice `max` characters (what cleaning removes may leave `max` of them). */
const head = (value: string, max: number) => value.length > 2 * max ? value.slice(0, 2 * max) : value

const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const QUOTE = 0x22
const BACKSLASH = 0x5c

/** Objects tried as JSON, at most: a reply is one object, perhaps after a few stray braces in prose. */
const MAX_CANDIDATES = 16

/**
 * The first `max` closed `{...}` spans of `text` in the order they open (an outer object before those inside it),
 * found in one pass: braces count outside JSON strings (escapes respected), quotes outside every brace are prose,
 * and a brace that never closes is passed over. Each span is [start, end).
 */
export function objectSpans (text: string, max = MAX_CANDIDATES): Array<[number, number]> {
  const open: number[] = []
  const spans: Array<[number, number]> = []
  let inString = false
  for (let i = text.indexOf('{'); i !== -1 && i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === BACKSLASH) i++
      else if (c === QUOTE) inString = false
    } else if (c === OPEN_BRACE) {
      open.push(i)
    } else if (c === CLOSE_BRACE) {
      const start = open.pop()
      if (start === undefined) continue
      // Kept in order of start and at most `max` long, so placing one costs at most `max` steps.
      if (spans.length === max && start > spans[max - 1][0]) continue
      let at = spans.length
      while (at > 0 && spans[at - 1][0] > start) at--
      spans.splice(at, 0, [start, i + 1])
      if (spans.length > max) spans.pop()
    } else if (c === QUOTE && open.length > 0) {
      inString = true
    }
  }
  return spans
}

const isAsciiLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)

/** The first `max` ``` fenced blocks of `text` that hold an object, trimmed (a language word after the fence is not part of it). */
function fencedObjects (text: string, max = MAX_CANDIDATES): string[] {
  const blocks: string[] = []
  for (let fence = text.indexOf('```'); fence !== -1 && blocks.length < max;) {
    let from = fence + 3
    while (from < text.length && isAsciiLetter(text.charCodeAt(from))) from++
    const close = text.indexOf('```', from)
    if (close === -1) break
    const block = text.slice(from, close).trim()
    if (block.startsWith('{')) blocks.push(block)
    fence = text.indexOf('```', close + 3)
  }
  return blocks
}

/** The object `text` is, else undefined (not JSON, not an object, or nested deeper than the parser goes). */
const parseObject = (text: string): Record<string, unknown> | undefined => {
  try {
    const parsed: unknown = JSON.parse(text)
    return isObject(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
}

/**
 * The JSON object in a model's reply: the whole reply, else a fenced block, else the first balanced object in the
 * text (prose before or after it, an outer object that is not JSON). Undefined when there is none. Work linear in
 * the reply's length: one scan, and at most twice the reply parsed among the objects it finds.
 */
export function extractJson (content: string): Record<string, unknown> | undefined {
  const whole = content.trim()
  const candidates = whole.startsWith('{') ? [whole] : []
  for (const text of [...candidates, ...fencedObjects(content)]) {
    const parsed = parseObject(text)
    if (parsed != null) return parsed
  }
  let budget = 2 * content.length
  for (const [start, end] of objectSpans(content)) {
    budget -= end - start
    if (budget < 0) break
    const parsed = parseObject(content.slice(start, end))
    if (parsed != null) return parsed
  }
  return undefined
}

/** Text safe to store: no NUL, no lone surrogate, no markup the body sanitizer would remove, trimmed. */
export function cleanText (value: string): string {
  return sanitizeString(value.replaceAll('\u0000', '').toWellFormed()).trim()
}

/** cleanText of at most twice `max` characters of `value`. */
const clean = (value: string, max: number) => cleanText(head(value, max))
const cleanOrNull = (value: string | null | undefined, max: number) => {
  if (value == null) return null
  const text = clean(value, max)
  return text === '' ? null : text
}

/** Minutes from a number or text: 45, "45", "45 minutes", "1 hour 30 min", "1h30", "PT1H30M". Null when unreadable. */
export function toMinutes (value: number | string | null | undefined): number | null {
  if (value == null) return null
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(value) : null
  const text = head(value, READ_LIMITS.word).trim().toLowerCase()
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
  const n = typeof value === 'number' ? value : Number(/\d+(\.\d+)?/.exec(head(value, READ_LIMITS.word))?.[0])
  return Number.isFinite(n) && n >= 1 ? Math.round(n) : null
}

/** A quantity from a number or text ("1/2", "1 1/2", "½"), through the ingredient parser. */
function toQuantity (value: number | string | null | undefined): number | null {
  if (value == null) return null
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : null
  const [parsed] = normalizeIngredients([`${head(value, READ_LIMITS.word)} x`])
  return parsed?.quantity != null && parsed.quantity >= 0 ? parsed.quantity : null
}

function oneOf<const T extends readonly string[]> (values: T, value: string | null | undefined): T[number] | null {
  const v = value == null ? null : head(value, READ_LIMITS.word).trim().toLowerCase()
  return v != null && (values as readonly string[]).includes(v) ? v : null
}

/** The lists of a reply's object cut to twice their bounds, before anything looks at their items. */
function withBoundedLists (value: Record<string, unknown>): Record<string, unknown> {
  const bounded = { ...value }
  for (const key of ['ingredients', 'instructions', 'tags'] as const) {
    const list = bounded[key]
    if (Array.isArray(list) && list.length > 2 * READ_LIMITS[key]) bounded[key] = list.slice(0, 2 * READ_LIMITS[key])
  }
  return bounded
}

/** Cleaned and normalised; ingredients and steps at most their bounds, so grounding looks at what is kept. */
function normalize (output: AiRecipeOutputValue): GeneratedRecipe {
  const L = READ_LIMITS
  const lines: unknown[] = output.ingredients.map(item => {
    if (typeof item === 'string') return clean(item, L.line)
    return {
      name: cleanOrNull(item.name, L.name) ?? '',
      quantity: toQuantity(item.quantity),
      unit: cleanOrNull(item.unit, L.unit),
      note: cleanOrNull(item.note, L.note),
      text: cleanOrNull(item.text, L.line) ?? undefined
    }
  })
  return {
    title: clean(output.title, L.title),
    description: cleanOrNull(output.description, L.description),
    type: oneOf(['food', 'drink'] as const, output.type),
    difficulty: oneOf(['easy', 'medium', 'hard'] as const, output.difficulty),
    cuisine: cleanOrNull(output.cuisine, L.cuisine),
    servings: toServings(output.servings),
    prepTime: toMinutes(output.prepTime),
    cookTime: toMinutes(output.cookTime),
    totalTime: toMinutes(output.totalTime),
    ingredients: normalizeIngredients(lines).slice(0, L.ingredients),
    instructions: output.instructions.map(step => clean(typeof step === 'string' ? step : step.text, L.step))
      .filter(step => step !== '').slice(0, L.instructions),
    tags: (output.tags ?? []).map(tag => clean(tag, L.tagName).toLowerCase()).filter(tag => tag !== '')
  }
}

/**
 * Reads a model's reply: a recipe, a refusal (`{ "refusal": "..." }` with no recipe), or the problems to send back
 * in a repair request.
 */
export function readRecipe (content: string | null): ReadResult {
  if (content == null || content.trim() === '') return { ok: false, problems: ['reply: is empty'] }
  const found = extractJson(content)
  if (found == null) return { ok: false, problems: ['reply: is not a JSON object'] }
  return readObject(found)
}

function readObject (found: Record<string, unknown>): ReadResult {
  const unwrapped = !('title' in found) && isObject(found.recipe) ? found.recipe : found
  if (!('title' in unwrapped) && typeof unwrapped.refusal === 'string' && unwrapped.refusal.trim() !== '') {
    return { ok: false, refusal: clean(unwrapped.refusal, READ_LIMITS.refusal).slice(0, READ_LIMITS.refusal) }
  }
  const value = withBoundedLists(unwrapped)
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
