// Maps a schema.org Recipe object (from JSON-LD, or built from microdata) to a RawRecipe. Values may come in any of
// the shapes found in the wild: a string or an array of them, an object, an array of objects, an `@id` reference.
import { cleanLines, cleanText, LIMITS, parseDuration, parseYield, resolveImage, truncate } from './clean.js'
import { groupHeader, ingredientsFromLines, stepsFromLines, stepsFromText, stripNumbering } from './lines.js'
import type { PageContext, RawIngredient, RawRecipe, RawStep } from './types.js'

export type SchemaNode = Record<string, unknown>

/** Resolves `{ "@id": ... }` references to the node they name (JSON-LD @graph). */
export type Deref = (value: unknown) => unknown

const identity: Deref = value => value

export const isObject = (value: unknown): value is SchemaNode =>
  value != null && typeof value === 'object' && !Array.isArray(value)

/** The last segment of a type name: "http://schema.org/Recipe", "schema:Recipe" -> "recipe". */
export function typeName (value: string): string {
  return value.slice(Math.max(value.lastIndexOf('/'), value.lastIndexOf(':'), value.lastIndexOf('#')) + 1)
    .trim().toLowerCase()
}

export function types (node: SchemaNode): string[] {
  const t = node['@type'] ?? node.type
  if (typeof t === 'string') return t.split(/\s+/).map(typeName)
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string').map(typeName)
  return []
}

export const isRecipe = (node: SchemaNode): boolean => types(node).includes('recipe')

/** A string that holds JSON (a theme writing `content='[{"@type":"HowToStep"...}]'`), parsed; else the string. */
function embeddedJson (text: string): unknown {
  const t = text.trim()
  if (t.length < 2 || t.length > 1_000_000) return text
  const open = t[0]
  const close = t[t.length - 1]
  if (!((open === '[' && close === ']') || (open === '{' && close === '}'))) return text
  try {
    const parsed: unknown = JSON.parse(t)
    return parsed != null && typeof parsed === 'object' ? parsed : text
  } catch {
    return text
  }
}

/** The first of the values that is (or whose array starts with) a non-blank string. */
function firstString (...values: unknown[]): string | null {
  for (const value of values) {
    const v = first(value)
    if (typeof v === 'string' && v.trim() !== '') return v
  }
  return null
}

/** The first usable value: arrays give their first non-empty element. */
function first (value: unknown): unknown {
  if (!Array.isArray(value)) return value
  return value.find(v => v != null && v !== '')
}

/** Text of a value that may be a string, a number, an object with a name/text, or an array of those. */
function textValue (value: unknown, max: number, deref: Deref): string {
  const v = deref(first(value))
  if (isObject(v)) return cleanText(first(v.name ?? v.text ?? v['@value'] ?? v.value), max)
  return cleanText(v, max)
}

/** Many texts from a string or an array: each cleaned, empty and repeated ones dropped. */
function textList (value: unknown, max: number, limit: number, deref: Deref, split: RegExp | null): string[] {
  const raw = Array.isArray(value) ? value.slice(0, limit * 4) : [value]
  const out: string[] = []
  const seen = new Set<string>()
  for (const item of raw) {
    const v = deref(item)
    const text = isObject(v) ? cleanText(first(v.name ?? v.text ?? v['@value']), max * 4) : cleanText(v, max * 20)
    for (const part of split == null ? [text] : text.split(split)) {
      const clean = cleanText(part, max)
      const key = clean.toLowerCase()
      if (clean === '' || seen.has(key)) continue
      seen.add(key)
      out.push(clean)
      if (out.length >= limit) return out
    }
  }
  return out
}

