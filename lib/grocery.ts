// Grocery lists, the pure part: ingredient names normalised for merging (case, spacing, singular/plural), quantities
// summed in compatible units (volume with volume, mass with mass, counts with counts, through the sizes the
// vocabulary gives in ml, g and pieces), aisle categories from a keyword table, and the export formats (text, CSV,
// file names).
// Mass and volume never mix: without a density "200 g sugar" and "1 cup sugar" stay two items.
// The words (singular, units and their sizes, aisle keywords) are lib/ingredient-vocabulary.ts's, shared with
// nutrition and search.
import {
  AISLE_KEYWORDS, AISLE_MODIFIERS, AISLES, singular, unitDefinition, unitKey, type Aisle, type UnitName
} from './ingredient-vocabulary.js'

export { AISLES, type Aisle }

// ---------------------------------------------------------------------------------------------------------------
// Names

/**
 * The merge key of a name: NFKC, lower-case, punctuation to spaces, single spaces, every word singular. "Fresh
 * Tomatoes " and "fresh tomato" are one ingredient.
 */
export function normalizeName (name: string): string {
  return name.normalize('NFKC').toLowerCase()
    .replace(/[^\p{L}\p{N}&'\s-]+/gu, ' ')
    .replace(/['’]s\b/g, '')
    .split(/\s+/)
    .filter(Boolean)
    .map(singular)
    .join(' ')
}

// ---------------------------------------------------------------------------------------------------------------
// Aisles

export const AISLE_LABELS: Record<Aisle, string> = {
  produce: 'Produce',
  bakery: 'Bakery',
  meat: 'Meat & seafood',
  dairy: 'Dairy',
  frozen: 'Frozen',
  pantry: 'Pantry',
  spices: 'Spices & seasonings',
  beverages: 'Beverages',
  other: 'Other'
}

const isAisle = (value: string): value is Aisle => (AISLES as readonly string[]).includes(value)

/** A stored category as an aisle (anything unknown is `other`). */
export function aisleOf (value: string | null | undefined): Aisle {
  return value != null && isAisle(value) ? value : 'other'
}

/**
 * The keywords by their first word, each with its place in AISLE_KEYWORDS (the earlier wins a tie): a name is
 * matched by looking up each of its words, not by trying all 500 keywords at every word.
 */
const KEYWORDS_BY_FIRST_WORD = Map.groupBy(
  Object.entries(AISLE_KEYWORDS)
    .flatMap(([aisle, keywords]) => keywords.map(keyword => ({ words: normalizeName(keyword).split(' '), aisle: aisleOf(aisle) })))
    .map((keyword, rank) => ({ ...keyword, rank })),
  keyword => keyword.words[0])

/**
 * The aisle of an ingredient, from its name: the most specific keyword wins (more words first, then a keyword that
 * ends the name, as the head noun of "chicken broth" is broth); a leading modifier (frozen, canned, dried) decides
 * unless a phrase of two words or more names the thing itself ("dried oregano" is a spice). Unknown: `other`.
 */
export function aisleFor (name: string): Aisle {
  const words = normalizeName(name).split(' ').filter(Boolean)
  if (words.length === 0) return 'other'
  let best: { score: number, rank: number, aisle: Aisle } | null = null
  for (let i = 0; i < words.length; i++) {
    for (const { words: keyword, aisle, rank } of KEYWORDS_BY_FIRST_WORD.get(words[i]) ?? []) {
      if (i + keyword.length > words.length || !keyword.every((word, j) => words[i + j] === word)) continue
      const score = keyword.length * 10 + (i + keyword.length === words.length ? 5 : 0)
      if (best == null || score > best.score || (score === best.score && rank < best.rank)) best = { score, rank, aisle }
    }
  }
  const modifier = Object.hasOwn(AISLE_MODIFIERS, words[0]) ? AISLE_MODIFIERS[words[0]] : undefined
  if (modifier != null && words.length > 1 && (best == null || best.score < 25)) return modifier
  return best?.aisle ?? 'other'
}

// ---------------------------------------------------------------------------------------------------------------
// Units

type Dimension = 'volume' | 'mass' | 'count'

/** A unit a shopping list sums: its dimension, its key and how much of the base unit (ml, g, piece) it holds. */
interface Measured { dimension: Dimension, unit: UnitName, base: number }

/**
 * A unit a shopping list sums (volumes, masses, pieces, dozens), or null for the others (cloves, cans, pinches,
 * sizes...). No unit is a count of pieces.
 */
export function measuredUnit (unit: string | null | undefined): Measured | null {
  if (unit == null || unit.trim() === '') return { dimension: 'count', unit: 'piece', base: 1 }
  const key = unitKey(unit)
  if (key == null) return null
  const { kind, amount, shopping } = unitDefinition(key)
  if (shopping !== true || kind === 'container' || amount == null) return null
  return { dimension: kind, unit: key, base: amount }
}

/** How a unit reads on a list. */
const unitLabel = (unit: UnitName) => unitDefinition(unit).label ?? unit

/** Rounds for reading: three significant digits below 100, whole numbers above. */
export function roundQuantity (value: number): number {
  if (!Number.isFinite(value)) return 0
  if (Math.abs(value) >= 100) return Math.round(value)
  return Number(value.toPrecision(3))
}

/** Within 1% of a multiple of `step` (parsed fractions such as 1/3 arrive as 0.333). */
const isMultipleOf = (value: number, step: number) => Math.abs(value / step - Math.round(value / step)) < 0.01

/**
 * A readable unit for a sum, given in the base unit of its dimension (ml or g) and the unit of its largest
 * contribution (which decides metric or US units): 1 tbsp + 1 cup is 1.06 cup, 2 tsp + 2 tsp is 4 tsp, 6 tsp is
 * 2 tbsp, 16 tbsp is 1 cup, 1,500 ml is 1.5 l, 1,200 g is 1.2 kg, 20 oz is 1.25 lb.
 */
function readable (dimension: 'volume' | 'mass', base: number, largest: UnitName, units: Set<string>, system?: UnitSystem): { quantity: number, unit: string } {
  const inUnit = (unit: UnitName) => base / unitDefinition(unit).amount!
  const pick = (unit: UnitName) => ({ quantity: roundQuantity(inUnit(unit)), unit: unitLabel(unit) })
  const metric = system == null ? unitDefinition(largest).system === 'metric' : system === 'metric'
  if (dimension === 'volume') {
    if (metric) return inUnit('l') >= 1 ? pick('l') : pick('ml')
    // Big US units given by the recipes themselves stay (a quart of stock), when there is at least one of them.
    for (const big of ['gallon', 'quart', 'pint'] as const) if (units.has(big) && inUnit(big) >= 1) return pick(big)
    if (units.size === 1 && units.has('floz')) return pick('floz')
    // From a quarter cup on, cups to the hundredth: 1 tbsp + 1/2 cup reads 0.56 cup, not 9 tbsp.
    const cups = inUnit('cup')
    if (cups >= 0.25) return { quantity: Math.round(cups * 100) / 100, unit: 'cup' }
    const tbsp = inUnit('tbsp')
    if (tbsp >= 1 && isMultipleOf(tbsp, 0.5)) return pick('tbsp')
    if (tbsp >= 1 && !units.has('tsp')) return pick('tbsp')
    return pick('tsp')
  }
  if (metric) {
    if (inUnit('kg') >= 1) return pick('kg')
    return inUnit('g') >= 1 ? pick('g') : pick('mg')
  }
  const pounds = inUnit('lb')
  if (pounds >= 4 || (pounds >= 1 && isMultipleOf(pounds, 0.25))) return pick('lb')
  return pick('oz')
}

// ---------------------------------------------------------------------------------------------------------------
// Merging

/** How a list states volumes and masses: metric (ml, l, g, kg) or US (tsp, tbsp, cup, oz, lb). */
export const UNIT_SYSTEMS = ['metric', 'imperial'] as const
export type UnitSystem = typeof UNIT_SYSTEMS[number]

/** Amounts nobody buys by: a pinch of salt is "salt" on a list. */
const CASUAL_UNITS = new Set(['pinch', 'pinche', 'dash', 'smidgen', 'sprinkle', 'splash', 'drizzle', 'touch', 'hint'])
/** "to taste", "as needed", "for serving"...: said of an ingredient, not part of its name. */
const CASUAL_PHRASE = /[\s,(]*\b(to taste|as (?:needed|required|desired)|for (?:serving|garnish(?:ing)?|greasing|dusting|the pan)|optional)\b\)?\s*$/i

/**
 * A line without an amount to buy by (no quantity, or a pinch/dash): its name without the casual phrase, and the
 * phrases as notes. "pinch of salt", "salt to taste" and "Salt, to taste" are all "salt".
 */
function casualLine (name: string, text: string, unit: string | null | undefined, hasQuantity: boolean): { name: string, notes: string[] } | null {
  const casualUnit = unit != null && CASUAL_UNITS.has(singular(unit.trim().toLowerCase()))
  if (hasQuantity && !casualUnit) return null
  let base = (name !== '' ? name : text).trim()
  const notes: string[] = casualUnit ? [singular(unit.trim().toLowerCase())] : []
  // At most two trailing phrases ("salt, to taste, optional"), looked for in the last 40 characters only: the regex
  // never runs over a whole (outside) line.
  for (let i = 0; i < 2; i++) {
    const tail = base.slice(-40)
    const phrase = CASUAL_PHRASE.exec(tail)
    if (phrase == null || (phrase.index === 0 && tail.length === base.length)) break
    notes.unshift(phrase[1].toLowerCase())
    base = base.slice(0, base.length - tail.length + phrase.index).trim()
  }
  return base === '' ? null : { name: base, notes }
}

/** One ingredient line of a recipe, as lib/ingredients.ts stores it (only what merging reads). */
export interface IngredientLike {
  text?: string | null
  name?: string | null
  quantity?: number | null
  quantity2?: number | null
  unit?: string | null
  note?: string | null
}

/**
 * An ingredient line with the factor its recipe is scaled by (planned servings / recipe servings) and, when it comes
 * from a recipe, that recipe's id.
 */
export interface Contribution { ingredient: IngredientLike, factor: number, recipeId?: string }

export interface GroceryLine {
  name: string
  quantity: number | null
  unit: string | null
  category: Aisle
  note: string | null
  /** The recipes the line came from, in the order of the contributions (at most GROCERY_SOURCES_PER_LINE). */
  sourceRecipeIds: string[]
}

/** Bounds of stored text (schemas/grocery.ts documents them). */
export const GROCERY_TEXT_LIMITS = { name: 200, unit: 30, note: 500 } as const
/** The recipes a line names (a plan can hold hundreds of meals; salt in all of them is one line naming the first). */
export const GROCERY_SOURCES_PER_LINE = 20

const clip = (text: string, max: number) => [...text].length <= max ? text : [...text].slice(0, max - 1).join('') + '…'

interface Group {
  name: string
  kind: 'measured' | 'other' | 'text'
  dimension?: Dimension
  /** Base units (ml, g, each) for measured groups; the plain sum for others. */
  total: number
  unit: string | null
  /** The unit of the largest contribution (measured groups), and every unit seen. */
  largest?: { unit: UnitName, base: number }
  units: Set<string>
  notes: string[]
  sources: string[]
}

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value)

/**
 * Merges ingredient lines across recipes into shopping lines:
 * - each quantity is scaled by its factor; a range ("2-3 cloves") counts its upper end (enough to cook with);
 * - the same ingredient (normalised name) in compatible units is summed: volumes with volumes, masses with masses,
 *   counts with counts (a dozen is 12); mass and volume are kept apart (no densities);
 * - other units (cloves, cans, pinches) sum only with the same unit;
 * - lines without an amount to buy by (no quantity, a pinch or dash, "to taste", "for serving") are one line per
 *   ingredient, the phrases kept as notes: "pinch of salt" and "salt to taste" are "salt" (notes "pinch; to taste");
 * - notes of merged lines are kept, distinct, joined with "; ";
 * - each line names the recipes it came from (distinct, first seen first).
 * Lines come back in aisle order, then by name.
 */
export function mergeIngredients (contributions: Contribution[], options: { units?: UnitSystem } = {}): GroceryLine[] {
  const groups = new Map<string, Group>()
  for (const { ingredient, factor, recipeId } of contributions) {
    const name = (ingredient.name ?? '').trim()
    const text = (ingredient.text ?? '').trim()
    const upper = finite(ingredient.quantity2) && finite(ingredient.quantity) && ingredient.quantity2 > ingredient.quantity ? ingredient.quantity2 : ingredient.quantity
    const scale = finite(factor) && factor > 0 ? factor : 1
    const notes = ingredient.note?.trim() ? [ingredient.note.trim()] : []
    const hasQuantity = finite(upper) && upper > 0 && name !== ''
    const casual = casualLine(name, text, ingredient.unit, hasQuantity)
    let key: string
    let group: Group
    if (!hasQuantity || casual != null) {
      const line = casual?.name ?? (text !== '' ? text : name)
      if (line === '') continue
      notes.unshift(...(casual?.notes ?? []))
      key = `text|${normalizeName(line)}`
      group = groups.get(key) ?? { name: line, kind: 'text', total: 0, unit: null, units: new Set(), notes: [], sources: [] }
    } else {
      const measured = measuredUnit(ingredient.unit)
      const quantity = upper * scale
      if (measured != null) {
        key = `${measured.dimension}|${normalizeName(name)}`
        group = groups.get(key) ?? { name, kind: 'measured', dimension: measured.dimension, total: 0, unit: null, units: new Set(), notes: [], sources: [] }
        const base = quantity * measured.base
        group.total += base
        group.units.add(measured.unit)
        if (group.largest == null || base > group.largest.base) group.largest = { unit: measured.unit, base }
      } else {
        const unit = normalizeName(ingredient.unit ?? '')
        key = `unit:${unit}|${normalizeName(name)}`
        group = groups.get(key) ?? { name, kind: 'other', total: 0, unit, units: new Set(), notes: [], sources: [] }
        group.total += quantity
      }
    }
    for (const note of notes) if (!group.notes.includes(note)) group.notes.push(note)
    if (recipeId != null && group.sources.length < GROCERY_SOURCES_PER_LINE && !group.sources.includes(recipeId)) group.sources.push(recipeId)
    groups.set(key, group)
  }

  const lines = [...groups.values()].map((group): GroceryLine => {
    let quantity: number | null = null
    let unit: string | null = null
    if (group.kind === 'other') {
      quantity = roundQuantity(group.total)
      unit = group.unit
    } else if (group.kind === 'measured') {
      if (group.dimension === 'count') quantity = roundQuantity(group.total)
      else ({ quantity, unit } = readable(group.dimension!, group.total, group.largest!.unit, group.units, options.units))
    }
    const note = group.notes.length === 0 ? null : clip(group.notes.join('; '), GROCERY_TEXT_LIMITS.note)
    return {
      name: clip(group.name, GROCERY_TEXT_LIMITS.name),
      quantity,
      unit: unit == null || unit === '' ? null : clip(unit, GROCERY_TEXT_LIMITS.unit),
      category: aisleFor(group.name),
      note,
      sourceRecipeIds: group.sources
    }
  })
  return sortByAisle(lines)
}

// What localeCompare(other, 'en', { sensitivity: 'base' }) and localeCompare(other) compare with, built once:
// localeCompare with a locale or options looks its collator up on every call (most of a 40-item list's sort).
const byName = new Intl.Collator('en', { sensitivity: 'base' })
const byUnit = new Intl.Collator()

/** Aisle order, then name (case-insensitive), then unit. */
export function sortByAisle<T extends { category: Aisle, name: string, unit?: string | null }> (lines: T[]): T[] {
  const order = (aisle: Aisle) => AISLES.indexOf(aisle)
  return [...lines].sort((a, b) => order(a.category) - order(b.category) ||
    byName.compare(a.name, b.name) || byUnit.compare(a.unit ?? '', b.unit ?? ''))
}

/** The factor a planned meal scales its recipe by: planned servings / recipe servings, 1 when either is missing. */
export function servingsFactor (planned: number | null | undefined, recipe: number | null | undefined): number {
  if (!finite(planned) || !finite(recipe) || planned <= 0 || recipe <= 0) return 1
  return planned / recipe
}

// ---------------------------------------------------------------------------------------------------------------
// Export

export interface ExportItem {
  name: string
  quantity: number | null
  unit: string | null
  category: Aisle
  checked: boolean
  note: string | null
}

/** "1.5", "0.333", "12". */
export function formatQuantity (quantity: number | null): string {
  if (quantity == null) return ''
  return String(roundQuantity(quantity))
}

/** "1.5 cup flour", "3 egg", "salt to taste". */
export function itemLine (item: Pick<ExportItem, 'name' | 'quantity' | 'unit'>): string {
  return [formatQuantity(item.quantity), item.unit ?? '', item.name].filter(part => part !== '').join(' ')
}

/** A value on one line of a text file: line breaks and tabs become spaces. */
const oneLine = (text: string) => text.replace(/[\r\n\t\v\f\u0085\u2028\u2029]+/g, ' ').trim()

/**
 * The list as plain text: the name underlined, then one block per aisle with "[ ]" / "[x]" lines, notes in
 * parentheses. Lines end with "\n".
 */
export function toText (name: string, items: ExportItem[]): string {
  const title = oneLine(name)
  const out = [title, '='.repeat(Math.max(3, [...title].length)), '']
  if (items.length === 0) out.push('(no items)', '')
  for (const aisle of AISLES) {
    const inAisle = items.filter(item => item.category === aisle)
    if (inAisle.length === 0) continue
    out.push(AISLE_LABELS[aisle])
    for (const item of inAisle) {
      const note = item.note == null || item.note.trim() === '' ? '' : ` (${oneLine(item.note)})`
      out.push(`[${item.checked ? 'x' : ' '}] ${oneLine(itemLine(item))}${note}`)
    }
    out.push('')
  }
  return out.join('\n')
}

/** Characters that make a spreadsheet read a cell as a formula (or a DDE command). */
const FORMULA_START = /^[=+\-@\t\r]/

/**
 * One CSV cell: a cell a spreadsheet would run as a formula gets a leading apostrophe (OWASP CSV injection), then
 * RFC 4180 quoting (quotes doubled; quoted when it holds a quote, comma or line break).
 */
export function csvCell (value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

export const CSV_HEADER = ['Name', 'Quantity', 'Unit', 'Category', 'Checked', 'Note'] as const

/** The list as RFC 4180 CSV: a header row, one row per item, CRLF line ends (the last line too). */
export function toCsv (items: ExportItem[]): string {
  const rows = [CSV_HEADER.map(csvCell).join(',')]
  for (const item of items) {
    rows.push([
      item.name, formatQuantity(item.quantity), item.unit ?? '', AISLE_LABELS[item.category], item.checked ? 'yes' : 'no', item.note ?? ''
    ].map(csvCell).join(','))
  }
  return rows.join('\r\n') + '\r\n'
}

const FILE_NAME_MAX = 80

/**
 * The Content-Disposition of a download named after the list: `filename` is an ASCII slug (letters, digits and
 * hyphens only: no quotes, line breaks or path characters), with `filename*` (RFC 6266 / RFC 8187, UTF-8) added when
 * the name has characters ASCII cannot show.
 */
export function contentDisposition (name: string, extension: string, fallback = 'grocery-list'): string {
  const unicode = [...name.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '')]
    .slice(0, FILE_NAME_MAX).join('').replace(/-+$/, '')
  const ascii = name.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '').slice(0, FILE_NAME_MAX).replace(/-+$/, '')
  const plain = `${ascii === '' ? fallback : ascii}.${extension}`
  let header = `attachment; filename="${plain}"`
  if (unicode !== '' && unicode !== ascii) {
    const encoded = encodeURIComponent(`${unicode}.${extension}`).replace(/['()*]/g, c => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    header += `; filename*=UTF-8''${encoded}`
  }
  return header
}
