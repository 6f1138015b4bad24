// schema.org Recipe from JSON-LD, in all the shapes pages use: a top-level object or array, `@graph`, `ItemList`
// (`itemListElement`), `mainEntity`, objects keyed "0", "1"..., `@type` as an array or with a prefix, and sloppy JSON
// (raw control characters in strings, CDATA or comment wrappers, trailing commas or semicolons, several objects in one
// script).
import { rawText, type Page } from './dom.js'
import { isRecipe, isObject, mapSchemaRecipe, recipeScore, type Deref, type SchemaNode } from './schema-recipe.js'
import type { PageContext, RawRecipe } from './types.js'

const MAX_SCRIPT = 3_000_000
const MAX_NODES = 100_000
const MAX_DEPTH = 40

const VALID_ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't'])
const HEX4 = /^[0-9a-fA-F]{4}$/

/**
 * Repairs the JSON of a script and splits it into its top-level values, in one linear pass: outside strings it drops
 * comments, CDATA and HTML comment markers, trailing commas and anything between values (";", ","); inside strings it
 * escapes raw control characters and drops invalid escapes (`\'`). Unclosed values at the end are closed.
 */
export function repairJson (text: string): string[] {
  const values: string[] = []
  let out: string[] = []
  const closers: string[] = []
  let inString = false
  /** Index in `out` of the last significant character outside strings (for trailing commas). */
  let lastSignificant = -1
  const n = text.length
  let i = 0
  while (i < n) {
    const c = text[i]
    if (inString) {
      if (c === '"') {
        out.push(c)
        inString = false
      } else if (c === '\\') {
        const next = text[i + 1] ?? ''
        if (VALID_ESCAPES.has(next)) {
          out.push(c, next)
          i++
        } else if (next === 'u' && HEX4.test(text.slice(i + 2, i + 6))) {
          out.push(text.slice(i, i + 6))
          i += 5
        } else if (next === '\n' || next === '\r') {
          i++ // line continuation
        } else if (next !== '') {
          out.push(next === '\t' ? '\\t' : next)
          i++
        }
      } else {
        const code = c.charCodeAt(0)
        if (code < 0x20) {
          out.push(c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : `\\u${code.toString(16).padStart(4, '0')}`)
        } else if (code === 0x2028 || code === 0x2029) {
          out.push(code === 0x2028 ? '\\u2028' : '\\u2029')
        } else {
          out.push(c)
        }
      }
      i++
      continue
    }
    // Outside strings: markers and comments are skipped wherever they are.
    if (c === '<' && text.startsWith('<!--', i)) { i += 4; continue }
    if (c === '<' && text.startsWith('<![CDATA[', i)) { i += 9; continue }
    if (c === '-' && text.startsWith('-->', i)) { i += 3; continue }
    if (c === ']' && text.startsWith(']]>', i)) { i += 3; continue }
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i)
      i = end < 0 ? n : end
      continue
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2)
      i = end < 0 ? n : end + 2
      continue
    }
    if (closers.length === 0) {
      // Between values: wait for the next object or array.
      if (c === '{' || c === '[') {
        out = [c]
        lastSignificant = 0
        closers.push(c === '{' ? '}' : ']')
      }
      i++
      continue
    }
    if (c === '"') {
      inString = true
      out.push(c)
      lastSignificant = out.length - 1
    } else if (c === '{' || c === '[') {
      closers.push(c === '{' ? '}' : ']')
      out.push(c)
      lastSignificant = out.length - 1
    } else if (c === '}' || c === ']') {
      if (lastSignificant >= 0 && out[lastSignificant] === ',') out[lastSignificant] = ''
      out.push(closers.pop() ?? c)
      lastSignificant = out.length - 1
      if (closers.length === 0) values.push(out.join(''))
    } else if (c === ';') {
      // A statement end inside a value is garbage; keep going.
    } else {
      out.push(c)
      if (c.trim() !== '') lastSignificant = out.length - 1
    }
    i++
  }
  if (closers.length > 0) {
    if (inString) out.push('"')
    if (lastSignificant >= 0 && out[lastSignificant] === ',') out[lastSignificant] = ''
    while (closers.length > 0) out.push(closers.pop()!)
    values.push(out.join(''))
  }
  return values
}

/** The values of one JSON-LD script: strict JSON first, then the repaired values that parse. */
export function parseJsonLd (text: string): unknown[] {
  const trimmed = text.trim()
  if (trimmed === '' || trimmed.length > MAX_SCRIPT) return []
  try {
    return [JSON.parse(trimmed)]
  } catch {
    const out: unknown[] = []
    for (const value of repairJson(trimmed)) {
      try {
        out.push(JSON.parse(value))
      } catch {
        // not JSON even after repair
      }
    }
    return out
  }
}

/** Every Recipe node of the values (anywhere in them) and every node with an @id, in document order. */
export function findRecipeNodes (values: unknown[]): { recipes: SchemaNode[], ids: Map<string, SchemaNode> } {
  const recipes: SchemaNode[] = []
  const ids = new Map<string, SchemaNode>()
  let budget = MAX_NODES
  const visit = (value: unknown, depth: number): void => {
    if (budget-- <= 0 || depth > MAX_DEPTH || value == null || typeof value !== 'object') return
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1)
      return
    }
    const node = value as SchemaNode
    const id = node['@id']
    if (typeof id === 'string' && Object.keys(node).some(k => k !== '@id' && k !== '@type') && !ids.has(id)) ids.set(id, node)
    if (isRecipe(node)) {
      recipes.push(node)
      return
    }
    // Walks every property: @graph, itemListElement, item, mainEntity, mainEntityOfPage, "0", "1", hasPart...
    for (const key of Object.keys(node)) {
      const child = node[key]
      if (child != null && typeof child === 'object') visit(child, depth + 1)
    }
  }
  for (const value of values) visit(value, 0)
  return { recipes, ids }
}

function makeDeref (ids: Map<string, SchemaNode>): Deref {
  return value => {
    if (!isObject(value)) return value
    const id = value['@id']
    if (typeof id !== 'string') return value
    const onlyReference = Object.keys(value).every(k => k === '@id' || k === '@type')
    return onlyReference ? (ids.get(id) ?? value) : value
  }
}

/** The JSON-LD scripts of a page, parsed. */
export function jsonLdValues (page: Page): unknown[] {
  const values: unknown[] = []
  for (const el of page.scripts) {
    const type = (el.attribs.type ?? '').toLowerCase()
    if (type.includes('ld+json')) values.push(...parseJsonLd(rawText(el)))
  }
  return values
}

/** The most complete Recipe of the page's JSON-LD (the first of equals), mapped; null when there is none. */
export function extractJsonLd (page: Page, context: PageContext): RawRecipe | null {
  const { recipes, ids } = findRecipeNodes(jsonLdValues(page))
  if (recipes.length === 0) return null
  let best = recipes[0]
  let bestScore = recipeScore(best)
  for (const node of recipes.slice(1)) {
    const score = recipeScore(node)
    if (score > bestScore) {
      best = node
      bestScore = score
    }
  }
  return mapSchemaRecipe(best, context, makeDeref(ids))
}
