// A recipe in a page's embedded application state, for pages that render it with JavaScript and publish no schema.org
// data: JSON in scripts (`__NEXT_DATA__`, `window.__INITIAL_STATE__ = {...}`, Nuxt, Apollo caches) and JSON carried in
// script strings (streamed React server payloads). A recipe there is any object with an array of ingredients and steps
// (keys named like "ingredients" and "instructions"/"steps"/"directions"/"method"/"preparation...").
import { cleanText, LIMITS, parseDuration, parseYield } from './clean.js'
import { rawText, type Page } from './dom.js'
import { repairJson } from './json-ld.js'
import { ingredientsFromLines, stepsFromLines } from './lines.js'
import { isObject, type SchemaNode } from './schema-recipe.js'
import type { RawIngredient, RawRecipe, RawStep } from './types.js'

const MAX_SCRIPTS_CHARS = 6_000_000
const MAX_NODES = 200_000
const MAX_VALUE_CHARS = 3_000_000
const SIGNAL = /ingredient|zutat/i
const SINGLE_CALL = /^\s*\(?[\w$.]+(?:\s*=\s*[\w$.|[\]\s]+\))?(?:\.[\w$]+)*\(\s*[[{"']/

const INGREDIENTS_KEY = /ingredient/i
const STEPS_KEY = /instruction|direction|^(?:recipe)?steps$|^method$|^preparation(?:steps|instructions)?$|^procedure$/i
const TEXT_KEYS = ['text', 'display', 'displayText', 'original', 'originalString', 'raw', 'line', 'fullText']
const STEP_TEXT_KEYS = ['text', 'body', 'description', 'content', 'instruction', 'step', 'value', 'html', 'name']
const NAME_KEY = /^(?:name|title|ingredient|ingredientName|food|foodName|product|productName)$/i
const QUANTITY_KEY = /quantity|amount|^qty$|menge/i
const UNIT_KEY = /unit/i

function parseValues (text: string): unknown[] {
  const out: unknown[] = []
  for (const value of repairJson(text)) {
    if (value.length > MAX_VALUE_CHARS || !SIGNAL.test(value)) continue
    try {
      out.push(JSON.parse(value))
    } catch {
      // not JSON
    }
  }
  return out
}

/** Strings inside parsed script values that carry JSON themselves (streamed payloads), in order. */
function jsonStrings (values: unknown[]): string[] {
  const out: string[] = []
  let budget = 10_000
  const visit = (v: unknown, depth: number): void => {
    if (budget-- <= 0 || depth > 4) return
    if (typeof v === 'string') {
      if (v.length > 20 && (v.includes('{') || v.includes('['))) out.push(v)
    } else if (Array.isArray(v)) {
      for (const x of v) visit(x, depth + 1)
    }
  }
  for (const v of values) visit(v, 0)
  return out
}

/** Every JSON value of the page's inline scripts that mentions ingredients. */
export function embeddedValues (page: Page): unknown[] {
  const texts: string[] = []
  let total = 0
  const carriers: unknown[] = []
  for (const el of page.scripts) {
    const type = (el.attribs.type ?? '').toLowerCase()
    if (el.attribs.src != null || type.includes('ld+json') || total > MAX_SCRIPTS_CHARS) continue
    const text = rawText(el)
    total += text.length
    if (text.length < 20) continue
    // A script that is one call with literal arguments (`self.__next_f.push([1, "..."])`) may carry JSON in strings;
    // a payload streamed over several such scripts is read as their strings joined.
    if (SINGLE_CALL.test(text.slice(0, 200)) && /\)\s*;?\s*$/.test(text.slice(-20))) {
      for (const value of repairJson(text)) {
        if (value.length > MAX_VALUE_CHARS) continue
        try {
          carriers.push(JSON.parse(value))
        } catch {}
      }
    }
    if (SIGNAL.test(text)) texts.push(text)
  }
  const values: unknown[] = []
  for (const text of texts) values.push(...parseValues(text))
  const streamed = jsonStrings(carriers).join('')
  if (SIGNAL.test(streamed)) values.push(...parseValues(streamed))
  return values
}

function stringOf (value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  if (isObject(value)) {
    for (const key of ['name', 'abbreviation', 'short', 'label', 'text']) if (typeof value[key] === 'string') return value[key]
  }
  return ''
}

function ingredientLine (item: SchemaNode): string {
  for (const key of TEXT_KEYS) if (typeof item[key] === 'string' && item[key] !== '') return item[key]
  let quantity = ''
  let unit = ''
  let name = ''
  for (const [key, value] of Object.entries(item)) {
    if (value == null || value === '') continue
    if (quantity === '' && QUANTITY_KEY.test(key) && (typeof value === 'number' || typeof value === 'string')) quantity = stringOf(value)
    else if (unit === '' && UNIT_KEY.test(key)) unit = stringOf(value)
    else if (name === '' && NAME_KEY.test(key)) name = stringOf(value)
  }
  return name === '' ? '' : [quantity, unit, name].filter(s => s !== '').join(' ')
}

function ingredientsOf (value: unknown): RawIngredient[] {
  const lines: string[] = []
  const visit = (v: unknown, depth: number): void => {
    if (depth > 4 || lines.length >= LIMITS.ingredients * 2) return
    if (typeof v === 'string') {
      lines.push(cleanText(v))
    } else if (Array.isArray(v)) {
      for (const x of v.slice(0, LIMITS.ingredients * 2)) visit(x, depth + 1)
    } else if (isObject(v)) {
      const nested = Object.entries(v).find(([k, x]) => Array.isArray(x) && x.length > 0 && /ingredient|items/i.test(k))
      if (nested != null) {
        const title = cleanText(stringOf(v.title ?? v.name ?? v.heading ?? v.header), LIMITS.section)
        if (title !== '') lines.push(`${title}:`)
        visit(nested[1], depth + 1)
        return
      }
      lines.push(cleanText(ingredientLine(v)))
    }
  }
  visit(value, 0)
  return ingredientsFromLines(lines.filter(l => l !== ''))
}

/** App state often holds Markdown: "**2 limes**" is shown as "2 limes". */
const markdown = (text: string): string => text.replace(/\*\*([^*]{1,500})\*\*/g, '$1').replace(/__([^_]{1,500})__/g, '$1')

function stepsOf (value: unknown): RawStep[] {
  const steps: RawStep[] = []
  const visit = (v: unknown, section: string | undefined, depth: number): void => {
    if (depth > 4 || steps.length >= LIMITS.steps) return
    if (typeof v === 'string') {
      steps.push(...stepsFromLines([markdown(cleanText(v))], section))
    } else if (Array.isArray(v)) {
      for (const x of v.slice(0, LIMITS.steps * 2)) visit(x, section, depth + 1)
    } else if (isObject(v)) {
      const nested = Object.entries(v).find(([k, x]) => Array.isArray(x) && x.length > 0 && /steps|items|instructions/i.test(k))
      const title = cleanText(stringOf(v.title ?? v.header ?? v.heading), LIMITS.section)
      if (nested != null) {
        visit(nested[1], title !== '' ? title : section, depth + 1)
        return
      }
      for (const key of STEP_TEXT_KEYS) {
        if (typeof v[key] === 'string' && v[key].trim() !== '') {
          steps.push(...stepsFromLines([markdown(cleanText(v[key]))], section))
          return
        }
      }
    }
  }
  visit(value, undefined, 0)
  return steps.slice(0, LIMITS.steps)
}

interface Candidate { node: SchemaNode, ingredients: RawIngredient[], steps: RawStep[] }

function candidateOf (node: SchemaNode): Candidate | null {
  let ingredients: RawIngredient[] = []
  let steps: RawStep[] = []
  for (const [key, value] of Object.entries(node)) {
    if (value == null || typeof value === 'number' || typeof value === 'boolean') continue
    if (ingredients.length === 0 && INGREDIENTS_KEY.test(key) && Array.isArray(value) && value.length > 0) ingredients = ingredientsOf(value)
    else if (steps.length === 0 && STEPS_KEY.test(key) && (Array.isArray(value) || typeof value === 'string')) steps = stepsOf(value)
  }
  return ingredients.length > 0 && steps.length > 0 ? { node, ingredients, steps } : null
}

const alnum = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '')

function mapCandidate ({ node, ingredients, steps }: Candidate): RawRecipe {
  const out: RawRecipe = { ingredients, instructions: steps }
  const title = cleanText(stringOf(node.name ?? node.title ?? node.headline), LIMITS.title)
  if (title !== '') out.title = title
  const description = cleanText(typeof node.description === 'string' ? node.description : '', LIMITS.description)
  if (description !== '') out.description = description
  for (const [key, value] of Object.entries(node)) {
    const k = key.toLowerCase()
    if (!/time|minutes|duration/.test(k) || /^active/.test(k)) continue
    const minutes = typeof value === 'number' ? (/minute/.test(k) ? parseDuration(value) : null) : parseDuration(value)
    if (minutes == null) continue
    if (/^total/.test(k)) out.totalTime ??= minutes
    else if (/^prep/.test(k)) out.prepTime ??= minutes
    else if (/^cook/.test(k)) out.cookTime ??= minutes
  }
  for (const key of ['servings', 'yield', 'yields', 'recipeYield', 'portions', 'serves', 'numberOfServings']) {
    if (node[key] == null) continue
    const parsed = parseYield(node[key])
    if (parsed != null) {
      out.yields = parsed.yields
      if (parsed.servings != null) out.servings = parsed.servings
      break
    }
  }
  return out
}

/** The recipe of the page's embedded state: the candidate named like the page, else the most complete one. */
export function extractEmbedded (page: Page, pageTitle: string | null): RawRecipe | null {
  const candidates: Candidate[] = []
  let budget = MAX_NODES
  const visit = (value: unknown, depth: number): void => {
    if (budget-- <= 0 || depth > 60 || value == null || typeof value !== 'object' || candidates.length >= 50) return
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1)
      return
    }
    const node = value as SchemaNode
    const candidate = candidateOf(node)
    if (candidate != null) {
      candidates.push(candidate)
      return
    }
    for (const key of Object.keys(node)) {
      const child = node[key]
      if (child != null && typeof child === 'object') visit(child, depth + 1)
    }
  }
  for (const value of embeddedValues(page)) visit(value, 0)
  if (candidates.length === 0) return null
  const title = pageTitle == null ? '' : alnum(pageTitle)
  const named = (c: Candidate): boolean => {
    const name = alnum(stringOf(c.node.name ?? c.node.title))
    return title !== '' && name.length >= 4 && title.includes(name)
  }
  const size = (c: Candidate): number => c.ingredients.length + c.steps.length
  const best = candidates.reduce((a, b) => (named(b) && !named(a)) || (named(b) === named(a) && size(b) > size(a)) ? b : a)
  return mapCandidate(best)
}
