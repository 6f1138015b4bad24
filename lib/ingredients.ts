// Ingredients are free JSON; the canonical element is { text, name, quantity, unit, note, group }.
// Plain strings are parsed (mixed numbers, vulgar fractions, ranges) and always keep their original line in `text`.
import { parseIngredient, type ParseIngredientOptions } from 'parse-ingredient'
import { UNITS, type UnitDefinition } from './ingredient-vocabulary.js'

export interface Ingredient {
  text: string
  name: string
  quantity: number | null
  /** Upper end of a range such as "2-3 cloves". */
  quantity2?: number | null
  unit: string | null
  note: string | null
  group: string | null
}

function splitNote (description: string): { name: string, note: string | null } {
  // "flour, sifted" / "butter (softened)"
  const paren = /^(.*?)\s*\(([^)]*)\)\s*$/.exec(description)
  if (paren != null && paren[1] !== '') return { name: paren[1].trim(), note: paren[2].trim() || null }
  const comma = description.indexOf(',')
  if (comma > 0) return { name: description.slice(0, comma).trim(), note: description.slice(comma + 1).trim() || null }
  return { name: description.trim(), note: null }
}

// Sizes stay units ("2 large eggs": unit large): nutrition reads them as the food's portion (lib/nutrition).
// The units parse-ingredient does not know (jars, slices, handfuls, tins as cans...) come from the vocabulary
// (lib/ingredient-vocabulary.ts, `parsed`), so "2 jars pesto" names pesto and every unit the parser stores is one
// grocery lists and nutrition read.
const OPTIONS: ParseIngredientOptions = {
  additionalUOMs: Object.fromEntries(Object.entries(UNITS).flatMap(([key, unit]: [string, UnitDefinition]) => unit.parsed == null
    ? []
    : [[key, { short: key, plural: `${key}s`, alternates: unit.parsed, type: unit.kind === 'count' || unit.kind === 'container' ? 'count' as const : unit.kind }]]))
}

/**
 * Rewrites the forms the library misreads, before parsing: "1-1/2" (a mixed number, not a range), "1,5 kg" (a decimal
 * comma), "gr" (grams), "a pinch of" (one), "2 x 400g cans" (two cans, noted 400g), "4 x 120 g salmon fillets" (four
 * salmon fillets, noted 120 g: the name is the food, for grocery lists and search; lib/nutrition reads the weight of
 * each piece from the line).
 */
function rewrite (text: string): string {
  return text
    .replace(/^(\d+)\s*-\s*(\d+\/\d+)(?=\s)/, (whole, unit: string, fraction: string) => {
      const [n, d] = fraction.split('/').map(Number)
      return n < d ? `${unit} ${fraction}` : whole
    })
    .replace(/(\d),(\d{1,2})(?!\d)/g, '$1.$2')
    .replace(/(\d)\s*grs?\.?(?=\s)/i, '$1 g')
    .replace(/^an?\s+(?=(?:pinch|dash|splash|handful|bunch|sprig|knob|clove|can|tin|jar|cup|stick|slice|packet|package|head|sheet|piece)s?\s+of\s)/i, '1 ')
    .replace(/^(\d+)\s*[x×]\s*(\d[\d.]*\s*[a-z]{1,5})\s+(cans?|tins?|jars?|packs?|packets?|bottles?|bags?|boxe?s?|cartons?)\s+(.+)$/i, '$1 $3 $4 ($2)')
    .replace(/^(\d+)\s*[x×]\s*(\d[\d.]*\s*(?:g|kg|oz|lbs?)\.?)\s+([^()]+)$/i, '$1 $3 ($2)')
}

export function parseIngredientLine (line: string, group: string | null = null): Ingredient {
  const text = line.trim()
  const [parsed] = parseIngredient(rewrite(text), OPTIONS)
  if (parsed == null) return { text, name: text, quantity: null, unit: null, note: null, group }
  const notes: string[] = []
  let description = parsed.description
  // "1 (14 oz) can tomatoes", "1 cup (240 ml) water": a parenthesis before the name is a note; a unit may follow it.
  let unit = parsed.unitOfMeasureID ?? parsed.unitOfMeasure ?? null
  const leading = /^\(([^()]{1,60})\)\s*(.*)$/.exec(description)
  if (leading != null && leading[2] !== '') {
    notes.push(leading[1].trim())
    description = leading[2]
    if (unit == null) {
      const [again] = parseIngredient(`1 ${description}`, OPTIONS)
      if (again?.unitOfMeasureID != null) { unit = again.unitOfMeasureID; description = again.description }
    }
  }
  const { name, note } = splitNote(description)
  if (note != null) notes.push(note)
  return {
    text,
    name: name === '' ? text : name,
    quantity: parsed.quantity ?? null,
    quantity2: parsed.quantity2 ?? null,
    unit,
    note: notes.length > 0 ? notes.join(', ') : null,
    group
  }
}

const GROUP_HEADER = /^(?:for (?:the )?)?([^:]{1,60}):$/i

/** Normalises a submitted list: strings are parsed, objects completed; "For the sauce:" lines start a group. */
export function normalizeIngredients (items: unknown[]): Ingredient[] {
  const out: Ingredient[] = []
  let group: string | null = null
  for (const item of items) {
    if (typeof item === 'string') {
      const line = item.trim()
      if (line === '') continue
      const header = GROUP_HEADER.exec(line)
      if (header != null && !/\d/.test(line)) { group = header[1].trim(); continue }
      out.push(parseIngredientLine(line, group))
    } else if (item != null && typeof item === 'object') {
      const o = item as Record<string, unknown>
      const name = typeof o.name === 'string' ? o.name.trim() : ''
      const quantity = typeof o.quantity === 'number' && Number.isFinite(o.quantity) ? o.quantity : null
      const unit = typeof o.unit === 'string' && o.unit !== '' ? o.unit : null
      const note = typeof o.note === 'string' && o.note !== '' ? o.note : null
      const text = typeof o.text === 'string' && o.text.trim() !== ''
        ? o.text.trim()
        : [quantity, unit, name].filter(v => v != null && v !== '').join(' ') + (note != null ? `, ${note}` : '')
      if (name === '' && text === '') continue
      const parsed = name === '' ? parseIngredientLine(text) : null
      out.push({
        text,
        name: parsed?.name ?? name,
        quantity: quantity ?? parsed?.quantity ?? null,
        quantity2: typeof o.quantity2 === 'number' && Number.isFinite(o.quantity2) ? o.quantity2 : (parsed?.quantity2 ?? null),
        unit: unit ?? parsed?.unit ?? null,
        note: note ?? parsed?.note ?? null,
        group: typeof o.group === 'string' && o.group !== '' ? o.group : group
      })
    }
  }
  return out
}

/** What ingredient search matches: every line, lower-cased. */
export function ingredientsSearchText (ingredients: Array<Pick<Ingredient, 'text' | 'name'>>): string {
  return ingredients.map(i => `${i.text}\n${i.name}`.toLowerCase()).join('\n')
}
