// schema.org Recipe from microdata: the `itemscope itemtype=".../Recipe"` element's properties become a schema object
// (nested items such as HowToStep, HowToSection, NutritionInformation or Person included), then the JSON-LD mapper
// reads it. Property values follow the microdata rules: meta@content, time@datetime, a@href, img@src..., else text.
import { attr, isElement, SKIPPED, textOf, type Element, type Page, type ParentNode } from './dom.js'
import { isRecipe, mapSchemaRecipe, recipeScore, typeName, type SchemaNode } from './schema-recipe.js'
import type { PageContext, RawRecipe } from './types.js'

const MAX_PROPERTIES = 5000
const MAX_TEXT = 50_000
const MAX_TOTAL_TEXT = 2_000_000
/** Properties whose text keeps its lines (a list inside one element is many lines). */
const LINE_PROPERTIES = new Set(['recipeinstructions', 'instructions', 'recipeingredient', 'ingredients', 'text',
  'description'])

function propertyValue (el: Element, name: string, maxText: number): string {
  const tag = el.name.toLowerCase()
  const pick = (...names: string[]): string | null => {
    for (const n of names) {
      const v = attr(el, n)
      if (v != null && !/^data:/i.test(v)) return v
    }
    return null
  }
  if (tag === 'meta') return el.attribs.content ?? ''
  if (tag === 'time') return pick('datetime', 'content') ?? textOf(el, false, maxText)
  if (tag === 'img' || tag === 'source' || tag === 'video' || tag === 'audio' || tag === 'iframe' || tag === 'embed') {
    return pick('src', 'data-src', 'data-lazy-src', 'data-original', 'content') ??
      (attr(el, 'srcset') ?? attr(el, 'data-srcset') ?? '').split(',')[0].trim().split(/\s+/)[0]
  }
  if (tag === 'a' || tag === 'link' || tag === 'area') {
    // A link marked as an ingredient or a step (the ingredient's page linked from its name) gives its text.
    if (tag === 'a' && LINE_PROPERTIES.has(name.toLowerCase())) return attr(el, 'content') ?? textOf(el, false, maxText)
    return pick('href', 'content') ?? textOf(el, false, maxText)
  }
  if (tag === 'data' || tag === 'meter') return pick('value', 'content') ?? textOf(el, false, maxText)
  if (tag === 'object') return pick('data') ?? ''
  const content = attr(el, 'content')
  if (content != null) return content
  return textOf(el, LINE_PROPERTIES.has(name.toLowerCase()), maxText)
}

const INGREDIENT_PROPERTIES = new Set(['recipeingredient', 'ingredients'])
const INLINE = new Set(['a', 'span', 'b', 'strong', 'em', 'i', 'u', 'label', 'font', 'small', 'mark'])

/** How many ingredient properties an element holds (counted over its first 200 nodes). */
function ingredientProperties (root: Element): number {
  let count = 0
  let budget = 200
  const stack: ParentNode[] = [root]
  while (stack.length > 0 && budget-- > 0) {
    const node = stack.pop()!
    if (isElement(node) && propertyNames(node).some(n => INGREDIENT_PROPERTIES.has(n.toLowerCase()))) count++
    for (const child of node.children) if ('children' in child) stack.push(child)
  }
  return count
}

/**
 * An ingredient marked on its name alone (`<li>2 cl <a itemprop="recipeIngredient">Tequila</a></li>`): the text of its
 * list item, which holds the quantity the property lacks. Null when the property is not inline in such an item.
 */
