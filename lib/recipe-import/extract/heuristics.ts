// Page heuristics for pages without structured data (and to fill what the structured data lacks): the page's lines
// (page-lines.ts), its sections (sections.ts), labelled times and yields (labels.ts) and its head (page-meta.ts) make
// a recipe. Where the structured data gives only part of a list the page shows, the page's list is taken (the
// refinements below, called by index.ts).
import { cleanText, LIMITS, truncate } from './clean.js'
import type { Page } from './dom.js'
import { groupName, ingredientsFromLines, startsWithQuantity, stepsFromLines, stripNumbering } from './lines.js'
import type { PageContext, RawIngredient, RawRecipe, RawStep } from './types.js'
import type { Line } from './page-lines.js'
import { NOISE, type Section, betterOf, findSection, headingKind, isSubheading, listAfter, orderedListAnywhere, proseAfter } from './sections.js'
import { labelled } from './labels.js'
import { letters, pageMeta } from './page-meta.js'

function ingredientsOfSection (section: Section): RawIngredient[] {
  const result: RawIngredient[] = []
  // Lines are grouped by their heading; "For the sauce:" lines inside a group still start a group.
  let group: string | null = null
  let pending: string[] = []
  for (const line of section.lines) {
    if (line.group !== group) {
      result.push(...ingredientsFromLines(pending, group))
      pending = []
      group = line.group
    }
    pending.push(cleanText(line.text, LIMITS.line))
  }
  result.push(...ingredientsFromLines(pending, group))
  return result.slice(0, LIMITS.ingredients)
}

function stepsOfSection (section: Section): RawStep[] {
  const result: RawStep[] = []
  let group: string | null = null
  let pending: string[] = []
  for (const line of section.lines) {
    if (line.group !== group) {
      result.push(...stepsFromLines(pending, group ?? undefined))
      pending = []
      group = line.group
    }
    pending.push(cleanText(line.text, LIMITS.line))
  }
  result.push(...stepsFromLines(pending, group ?? undefined))
  return result.slice(0, LIMITS.steps)
}

/**
 * The page's list items that are found in `text` (steps given as one text that also holds an article's prose,
 * links and tips): each a step, under the heading before it. Null when they cover too little of the text.
 */
export function listedStepsWithin (lines: Line[], text: string): RawStep[] | null {
  const whole = letters(text.slice(0, 100_000))
  if (whole.length < 40) return null
  const found: Array<{ step: RawStep, ordered: boolean, length: number }> = []
  const seen = new Set<string>()
  let section: string | undefined
  let skipping = false
  let checked = 0
  for (const line of lines) {
    if (isSubheading(line)) {
      // Lists under "Notes" or "More recipes" are not steps even when the text repeats them.
      skipping = headingKind(line) === 'stop'
      section = groupName(line.text)
      continue
    }
    if (skipping || !line.item || line.link || line.text.length < 15 || checked++ > 1000) continue
    const key = letters(line.text)
    if (key.length < 10 || seen.has(key) || !whole.includes(key)) continue
    seen.add(key)
    const text = stripNumbering(cleanText(line.text, LIMITS.line))
    found.push({ step: section == null ? { text } : { text, section }, ordered: line.ordered, length: key.length })
    if (found.length >= LIMITS.steps) break
  }
  // Steps are a numbered list when the page has one.
  const ordered = found.filter(f => f.ordered)
  const chosen = ordered.length >= 2 ? ordered : found
  const covered = chosen.reduce((n, f) => n + f.length, 0)
  return chosen.length >= 2 && covered >= whole.length * 0.25 ? chosen.map(f => f.step) : null
}

/**
 * Groups for ingredients that came without them (schema.org has no groups): the heading each line sits under in the
 * page's ingredient list, when the page groups them (two groups or more) and shows at least half of the lines.
 */
