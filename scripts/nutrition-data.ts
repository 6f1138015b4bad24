// `node --import tsx scripts/nutrition-data.ts [sourceDir]`: derives lib/nutrition/foods.json from the USDA SR28
// extract in ../shared/data/nutrition (foods.csv, portions.csv; see its README.md). Run it again when the source or the
// rules below change, and commit the output: the service reads only lib/nutrition/foods.json, never the CSV files.
//
// What is kept, and why (the file ships with the service, so it stays small):
// - Foods: every SR28 food except the groups that are dishes rather than ingredients (baby foods, fast foods,
//   restaurant foods, meals/entrees, American Indian/Alaska Native foods) and brand-name products (an upper-case word
//   in the description: "KRAFT", "CAMPBELL'S"). In the meat, fish and vegetable groups only uncooked forms are kept
//   (recipes list them raw; the many "cooked, braised" cut variants would only add wrong candidates). Every food the
//   synonym list names is kept whatever these rules say. Meat cuts graded choice, select or prime give way to their
//   "all grades" row, and dishes "prepared from recipe" are left out (a recipe's own ingredients describe those).
// - Nutrients per 100 g, rounded: kcal, sodium and cholesterol to whole units, grams to 0.1 g.
//   An empty SR28 cell stays null (unknown, not zero).
// - Portions: one gram weight per normalised household measure (cup, tbsp, tsp, floz, pint, quart, large, medium,
//   small, piece, slice, clove, stick...), the first of SR28's sequence for each, and `each` for a measure named after
//   the food ("1 avocado"); ounces and pounds are not kept (they are mass units), nor servings, packages and
//   brand-specific measures. lib/nutrition/measures.ts completes these at run time.
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'csv-parse/sync'
import { FOOD_COLUMNS } from '../lib/nutrition/nutrients.js'
import { synonymFoodIds } from '../lib/nutrition/synonyms.js'
import { words } from '../lib/nutrition/text.js'
import { PORTION_KEYS, portionKey } from '../lib/nutrition/units.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const source = path.resolve(process.argv[2] ?? path.join(here, '../../shared/data/nutrition'))
const out = path.join(here, '../lib/nutrition/foods.json')