/** The ingredient lines of `recipeIngredient` (or the older `ingredients`), in any shape. */
export function ingredientLines (value: unknown, deref: Deref = identity): string[] {
  const lines: string[] = []
  const visit = (v: unknown, depth: number): void => {
    if (lines.length >= LIMITS.ingredients * 2 || depth > 4) return
    const item = deref(typeof v === 'string' && depth < 2 ? embeddedJson(v) : v)
    if (typeof item === 'string') {
      lines.push(...cleanLines(item, LIMITS.ingredients))
    } else if (typeof item === 'number') {
      lines.push(String(item))
    } else if (Array.isArray(item)) {
      for (const x of item.slice(0, LIMITS.ingredients * 2)) visit(x, depth + 1)
    } else if (isObject(item)) {
      const listed = item.itemListElement ?? item.recipeIngredient
      if (listed != null) {
        const name = cleanText(first(item.name), LIMITS.section)
        if (name !== '') lines.push(`${name}:`)
        visit(listed, depth + 1)
        return
      }
      const text = firstString(item.text, item.name, item['@value'], item.value)
      if (text != null) lines.push(...cleanLines(text, LIMITS.ingredients))
    }
  }
  visit(value, 0)
  // One line holding the whole list, comma-separated ("125ml milk, 1 tsp vinegar, 60ml oil"): a line each.
  if (lines.length === 1) {
    const parts = lines[0].split(/,\s*(?=[\d½¼¾⅓⅔⅛])/)
    if (parts.length >= 3) return parts.map(p => p.trim()).filter(p => p !== '')
  }
  return lines
}

/** Steps from `recipeInstructions` in any shape: string, strings, HowToStep, HowToSection, ItemList, nesting. */
export function instructionSteps (value: unknown, deref: Deref = identity): RawStep[] {
  const steps: RawStep[] = []
  let budget = 5000
  const visit = (v: unknown, section: string | undefined, depth: number): void => {
    if (steps.length >= LIMITS.steps || depth > 6 || budget-- <= 0) return
    const item = deref(typeof v === 'string' && depth < 2 ? embeddedJson(v) : v)
    if (typeof item === 'string') {
      for (const step of stepsFromText(item, section)) steps.push(step)
      return
    }
    if (Array.isArray(item)) {
      // An array of plain strings is a list of steps, never one paragraph to re-split.
      if (item.every(x => typeof x === 'string' && embeddedJson(x) === x)) {
        const lines = item.slice(0, LIMITS.steps * 2).flatMap(x => cleanLines(x, LIMITS.steps))
        steps.push(...stepsFromLines(lines, section))
        return
      }
      for (const x of item.slice(0, LIMITS.steps * 2)) visit(x, section, depth + 1)
      return
    }
    if (!isObject(item)) return
    const kinds = types(item)
    const listed = item.itemListElement ?? item.steps ?? item.step
    const isSection = kinds.includes('howtosection') || kinds.includes('itemlist') ||
      (listed != null && item.text == null)
    if (isSection && listed != null) {
      const name = cleanText(first(item.name), LIMITS.section)
      visit(listed, name !== '' ? name : section, depth + 1)
      return
    }
    // Microdata items hold every property as an array.
    const text = firstString(item.text, item.description, item.name, item['@value'])
    if (text != null) {
      // A HowToStep is one step, whatever lines its text has.
      const joined = truncate(cleanLines(text, LIMITS.steps).join(' '), LIMITS.line)
      if (joined !== '') {
        const step = stripNumbering(joined)
        steps.push(section == null ? { text: step } : { text: step, section })
      }
    } else if (listed != null) {
      visit(listed, section, depth + 1)
    }
  }
  visit(value, undefined, 0)
  return steps.slice(0, LIMITS.steps)
}

function authorName (value: unknown, deref: Deref): string {
  const items = Array.isArray(value) ? value.slice(0, 10) : [value]
  const names: string[] = []
  for (const item of items) {
    const v = deref(item)
    const name = isObject(v) ? cleanText(first(v.name ?? v.alternateName), LIMITS.short) : cleanText(v, LIMITS.short)
    if (name !== '' && !names.includes(name)) names.push(name)
  }
  return cleanText(names.join(', '), LIMITS.short)
}

function nutritionOf (value: unknown, deref: Deref): Record<string, string> | undefined {
  const v = deref(first(value))
  if (!isObject(v)) return undefined
  const out: Record<string, string> = {}
  let count = 0
  for (const [key, raw] of Object.entries(v)) {
    if (key.startsWith('@') || count >= LIMITS.nutrition || key.length > 60 || !/^[A-Za-z][\w-]*$/.test(key)) continue
    const text = textValue(raw, LIMITS.nutritionValue, deref)
    if (text === '') continue
    out[key] = text
    count++
  }
  return count === 0 ? undefined : out
}

function languageOf (value: unknown, deref: Deref): string {
  const v = deref(first(value))
  if (isObject(v)) return cleanText(first(v.alternateName ?? v.name), LIMITS.language)
  return cleanText(v, LIMITS.language)
}