export function pageGroups (lines: Line[], ingredients: RawIngredient[]): RawIngredient[] | null {
  const section = findSection(lines, 'ingredients')
  if (section == null) return null
  const page = section.lines.map(l => ({ key: letters(l.text), group: l.group }))
  const groups = new Set<string>()
  let matched = 0
  const out = ingredients.map(ingredient => {
    const key = letters(ingredient.text)
    if (key.length < 3) return ingredient
    const hit = page.find(p => p.key === key) ?? page.find(p => p.key.includes(key))
    if (hit == null) return ingredient
    matched++
    if (hit.group != null) groups.add(hit.group)
    return { ...ingredient, group: hit.group }
  })
  return groups.size >= 2 && matched >= ingredients.length / 2 ? out : null
}

const MAX_COMPARED = 50

/** How many of `keys` some line of `page` contains. */
function containedCount (keys: string[], page: string[]): number {
  let found = 0
  for (const key of keys) if (page.some(p => p.includes(key))) found++
  return found
}

/**
 * The page's own list of ingredients when the structured data gives a part of it: every structured line is on the
 * page, and the page shows more lines, each with a quantity (a group the data left out), or the same lines with
 * quantities the data lacks; or the page's lines match the data's line for line and say more (richer). Null when the
 * structured lines look complete, or when the page's list carries anything else (nutrition tables, scaled copies of
 * the list, notes): then the structured data is the cleaner source.
 */
export function pageIngredientsBeyond (lines: Line[], ingredients: RawIngredient[]): RawIngredient[] | null {
  // (A list the data shortened is a short list: the comparison stays small.)
  if (ingredients.length === 0 || ingredients.length > MAX_COMPARED) return null
  const section = findSection(lines, 'ingredients')
  if (section == null) return null
  const page = ingredientsOfSection(section)
  const keys = ingredients.map(i => letters(i.text)).filter(k => k.length >= 3)
  const pageKeys = page.map(i => letters(i.text))
  if (keys.length === 0 || page.length > ingredients.length * 2.5 || new Set(pageKeys).size < page.length * 0.9) return null
  if (richer(page, ingredients)) return page
  if (containedCount(keys, pageKeys) < keys.length * 0.9) return null
  const extra = page.filter((_, i) => !keys.some(k => pageKeys[i].includes(k)))
  const more = extra.length >= 2 && extra.every(i => startsWithQuantity(i.text) && i.text.length <= 120) &&
    page.length >= ingredients.length * 1.2
  const amounts = extra.length <= 1 && page.length <= ingredients.length + 1 &&
    ingredients.every(i => !/\d/.test(i.text)) && page.filter(i => startsWithQuantity(i.text)).length >= page.length / 2
  return more || amounts ? page : null
}

/** The words of a line, numbers left out. */
const wordsOf = (text: string): string[] => text.toLowerCase().match(/\p{L}{2,}/gu)?.slice(0, 50) ?? []

/**
 * The page's lines say more than the data's, line for line: as many lines, each holding most of the words of the
 * data's line, and words or amounts the data left out ("thinly sliced", a note, "2 tsp" before "dijon mustard").
 * The same lines with amounts in a second unit ("1 cup (240 g)") add nothing: the data is as good.
 */
function richer (page: RawIngredient[], ingredients: RawIngredient[]): boolean {
  if (page.length !== ingredients.length || page.length < 2) return false
  let added = 0
  let total = 0
  for (let i = 0; i < page.length; i++) {
    if (page[i].text.length > 250) return false
    const key = letters(page[i].text)
    const own = letters(ingredients[i].text)
    const words = wordsOf(ingredients[i].text)
    if (words.filter(w => key.includes(w)).length < words.length * 0.6) return false
    total += words.length
    added += wordsOf(page[i].text.replace(/\([^()]*\)/g, ' ')).filter(w => w.length >= 3 && !own.includes(w)).length
    if (!/[\d½¼¾⅓⅔⅛⅜⅝⅞]/.test(ingredients[i].text) && startsWithQuantity(page[i].text)) added += 2
  }
  return added >= Math.max(2, total * 0.1)
}