function ingredientItemText (el: Element, own: string): string | null {
  if (!INLINE.has(el.name.toLowerCase()) || /\d/.test(own)) return null
  let item: Element | null = null
  let node = el.parent
  for (let depth = 0; node != null && depth < 4; depth++, node = node.parent) {
    if (!isElement(node)) return null
    const name = node.name.toLowerCase()
    if (name === 'li') {
      item = node
      break
    }
    if (!INLINE.has(name)) return null
  }
  if (item == null || ingredientProperties(item) > 1) return null
  const text = textOf(item, false, 2000).replace(/\s+/g, ' ').trim()
  const name = own.replace(/\s+/g, ' ').trim()
  return text.length <= name.length + 60 && text.includes(name) && /\d/.test(text) ? text : null
}

function propertyNames (el: Element): string[] {
  const raw = el.attribs.itemprop
  if (raw == null) return []
  // Full URLs name the same properties: "http://schema.org/recipeIngredient" -> "recipeIngredient".
  return raw.trim().split(/\s+/).map(n => n.slice(Math.max(n.lastIndexOf('/'), n.lastIndexOf(':'), n.lastIndexOf('#')) + 1))
    .filter(n => n !== '')
}

/** The item an itemscope element describes, as a schema object (nested itemscopes become nested objects). */
export function microdataItem (scope: ParentNode): SchemaNode {
  let budget = MAX_PROPERTIES
  // Property elements may nest (a list holding its items): the text read over all of them is bounded too.
  let textBudget = MAX_TOTAL_TEXT
  const build = (root: ParentNode, depth: number): SchemaNode => {
    const item: SchemaNode = {}
    const itemtype = isElement(root) ? attr(root, 'itemtype') : null
    if (itemtype != null) item['@type'] = itemtype.split(/\s+/).map(typeName)
    const add = (name: string, value: unknown): void => {
      const list = item[name]
      if (Array.isArray(list)) list.push(value)
      else item[name] = [value]
    }
    const stack = [...root.children].reverse()
    while (stack.length > 0 && budget > 0) {
      const node = stack.pop()!
      // Lazy-loading themes keep the real <img> in <noscript>: its properties count.
      if (!isElement(node) || (SKIPPED.has(node.name.toLowerCase()) && node.name.toLowerCase() !== 'noscript')) continue
      const names = propertyNames(node)
      const nested = node.attribs.itemscope != null
      if (names.length > 0) {
        budget--
        let value: unknown
        if (nested && depth < 8) {
          value = build(node, depth + 1)
        } else {
          const text = propertyValue(node, names[0], Math.max(0, Math.min(MAX_TEXT, textBudget)))
          textBudget -= text.length
          value = INGREDIENT_PROPERTIES.has(names[0].toLowerCase()) ? (ingredientItemText(node, text) ?? text) : text
        }
        for (const name of names) add(name, value)
      }
      // A nested item's properties are its own, not this item's.
      if (nested) continue
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i])
    }
    return item
  }
  return build(scope, 0)
}

function recipeScopes (page: Page): Element[] {
  return page.itemscopes.filter(el => (el.attribs.itemtype ?? '').split(/\s+/).map(typeName).includes('recipe'))
}

/** The most complete microdata Recipe of the page, mapped; null when there is none. */
export function extractMicrodata (page: Page, context: PageContext): RawRecipe | null {
  let best: SchemaNode | null = null
  let bestScore = -1
  for (const scope of recipeScopes(page).slice(0, 20)) {
    const item = microdataItem(scope)
    if (!isRecipe(item)) continue
    const score = recipeScore(item)
    if (score > bestScore) {
      best = item
      bestScore = score
    }
  }
  if (best == null) {
    // Recipe properties without a Recipe scope (a theme's markup kept from an old plugin): read the document as one.
    if (!page.ingredientProps) return null
    best = microdataItem(page.root)
    best['@type'] = ['recipe']
  }
  const recipe = mapSchemaRecipe(best, context)
  // An element marked as the instructions gives its steps by its own blocks (list items, paragraphs): that is the
  // page's split already, not one text to refine from the page (a <meta> holding one paragraph still is).
  if ((recipe.instructions?.length ?? 0) >= 2) delete recipe.instructionsText
  return recipe
}