const defined = (text: string): string | undefined => text === '' ? undefined : text

const letters = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '')

/**
 * Whether `steps` say what `description` says, ignoring case, spaces and punctuation and a truncated end (and not
 * the description followed by the steps: an article that holds them).
 */
function sameText (steps: string, description: string): boolean {
  const x = letters(steps)
  const y = letters(description)
  return x.length >= 20 && y.length >= 20 && x.length <= y.length * 1.2 && (x.startsWith(y) || y.startsWith(x))
}

/** A schema.org Recipe node as a RawRecipe. */
export function mapSchemaRecipe (node: SchemaNode, context: PageContext, deref: Deref = identity): RawRecipe {
  const out: RawRecipe = {}
  out.title = defined(textValue(node.name ?? node.headline ?? node.alternativeHeadline, LIMITS.title, deref))
  out.description = defined(textValue(node.description, LIMITS.description, deref))

  // Pages mixing the current and the older property (microdata often does) use both; repeated lines once. One line
  // beside a list of several is the list run together (a <meta> summing up the list), not an ingredient.
  let current = ingredientLines(node.recipeIngredient, deref)
  let older = ingredientLines(node.ingredients, deref)
  if (current.length === 1 && older.length >= 3) current = []
  if (older.length === 1 && current.length >= 3) older = []
  const lines = [...current, ...older]
  const ingredients: RawIngredient[] = ingredientsFromLines(current.length > 0 && older.length > 0
    ? lines.filter((line, i) => lines.indexOf(line) === i || groupHeader(line) != null)
    : lines)
  if (ingredients.length > 0) out.ingredients = ingredients
  const instructionSource = deref(node.recipeInstructions ?? node.instructions)
  const steps = instructionSteps(instructionSource, deref)
  // Steps that only repeat the description (a theme filling both with the post's excerpt) are no steps.
  if (steps.length > 0 && out.description != null && sameText(steps.map(s => s.text).join(' '), out.description)) steps.length = 0
  if (steps.length > 0) {
    out.instructions = steps
    const single = Array.isArray(instructionSource) && instructionSource.length === 1 ? instructionSource[0] : instructionSource
    if (typeof single === 'string' && embeddedJson(single) === single) out.instructionsText = single
  }

  const prep = parseDuration(deref(node.prepTime))
  const cook = parseDuration(deref(node.cookTime ?? node.performTime))
  const total = parseDuration(deref(node.totalTime))
  if (prep != null) out.prepTime = prep
  if (cook != null) out.cookTime = cook
  if (total != null) out.totalTime = total

  const yields = parseYield(node.recipeYield ?? node.yield)
  if (yields != null) {
    out.yields = yields.yields
    if (yields.servings != null) out.servings = yields.servings
  }

  const image = resolveImage(deref(node.image), context.base) ?? resolveImage(deref(node.thumbnailUrl), context.base)
  if (image != null) out.imageUrl = image

  const cuisine = textList(node.recipeCuisine, LIMITS.short, 5, deref, /\s*,\s*/).join(', ')
  if (cuisine !== '') out.cuisine = cleanText(cuisine, LIMITS.short)
  const category = textList(node.recipeCategory, LIMITS.short, 5, deref, /\s*,\s*/).join(', ')
  if (category !== '') out.category = cleanText(category, LIMITS.short)
  const tags = textList(node.keywords, LIMITS.tag, LIMITS.tags, deref, /\s*[,;]\s*/)
  if (tags.length > 0) out.tags = tags

  out.author = defined(authorName(node.author ?? node.creator, deref))
  out.nutrition = nutritionOf(node.nutrition, deref)
  out.language = defined(languageOf(node.inLanguage, deref))
  for (const key of Object.keys(out) as Array<keyof RawRecipe>) if (out[key] === undefined) delete out[key]
  return out
}

/** How complete a Recipe node looks, to choose between several on one page. */
export function recipeScore (node: SchemaNode): number {
  const has = (v: unknown) => v != null && v !== '' && !(Array.isArray(v) && v.length === 0)
  return (has(node.recipeIngredient ?? node.ingredients) ? 4 : 0) +
    (has(node.recipeInstructions ?? node.instructions) ? 4 : 0) + (has(node.name) ? 1 : 0) + (has(node.image) ? 1 : 0)
}