const EXCLUDED_GROUPS = new Set([
  'Baby Foods', 'Fast Foods', 'Restaurant Foods', 'Meals, Entrees, and Side Dishes', 'American Indian/Alaska Native Foods'
])
/** Groups where only uncooked forms are kept. */
const RAW_ONLY_GROUPS = new Set([
  'Beef Products', 'Pork Products', 'Lamb, Veal, and Game Products', 'Poultry Products', 'Finfish and Shellfish Products',
  'Vegetables and Vegetable Products'
])
const COOKED = /\b(cooked|boiled|braised|broiled|roasted|fried|grilled|stewed|microwaved|steamed|simmered|baked|rotisserie|pan-browned|heated)\b/i
const BRAND = /\b[A-Z][A-Z'&-]{2,}\b/
const GRADED = /\b(choice|select|prime)\b/
const FROM_RECIPE = /prepared from recipe/i

interface FoodCsv {
  id: string
  description: string
  category: string
  kcal: string
  protein_g: string
  fat_g: string
  carbs_g: string
  fiber_g: string
  sugars_g: string
  sodium_mg: string
  saturated_fat_g: string
  cholesterol_mg: string
}
interface PortionCsv { food_id: string, amount: string, unit: string, modifier: string, grams: string }

const read = <T>(file: string): T[] => parse(readFileSync(path.join(source, file), 'utf8'), { columns: true, skip_empty_lines: true })

function rounded (value: string, digits: number): number | null {
  if (value.trim() === '') return null
  const n = Number(value)
  if (!Number.isFinite(n)) throw new Error(`not a number: ${value}`)
  const f = 10 ** digits
  return Math.round(n * f) / f
}

const foods = read<FoodCsv>('foods.csv')
const portions = read<PortionCsv>('portions.csv')
if (foods.length !== 8789 || portions.length !== 15438) throw new Error(`unexpected row counts: ${foods.length} foods, ${portions.length} portions`)

const forced = synonymFoodIds()
const known = new Set(foods.map(f => f.id))
const missing = [...forced].filter(id => !known.has(id))
if (missing.length > 0) throw new Error(`synonyms name foods SR28 does not have: ${missing.join(', ')}`)

function kept (food: FoodCsv): boolean {
  if (forced.has(food.id)) return true
  if (EXCLUDED_GROUPS.has(food.category)) return false
  if (BRAND.test(food.description.replace(/\bUSDA\b|\bNFS\b|\bUHT\b/g, ''))) return false
  if (RAW_ONLY_GROUPS.has(food.category) && (COOKED.test(food.description) || GRADED.test(food.description))) return false
  if (FROM_RECIPE.test(food.description)) return false
  return true
}

const descriptionWords = new Map(foods.map(f => [f.id, new Set(words(f.description))]))

/**
 * The portion key of an SR28 measure: a household measure (portionKey), or `each` for a measure named after the food
 * itself ("1 avocado", "1 pepper" of jalapeños, "1 steak").
 */
function measureKey (p: PortionCsv): string | null {
  const key = portionKey(p.unit)
  if (key != null) return key
  const [first] = words(p.unit)
  return first != null && descriptionWords.get(p.food_id)?.has(first) === true ? 'each' : null
}

/** Grams of one unit, per food and normalised measure, first in SR28 order ("cup, whipped" skipped: recipes mean fluid). */
const measures = new Map<string, Map<string, number>>()
for (const p of portions) {
  const key = /^whipped/.test(p.modifier) ? null : measureKey(p)
  const amount = Number(p.amount)
  const grams = Number(p.grams)
  if (key == null || !(amount > 0) || !(grams > 0)) continue
  let byKey = measures.get(p.food_id)
  if (byKey == null) measures.set(p.food_id, byKey = new Map())
  if (!byKey.has(key)) byKey.set(key, grams / amount)
}

const order = (key: string) => PORTION_KEYS.indexOf(key as typeof PORTION_KEYS[number])
const rows: string[] = []
for (const food of foods) {
  if (!kept(food)) continue
  const portionText = [...(measures.get(food.id) ?? [])]
    .sort(([a], [b]) => order(a) - order(b))
    .map(([key, grams]) => `${key}:${Math.round(grams * 10) / 10}`)
    .join(' ')
  const row = [
    food.id,
    food.description,
    rounded(food.kcal, 0),
    rounded(food.protein_g, 1),
    rounded(food.fat_g, 1),
    rounded(food.saturated_fat_g, 1),
    rounded(food.carbs_g, 1),
    rounded(food.fiber_g, 1),
    rounded(food.sugars_g, 1),
    rounded(food.sodium_mg, 0),
    rounded(food.cholesterol_mg, 0),
    portionText
  ]
  if (row.length !== FOOD_COLUMNS.length) throw new Error('column mismatch')
  rows.push(JSON.stringify(row))
}

const header = {
  source: 'USDA National Nutrient Database for Standard Reference, Release 28 (SR28), public domain; derived by scripts/nutrition-data.ts',
  units: 'per 100 g edible portion: kcal; protein, fat, saturatedFat, carbohydrates, fiber, sugars in g; sodium, cholesterol in mg; portions in g per unit',
  columns: FOOD_COLUMNS
}
const text = `{\n"source": ${JSON.stringify(header.source)},\n"units": ${JSON.stringify(header.units)},\n"columns": ${JSON.stringify(header.columns)},\n"foods": [\n${rows.join(',\n')}\n]}\n`
writeFileSync(out, text)
console.log(`${rows.length} of ${foods.length} foods, ${(Buffer.byteLength(text) / 1024).toFixed(0)} kB -> ${path.relative(process.cwd(), out)}`)
