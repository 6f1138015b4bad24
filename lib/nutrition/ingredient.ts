// One ingredient line -> food, grams and nutrients. Quantities come from the parsed line (lib/ingredients.ts); units
// are mass (converted directly), volume (through the food's own cup/tbsp/tsp weights) or counts (its large, medium,
// clove, slice... weights). A weight the line states itself wins: "1 (14-ounce) can", "2 cups (250 g) flour",
// "4 x 120 g fillets".
import { parseIngredientLine } from '../ingredients.js'
import type { Food } from './foods.js'
import { matchFood } from './match.js'
import { COUNT_MEASURES, PHRASE_PIECE_GRAMS } from './measures.js'
import { addInto, unknownNutrients, type IngredientStatus, type Nutrients } from './nutrients.js'
import { GRAMS, MILLILITRES, unitKey, unitKind } from '../ingredient-vocabulary.js'

/** A stored ingredient (the canonical `{ text, name, quantity, quantity2, unit }`), or a plain line. */
export interface IngredientLine {
  text: string
  name: string
  quantity: number | null
  quantity2?: number | null
  unit: string | null
}

export interface IngredientNutrition {
  text: string
  /** The food the line was matched to. */
  matched: { foodId: string, description: string } | null
  /** The line's weight, when its quantity and unit convert (a mass converts even when the food is unknown). */
  grams: number | null
  status: IngredientStatus
  /** What the line adds to the recipe; null unless `status` is `ok`. */
  nutrients: Nutrients | null
}

/** A unit the line gives that no table knows. */
const UNKNOWN_UNIT = '?'

/** "Mlieko: 1 dl", "Sale fino 1 pizzico", "Limoni ½": the name first, then the quantity and unit. */
const NAME_FIRST = /^(\D{2,60}?):?\s+((?:\d[\d.,/ ]*|[½¼¾⅓⅔⅛])\s*(\S*))\s*$/
/** "1,5 kg": a decimal comma (a thousands separator has three digits after it). */
const DECIMAL_COMMA = /(\d),(\d{1,2})(?!\d)/

/**
 * A line as lib/ingredients.ts parses it, read again where that parser misses: a name written before its quantity,
 * and decimal commas ("Fragole 1,1 kg" is 1.1 kg, not 11).
 */
export function parseLine (text: string): IngredientLine {
  const line = parseIngredientLine(text)
  const found = NAME_FIRST.exec(line.text)
  const nameFirst = found != null && (line.quantity == null || (line.unit == null && unitKey(found[3]) != null)) ? found : null
  const reordered = nameFirst == null ? line.text : `${nameFirst[2]} ${nameFirst[1]}`
  const dotted = reordered.replace(new RegExp(DECIMAL_COMMA, 'g'), '$1.$2')
  if (dotted === line.text) return line
  const again = parseIngredientLine(dotted)
  return again.quantity == null ? line : { ...again, text: line.text }
}

/** Reads a stored ingredient (jsonb: trusted shape, but checked) or a plain string; null for anything else. */
export function ingredientLine (value: unknown): IngredientLine | null {
  if (typeof value === 'string') return value.trim() === '' ? null : parseLine(value)
  if (value == null || typeof value !== 'object') return null
  const o = value as Record<string, unknown>
  const num = (v: unknown) => typeof v === 'number' && Number.isFinite(v) ? v : null
  const str = (v: unknown) => typeof v === 'string' && v.trim() !== '' ? v.trim() : null
  const name = str(o.name)
  const text = str(o.text) ?? name
  if (text == null) return null
  const quantity = num(o.quantity)
  if (name == null || NAME_FIRST.test(text) || DECIMAL_COMMA.test(text)) return parseLine(text)
  return { text, name, quantity, quantity2: num(o.quantity2), unit: str(o.unit) }
}

/** A range means its middle; "1-1/2" parsed as the range 1..0.5 means 1 1/2; an implausible upper end is ignored. */
function amount (line: IngredientLine): number | null {
  const { quantity, quantity2 } = line
  if (quantity == null || quantity < 0) return null
  if (quantity2 == null || quantity2 === quantity) return quantity
  if (quantity2 > quantity) return quantity2 > 5 * quantity && quantity > 0 ? quantity : (quantity + quantity2) / 2
  if (quantity2 < 1 && Number.isInteger(quantity)) return quantity + quantity2
  return quantity
}

const MASS = String.raw`(\d+(?:[.,]\d+)?)\s*-?\s*(g|gr|grams?|kg|kilos?|oz|ounces?|lbs?|pounds?)\b\.?`
/** "(14-ounce)", "(175g)", "(about 2 pounds)": a weight in parentheses. */
const PAREN_MASS = new RegExp(String.raw`\(\s*(?:about\s+|approx\.?\s+|ca\.?\s+)?${MASS}\s*\)`, 'i')
/** "x 4.2oz salmon fillets": the weight of each piece, left in the name (lines parsed before lib/ingredients noted it). */
const EACH_MASS = new RegExp(String.raw`^x\s*${MASS}\s*`, 'i')
/** "4 x 120 g salmon fillets": the weight of each piece, after the count of the line. */
const COUNT_EACH_MASS = new RegExp(String.raw`^\s*\d+\s*[x×]\s*${MASS}`, 'i')

function massGrams (value: string, unit: string): number | null {
  const key = unitKey(unit)
  const grams = key == null ? undefined : GRAMS[key]
  return grams == null ? null : Number(value.replace(',', '.')) * grams
}

