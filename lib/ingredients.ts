// Ingredients are free JSON; the canonical element is { text, name, quantity, unit, note, group }.
// Plain strings are parsed (mixed numbers, vulgar fractions, ranges) and always keep their original line in `text`.
import { parseIngredient } from 'parse-ingredient'

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

export function parseIngredientLine (line: string, group: string | null = null): Ingredient {
  const text = line.trim()
  const [parsed] = parseIngredient(text)
  if (parsed == null) return { text, name: text, quantity: null, unit: null, note: null, group }
  const { name, note } = splitNote(parsed.description)
  return {
    text,
    name: name === '' ? text : name,
    quantity: parsed.quantity ?? null,
    quantity2: parsed.quantity2 ?? null,
    unit: parsed.unitOfMeasureID ?? parsed.unitOfMeasure ?? null,
    note,
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
