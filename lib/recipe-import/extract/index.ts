// The recipe of a web page as a RecipePreview: schema.org Recipe from JSON-LD first, then microdata, then page
// heuristics; a field the first source lacks is filled from the next. Bounded (ingredients, steps, line lengths) and
// linear in the page's size.
import { parseIngredientLine, type Ingredient } from '../../ingredients.js'
import type { PreviewIngredient, PreviewStep, RecipePreview } from '../preview.js'
import { absoluteUrl, LIMITS, truncate } from './clean.js'
import { parsePage, type Page } from './dom.js'
import { extractEmbedded } from './embedded.js'
import { extractHeuristics, listedStepsWithin, pageGroups, pageIngredientsBeyond, pageStepsBeyond, pageStepsUnderTitles } from './heuristics.js'
import { pageLines } from './page-lines.js'
import { linkHref } from './page-meta.js'
import { extractJsonLd } from './json-ld.js'
import { extractMicrodata } from './microdata.js'
import type { PageContext, RawRecipe } from './types.js'

export { parseDuration, parseYield, resolveImage } from './clean.js'

function httpUrl (value: string | null | undefined): URL | null {
  if (value == null) return null
  try {
    const url = new URL(value.trim())
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null
  } catch {
    return null
  }
}

function pageContext (page: Page, pageUrl: string): { context: PageContext, sourceUrl: string | null } {
  const url = httpUrl(pageUrl)
  const meta = page.metas.find(el => el.attribs.property === 'og:url')?.attribs.content
  const canonical = httpUrl(absoluteUrl(linkHref(page, 'canonical'), url)) ?? httpUrl(absoluteUrl(meta, url))
  const origin = url ?? canonical
  const base = page.baseHref == null ? origin : (httpUrl(absoluteUrl(page.baseHref, origin)) ?? origin)
  return { context: { base }, sourceUrl: (url ?? canonical)?.href ?? null }
}

/** Fills the fields `target` lacks from `source` (ingredients and steps count as lacking when empty). */
function fill (target: RawRecipe, source: RawRecipe | null): void {
  if (source == null) return
  const hadSteps = target.instructions != null && target.instructions.length > 0
  for (const key of Object.keys(source) as Array<keyof RawRecipe>) {
    const current = target[key]
    if (current === undefined || (Array.isArray(current) && current.length === 0)) {
      (target as Record<string, unknown>)[key] = source[key]
    }
  }
  // The text the steps were split from belongs to the steps it gave, not to steps from another source.
  if (hadSteps && target.instructionsText === source.instructionsText && source.instructionsText != null) {
    delete target.instructionsText
  }
}

/** Lines are parsed on their first characters: the parser's time grows with the square of a line's length. */
const PARSED_PREFIX = 200

function toIngredient (line: { text: string, group: string | null }): PreviewIngredient {
  const text = truncate(line.text, LIMITS.line)
  let parsed: Ingredient | null = null
  try {
    parsed = parseIngredientLine(text.length > PARSED_PREFIX ? truncate(text, PARSED_PREFIX) : text, line.group)
  } catch {
    // the raw line is kept either way
  }
  return {
    text,
    name: truncate(parsed?.name ?? text, LIMITS.line),
    quantity: parsed?.quantity != null && Number.isFinite(parsed.quantity) ? parsed.quantity : null,
    unit: parsed?.unit ?? null,
    note: parsed?.note ?? null,
    group: line.group
  }
}

const lacks = (recipe: RawRecipe): boolean =>
  recipe.ingredients == null || recipe.ingredients.length === 0 || recipe.instructions == null || recipe.instructions.length === 0

/** The recipe of an HTML page, or null when the page shows no ingredients and no steps. */
export function extractRecipe (html: string, pageUrl: string): RecipePreview | null {
  const page = parsePage(html)
  const { context, sourceUrl } = pageContext(page, pageUrl)
  const recipe: RawRecipe = {}
  fill(recipe, extractJsonLd(page, context))
  fill(recipe, extractMicrodata(page, context))
  // The page read line by line: missing fields, groups of ingredients, steps to refine, lists the data shortened.
  const lines = pageLines(page)
  const ungrouped = recipe.ingredients != null && recipe.ingredients.every(i => i.group == null)
  if (recipe.ingredients != null && recipe.ingredients.length > 0) {
    const fuller = pageIngredientsBeyond(lines, recipe.ingredients)
    if (fuller != null) recipe.ingredients = fuller
    else if (ungrouped) recipe.ingredients = pageGroups(lines, recipe.ingredients) ?? recipe.ingredients
  }
  if (recipe.instructions != null && recipe.instructions.length > 0 && recipe.instructionsText == null) {
    const fuller = pageStepsBeyond(lines, recipe.instructions) ?? pageStepsUnderTitles(lines, recipe.instructions)
    if (fuller != null) recipe.instructions = fuller
  }
  if (recipe.instructionsText != null) {
    // Steps given as one text holding a whole article: the page's list of those steps is more precise.
    const listed = listedStepsWithin(lines, recipe.instructionsText)
    if (listed != null) recipe.instructions = listed
  }
  const meta = extractHeuristics(page, context, lines)
  if (lacks(recipe)) {
    const embedded = extractEmbedded(page, recipe.title ?? meta.title ?? null)
    // Application state may hold a teaser of the steps (the first two): the page's own list of them is fuller.
    if (embedded?.instructions != null && embedded.instructions.length > 0 && (recipe.instructions == null || recipe.instructions.length === 0)) {
      embedded.instructions = pageStepsBeyond(lines, embedded.instructions) ?? embedded.instructions
    }
    fill(recipe, embedded)
  }
  fill(recipe, meta)
  const ingredients = (recipe.ingredients ?? []).slice(0, LIMITS.ingredients).map(toIngredient)
  const instructions: PreviewStep[] = (recipe.instructions ?? []).slice(0, LIMITS.steps).map((s, i) =>
    s.section == null ? { step: i + 1, text: s.text } : { step: i + 1, text: s.text, section: s.section })
  if (ingredients.length === 0 && instructions.length === 0) return null

  const prepTime = recipe.prepTime ?? null
  const cookTime = recipe.cookTime ?? null
  const totalTime = recipe.totalTime ?? (prepTime != null || cookTime != null ? (prepTime ?? 0) + (cookTime ?? 0) : null)
  return {
    title: recipe.title ?? '',
    description: recipe.description ?? null,
    ingredients,
    instructions,
    prepTime,
    cookTime,
    totalTime,
    servings: recipe.servings ?? null,
    yields: recipe.yields ?? null,
    imageUrl: recipe.imageUrl ?? null,
    cuisine: recipe.cuisine ?? null,
    category: recipe.category ?? null,
    tags: recipe.tags ?? [],
    author: recipe.author ?? null,
    nutrition: recipe.nutrition ?? null,
    language: recipe.language ?? null,
    sourceUrl
  }
}