/** The unit and name once a unit the parser left in the name is taken out: "TB olive oil", "EL Öl", "fl. oz stock". */
function unitFromName (line: IngredientLine): { unit: string | null, name: string, each: number | null } {
  let name = line.name.trim()
  let each: number | null = null
  const perPiece = EACH_MASS.exec(name)
  if (perPiece != null) {
    each = massGrams(perPiece[1], perPiece[2])
    name = name.slice(perPiece[0].length)
  } else if (line.unit == null) {
    const stated = COUNT_EACH_MASS.exec(line.text)
    if (stated != null) each = massGrams(stated[1], stated[2])
  }
  // A unit we do not know ("2 inch ginger") stays a unit: the line is not a count of pieces.
  let unit = line.unit == null ? null : unitKey(line.unit) ?? UNKNOWN_UNIT
  const tokens = name.split(/\s+/)
  for (const n of [2, 1]) {
    if (tokens.length <= n) continue
    const key = unitKey(tokens.slice(0, n).join(' '))
    if (key == null) continue
    // Without a unit, the leading word is the unit ("3 EL Öl"); with one, a container word is only dropped ("15 oz can beans").
    if (unit == null || unitKind(key) === 'container' || key === 'can') {
      unit ??= key
      name = tokens.slice(n).join(' ')
    }
    break
  }
  return { unit, name, each }
}

/**
 * The weight the line states in parentheses: per piece when it comes before the name ("1 (14-ounce) can", "2 bags
 * (10 ounces)"), for the whole line after it ("8 chicken thighs (about 2 pounds)").
 */
function statedWeight (text: string): { grams: number, each: boolean } | null {
  const found = PAREN_MASS.exec(text)
  const grams = found == null ? null : massGrams(found[1], found[2])
  if (found == null || grams == null) return null
  const before = text.slice(0, found.index).toLowerCase().match(/\p{L}+\.?/gu) ?? []
  return { grams, each: before.every(word => unitKey(word) != null) }
}

function volumeGrams (food: Food, unit: string, count: number): number | null {
  const own = food.portions.get(unit)
  if (own != null) return own * count
  const ml = MILLILITRES[unit] * count
  for (const key of ['cup', 'tbsp', 'tsp', 'floz', 'pint', 'quart', 'gallon']) {
    const grams = food.portions.get(key)
    if (grams != null) return ml * grams / MILLILITRES[key]
  }
  return null
}

const PIECES = ['medium', 'each', 'fruit', 'piece', 'large', 'item', 'unit', 'small', 'clove', 'slice', 'link', 'fillet',
  'breast', 'thigh', 'stalk', 'ear', 'head', 'tortilla', 'sheet', 'pod', 'spear', 'bulb', 'strip', 'wedge', 'leaf']

/** Grams of one piece of the food: the name's own piece ("cherry tomato"), what a bare count of the food means, or its usual size. */
function pieceGrams (food: Food, phrase: string | undefined): number | null {
  const named = phrase == null ? undefined : PHRASE_PIECE_GRAMS.get(phrase)
  if (named != null) return named
  const measure = COUNT_MEASURES.get(food.id)
  const preferred = measure == null ? undefined : food.portions.get(measure)
  if (preferred != null) return preferred
  for (const key of PIECES) {
    const grams = food.portions.get(key)
    if (grams != null) return grams
  }
  return null
}

function countGrams (food: Food, phrase: string | undefined, unit: string | null, count: number): number | null {
  const piece = () => pieceGrams(food, phrase)
  if (unit === 'dozen') return mul(piece(), 12 * count)
  if (unit === 'xlarge') return mul(food.portions.get('xlarge') ?? food.portions.get('large') ?? piece(), count)
  if (unit === 'large' || unit === 'medium' || unit === 'small') return mul(food.portions.get(unit) ?? piece(), count)
  if (unit == null || unit === 'piece') return mul(piece(), count)
  return mul(food.portions.get(unit) ?? null, count)
}

const mul = (grams: number | null, count: number) => grams == null ? null : grams * count

function grams (line: IngredientLine, food: Food | null, phrase: string | undefined, unit: string | null, each: number | null): number | null {
  let count = amount(line)
  const kind = unit == null ? null : unitKind(unit)
  if (count == null) {
    // "a pinch of salt", "dash cayenne": one of the measure.
    if (kind !== 'volume' || !(unit === 'pinch' || unit === 'dash' || unit === 'drop')) return null
    count = 1
  }
  if (kind === 'mass') return count * GRAMS[unit!]
  if (each != null) return count * each
  const stated = statedWeight(line.text)
  if (stated != null) return kind !== 'volume' && stated.each ? count * stated.grams : stated.grams
  if (food == null || unit === UNKNOWN_UNIT) return null
  if (kind === 'volume') return volumeGrams(food, unit!, count)
  if (kind === 'container') return mul(food.portions.get(unit!) ?? null, count)
  return countGrams(food, phrase, unit, count)
}

/** Matches the line to a food, converts it to grams and computes what it adds. */
export function ingredientNutrition (line: IngredientLine): IngredientNutrition {
  const { unit, name, each } = unitFromName(line)
  const match = name === '' ? null : matchFood(name)
  const food = match?.food ?? null
  const weight = grams(line, food, match?.phrase, unit, each)
  const g = weight == null || !Number.isFinite(weight) ? null : weight
  const status: IngredientStatus = food == null ? 'unmatched' : amount(line) == null && g == null ? 'no-quantity' : g == null ? 'unit-unknown' : 'ok'
  return {
    text: line.text,
    matched: food == null ? null : { foodId: food.id, description: food.description },
    grams: g,
    status,
    nutrients: food != null && g != null ? addInto(unknownNutrients(), food.per100g, g / 100) : null
  }
}
