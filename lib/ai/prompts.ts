// The generation request, normalised (its hash is the double-submit key), and the messages sent to the model: a
// system prompt that spells out the JSON shape, the user's request, and the repair and grounding follow-ups.
import { createHash } from 'node:crypto'

/** A generation request as the route validated it (bounds in schemas/ai-recipes.ts). */
export interface AiRequestInput {
  prompt?: string
  ingredients?: string[]
  cuisine?: string
  type?: 'food' | 'drink'
  dietary?: string[] | string
  servings?: number
}

/** The request as stored (ai_generations.request) and hashed: trimmed, blanks dropped, lists de-duplicated. */
export interface AiRequest {
  prompt?: string
  ingredients?: string[]
  cuisine?: string
  type?: 'food' | 'drink'
  dietary?: string[]
  servings?: number
}

export const DIETARY_LIMITS = { items: 10, length: 50 } as const

const squash = (text: string) => text.replace(/\s+/g, ' ').trim()

/** Items trimmed, blanks dropped, duplicates (case-insensitive) dropped, order kept. */
function list (items: string[]): string[] {
  const seen = new Set<string>()
  const out: string[] = []
  for (const item of items) {
    const value = squash(item)
    const key = value.toLowerCase()
    if (value === '' || seen.has(key)) continue
    seen.add(key)
    out.push(value)
  }
  return out
}

/**
 * The normalised request, or the problems that make it invalid (in the `field: problem` form of a 400). `dietary` may
 * be a list or one comma-separated string.
 */
export function normalizeRequest (input: AiRequestInput): { request: AiRequest, problems: string[] } {
  const problems: string[] = []
  const request: AiRequest = {}
  const prompt = input.prompt == null ? '' : input.prompt.trim()
  if (prompt !== '') request.prompt = prompt
  const ingredients = list(input.ingredients ?? [])
  if (ingredients.length > 0) request.ingredients = ingredients
  const cuisine = input.cuisine == null ? '' : squash(input.cuisine)
  if (cuisine !== '') request.cuisine = cuisine
  if (input.type != null) request.type = input.type
  const dietary = list(typeof input.dietary === 'string' ? input.dietary.split(',') : (input.dietary ?? []))
  if (dietary.length > DIETARY_LIMITS.items) problems.push(`dietary: at most ${DIETARY_LIMITS.items} items`)
  if (dietary.some(item => item.length > DIETARY_LIMITS.length)) problems.push(`dietary: each item at most ${DIETARY_LIMITS.length} characters`)
  if (dietary.length > 0) request.dietary = dietary
  if (input.servings != null) request.servings = input.servings
  if (request.prompt == null && request.ingredients == null) problems.push('body: prompt or ingredients is required')
  return { request, problems }
}

/** JSON with keys sorted at every level: equal requests give equal text whatever order their keys came in. */
export function canonicalJson (value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value != null && typeof value === 'object') {
    return `{${Object.keys(value).sort().map(key => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/**
 * The double-submit key of a request: the same request in another letter case or ingredient order is the same
 * request (prompt case is kept: it may matter to the model).
 */
export function requestHash (request: AiRequest): string {
  const folded = {
    ...request,
    ...(request.ingredients != null && { ingredients: request.ingredients.map(i => i.toLowerCase()).sort() }),
    ...(request.dietary != null && { dietary: request.dietary.map(d => d.toLowerCase()).sort() }),
    ...(request.cuisine != null && { cuisine: request.cuisine.toLowerCase() })
  }
  return createHash('sha256').update(canonicalJson(folded)).digest('base64url')
}

export const SYSTEM_PROMPT = `You are the recipe writer of a cooking app. Write one original, practical, safe recipe for the request you are given.

Reply with ONE JSON object and nothing else: no prose, no Markdown, no code fences. The object has these keys:
{
  "title": string, at most 200 characters,
  "description": string, one or two sentences,
  "type": "food" or "drink",
  "cuisine": string or null,
  "difficulty": "easy", "medium" or "hard",
  "servings": integer (how many people it serves),
  "prepTime": integer (minutes of preparation),
  "cookTime": integer (minutes of cooking; 0 when nothing is cooked),
  "ingredients": [
    { "name": string (the ingredient alone, e.g. "spaghetti", "olive oil"), "quantity": number or null (0.5, never "1/2"), "unit": string or null (e.g. "g", "ml", "tbsp", "cup"), "note": string or null (e.g. "finely chopped") }
  ],
  "instructions": [ string (one step, in order) ],
  "tags": [ string ] (at most 5 short lower-case tags, e.g. "vegetarian", "quick")
}

Rules:
- List every ingredient the steps use, each once, with the requested ingredients named as the user wrote them.
- Respect every dietary requirement strictly; leave out any ingredient that breaks one.
- Quantities suit the number of servings. Use one unit system throughout.
- If the request is not about food or drink, or asks for something unsafe to eat or drink, reply {"refusal": "<one short sentence why>"} instead.`

/** The user message: the request, field by field. */
export function userPrompt (request: AiRequest): string {
  const lines = [`Write a ${request.type === 'drink' ? 'drink' : 'recipe'} for this request.`]
  if (request.prompt != null) lines.push(`Request: ${request.prompt}`)
  if (request.ingredients != null) {
    lines.push(`Ingredients to use (use all or most of them, and name each in "ingredients"): ${request.ingredients.join(', ')}`)
  }
  if (request.cuisine != null) lines.push(`Cuisine: ${request.cuisine}`)
  if (request.type != null) lines.push(`Type: ${request.type}`)
  if (request.dietary != null) lines.push(`Dietary requirements (must be respected): ${request.dietary.join(', ')}`)
  if (request.servings != null) lines.push(`Servings: ${request.servings}`)
  return lines.join('\n')
}

/** The follow-up when a reply did not validate: what was wrong, and the shape again. */
export function repairPrompt (problems: string[]): string {
  return `Your reply could not be used:\n${problems.map(p => `- ${p}`).join('\n')}\n` +
    'Reply again with only the JSON object described in the instructions (title, description, type, cuisine, difficulty, ' +
    'servings, prepTime, cookTime, ingredients as objects with name/quantity/unit/note, instructions as strings, tags).'
}

/** The follow-up when the recipe left out too many of the requested ingredients. */
export function groundingPrompt (missing: string[], required: number, requested: number): string {
  return `The recipe must use at least ${required} of the ${requested} requested ingredients, each named in "ingredients". ` +
    `It left out: ${missing.join(', ')}. Rewrite the recipe to use them, and reply with only the JSON object.`
}