/**
 * The page's own steps when the structured data gives a few of them: every structured step is in the page's steps,
 * which are twice as many and hold three times the text. Null when the structured steps look complete.
 */
export function pageStepsBeyond (lines: Line[], steps: RawStep[]): RawStep[] | null {
  if (steps.length === 0 || steps.length > MAX_COMPARED) return null
  const section = findSection(lines, 'instructions')
  if (section == null) return null
  const page = stepsOfSection(section)
  const keys = steps.map(s => letters(s.text)).filter(k => k.length >= 3)
  const pageText = letters(page.map(s => s.text).join(' ').slice(0, 100_000))
  const length = keys.reduce((n, k) => n + k.length, 0)
  if (keys.length === 0 || containedCount(keys, [pageText]) < keys.length * 0.9) return null
  return page.length >= steps.length * 2 + 2 && pageText.length >= length * 3 ? page : null
}

const MAX_TITLE = 80
const MAX_BODY_LINES = 20

/**
 * Steps the structured data gives as their titles only ("Cook the rice noodles", "Serve"): each title the page shows,
 * in order, with the text under it up to the next title (or, for the last, up to the next heading). Null unless every
 * title is found with text under it, and the text says three times more than the titles.
 */
export function pageStepsUnderTitles (lines: Line[], steps: RawStep[]): RawStep[] | null {
  if (steps.length < 2 || steps.length > MAX_COMPARED) return null
  if (steps.some(s => s.text.length > MAX_TITLE || /[.!?。]$/.test(s.text))) return null
  const keys = steps.map(s => letters(s.text))
  const out: RawStep[] = []
  let titleChars = 0
  let bodyChars = 0
  let j = 0
  for (let i = 0; i < steps.length; i++) {
    while (j < lines.length && letters(lines[j].text) !== keys[i]) j++
    if (j >= lines.length) return null
    const body: string[] = []
    let k = j + 1
    for (; k < lines.length && body.length < MAX_BODY_LINES; k++) {
      const line = lines[k]
      const key = letters(line.text)
      if (key === keys[i + 1] || line.level > 0 || headingKind(line) != null) break
      if (!NOISE.test(line.text) && !line.link) body.push(cleanText(line.text, LIMITS.line))
    }
    if (body.length === 0) return null
    titleChars += steps[i].text.length
    bodyChars += body.reduce((n, b) => n + b.length, 0)
    const text = truncate(`${steps[i].text}: ${body.join(' ')}`, LIMITS.line)
    out.push(steps[i].section == null ? { text } : { text, section: steps[i].section })
    j = k
  }
  return bodyChars >= titleChars * 3 ? out : null
}

/**
 * What the page itself shows: meta tags, and with `lines` (the page read by pageLines) the ingredients and steps under
 * their headings and labelled times and yields.
 */
export function extractHeuristics (page: Page, context: PageContext, lines: Line[] | null): RawRecipe {
  const out = pageMeta(page, context)
  if (lines == null) return out
  const listed = findSection(lines, 'ingredients')
  const steps = findSection(lines, 'instructions', listed?.end)
  // With steps under their heading the page is a recipe: a list of quantities without measures is its ingredients.
  const ingredients = betterOf(listed, lines, steps != null)
  const instructions = steps ??
    (ingredients == null ? null : (listAfter(lines, ingredients) ?? proseAfter(lines, ingredients) ?? orderedListAnywhere(lines, ingredients)))
  if (ingredients != null) {
    const result = ingredientsOfSection(ingredients)
    if (result.length > 0) out.ingredients = result
  }
  if (instructions != null) {
    const result = stepsOfSection(instructions)
    if (result.length > 0) out.instructions = result
  }
  // Times and yields are read above the end of the recipe, not from the related recipes below it.
  const end = Math.max(ingredients?.end ?? -1, instructions?.end ?? -1)
  Object.assign(out, labelled(lines, 0, end < 0 ? lines.length : end + 1))
  return out
}
