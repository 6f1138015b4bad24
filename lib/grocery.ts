// Grocery lists, the pure part: ingredient names normalised for merging (case, spacing, singular/plural), quantities
// summed in compatible units (volume with volume, mass with mass, counts with counts; convert-units does the
// arithmetic), aisle categories from a keyword table, and the export formats (text, CSV, file names).
// Mass and volume never mix: without a density "200 g sugar" and "1 cup sugar" stay two items.
import convert from 'convert-units'

// ---------------------------------------------------------------------------------------------------------------
// Names

/** Words that look plural and are not (or whose singular is irregular). */
const SINGULAR_EXCEPTIONS: Record<string, string> = {
  molasses: 'molasses',
  hummus: 'hummus',
  couscous: 'couscous',
  asparagus: 'asparagus',
  citrus: 'citrus',
  swiss: 'swiss',
  haggis: 'haggis',
  pastis: 'pastis',
  anis: 'anis',
  series: 'series',
  species: 'species',
  leaves: 'leaf',
  loaves: 'loaf',
  halves: 'half',
  calves: 'calf',
  knives: 'knife',
  shelves: 'shelf',
  cookies: 'cookie',
  brownies: 'brownie',
  veggies: 'veggie',
  smoothies: 'smoothie',
  calories: 'calorie',
  pies: 'pie',
  quiches: 'quiche',
  brioches: 'brioche',
  ganaches: 'ganache',
  shoes: 'shoe',
  mice: 'mouse',
  geese: 'goose',
  teeth: 'tooth',
  feet: 'foot',
  children: 'child',
  people: 'person',
  oxen: 'ox'
}

/** The singular of one lower-case word: "eggs" -> "egg", "tomatoes" -> "tomato", "berries" -> "berry". */
export function singular (word: string): string {
  const known = SINGULAR_EXCEPTIONS[word]
  if (known != null) return known
  if (word.length < 4 || !word.endsWith('s')) return word
  if (/(ss|us)$/.test(word)) return word
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`
  if (/(sses|shes|ches|xes|zes)$/.test(word)) return word.slice(0, -2)
  if (word.endsWith('oes')) return word.slice(0, -2)
  return word.slice(0, -1)
}

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

/** Aisle categories, in the order a shop is walked (the order lists and exports use). */
export const AISLES = ['produce', 'bakery', 'meat', 'dairy', 'frozen', 'pantry', 'spices', 'beverages', 'other'] as const
export type Aisle = typeof AISLES[number]

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

/** Keywords (singular, lower-case; several words match as a phrase) per aisle. */
const AISLE_KEYWORDS: Record<Exclude<Aisle, 'other'>, string[]> = {
  produce: [
    'apple', 'apricot', 'artichoke', 'arugula', 'asparagus', 'aubergine', 'avocado', 'banana', 'basil', 'bean sprout',
    'beet', 'beetroot', 'bell pepper', 'berry', 'blackberry', 'blueberry', 'bok choy', 'broccoli', 'brussel sprout',
    'cabbage', 'cantaloupe', 'carrot', 'cauliflower', 'celery', 'chard', 'cherry', 'chile', 'chili', 'chili pepper',
    'chive', 'cilantro', 'clementine', 'coriander leaf', 'corn', 'courgette', 'cranberry', 'cucumber', 'dill',
    'eggplant', 'endive', 'fennel', 'fig', 'garlic', 'garlic clove', 'ginger', 'grape', 'grapefruit', 'green bean',
    'green onion', 'green pepper', 'herb', 'jalapeno', 'jalapeno pepper', 'jalapeño', 'kale', 'kiwi', 'leek', 'lemon',
    'lemon juice', 'lemongrass', 'lettuce', 'lime', 'lime juice', 'mango', 'melon', 'mint', 'mushroom', 'nectarine',
    'okra', 'onion', 'orange', 'oregano leaf', 'papaya', 'parsley', 'parsnip', 'pea', 'peach', 'pear', 'pineapple',
    'plum', 'pomegranate', 'potato', 'pumpkin', 'radish', 'raspberry', 'red pepper', 'rhubarb', 'romaine', 'rosemary',
    'sage', 'salad', 'scallion', 'shallot', 'snow pea', 'spinach', 'sprout', 'squash', 'strawberry', 'sweet pepper',
    'sweet potato', 'tangerine', 'thyme', 'tomatillo', 'tomato', 'turnip', 'watercress', 'watermelon', 'yam',
    'zucchini'
  ],
  bakery: [
    'bagel', 'baguette', 'bread', 'brioche', 'bun', 'ciabatta', 'croissant', 'english muffin', 'focaccia', 'loaf',
    'muffin', 'naan', 'pita', 'roll', 'sourdough', 'tortilla', 'wrap'
  ],
  meat: [
    'anchovy', 'bacon', 'beef', 'brisket', 'chicken', 'chorizo', 'clam', 'cod', 'crab', 'duck', 'fish', 'ground beef',
    'ground pork', 'ground turkey', 'haddock', 'halibut', 'ham', 'lamb', 'lobster', 'meat', 'meatball', 'mince',
    'mussel', 'oyster', 'pancetta', 'pork', 'prawn', 'prosciutto', 'salami', 'salmon', 'sausage', 'scallop',
    'seafood', 'shrimp', 'squid', 'steak', 'tilapia', 'trout', 'tuna', 'turkey', 'veal', 'venison'
  ],
  dairy: [
    'butter', 'buttermilk', 'cheddar', 'cheese', 'cottage cheese', 'cream', 'cream cheese', 'creme fraiche',
    'crème fraîche', 'egg', 'egg white', 'egg yolk', 'feta', 'ghee', 'gouda', 'gruyere', 'half and half',
    'heavy cream', 'kefir', 'margarine', 'mascarpone', 'milk', 'mozzarella', 'parmesan', 'pecorino', 'ricotta',
    'sour cream', 'whipping cream', 'yoghurt', 'yogurt'
  ],
  frozen: [
    'frozen', 'ice', 'ice cream', 'puff pastry', 'sorbet'
  ],
  pantry: [
    'almond', 'almond butter', 'baking powder', 'baking soda', 'barley', 'bean', 'black bean', 'bread crumb',
    'breadcrumb', 'broth', 'brown sugar', 'bulgur', 'canned tomato', 'caper', 'cashew', 'cereal', 'chickpea',
    'chocolate', 'chocolate chip', 'cocoa', 'cocoa powder', 'coconut cream', 'coconut milk', 'cornmeal', 'cornstarch',
    'couscous', 'cracker', 'cream of tartar', 'date', 'dried fruit', 'extract', 'fish sauce', 'flour', 'gelatin',
    'hazelnut', 'honey', 'jam', 'ketchup', 'kidney bean', 'lasagna', 'lasagne', 'lentil', 'macaroni', 'maple syrup',
    'mayonnaise', 'molasses', 'mustard', 'noodle', 'nut', 'oat', 'oil', 'olive', 'olive oil', 'pasta', 'peanut',
    'peanut butter', 'pecan', 'penne', 'pine nut', 'polenta', 'quinoa', 'raisin', 'rice', 'salsa', 'sauce', 'seed',
    'sesame oil', 'soy sauce', 'spaghetti', 'stock', 'sugar', 'syrup', 'tahini', 'tofu', 'tomato paste',
    'tomato sauce', 'vanilla', 'vanilla extract', 'vinegar', 'walnut', 'yeast'
  ],
  spices: [
    'allspice', 'bay leaf', 'black pepper', 'black peppercorn', 'cardamom', 'cayenne', 'chili flake', 'chili powder',
    'cinnamon', 'clove', 'coriander', 'cumin', 'curry', 'curry powder', 'dried basil', 'dried dill', 'dried herb',
    'dried mint', 'dried oregano', 'dried parsley', 'dried rosemary', 'dried sage', 'dried thyme', 'garam masala',
    'garlic powder', 'ginger powder', 'ground cinnamon', 'ground cumin', 'ground ginger', 'herbes de provence',
    'italian seasoning', 'kosher salt', 'nutmeg', 'onion powder', 'oregano', 'paprika', 'pepper', 'pepper flake',
    'peppercorn', 'powder', 'red pepper flake', 'saffron', 'salt', 'salt and pepper', 'sea salt', 'seasoning',
    'smoked paprika', 'spice', 'star anise', 'sumac', 'turmeric', 'za\'atar'
  ],
  beverages: [
    'beer', 'cider', 'club soda', 'coconut water', 'coffee', 'espresso', 'juice', 'kombucha', 'lemonade',
    'orange juice', 'red wine', 'seltzer', 'soda', 'sparkling water', 'tea', 'tonic', 'water', 'white wine', 'wine'
  ]
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

/** Words that put an item in an aisle whatever it is ("frozen peas", "canned tuna", "dried thyme"). */
const MODIFIERS: Record<string, Aisle> = { frozen: 'frozen', canned: 'pantry', tinned: 'pantry', dried: 'pantry', dry: 'pantry' }

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
  const modifier = MODIFIERS[words[0]]
  if (modifier != null && words.length > 1 && (best == null || best.score < 25)) return modifier
  return best?.aisle ?? 'other'
}

// ---------------------------------------------------------------------------------------------------------------
// Units

type Volume = convert.Volume
type Mass = convert.Mass
type Dimension = 'volume' | 'mass' | 'count'

interface Measured { dimension: Dimension, unit: Volume | Mass | 'ea' | 'dz' }

/** Every spelling of each unit (lower-case; a trailing dot is dropped first). */
function aliases<U extends string> (table: Partial<Record<U, string[]>>): Map<string, U> {
  const map = new Map<string, U>()
  for (const unit of Object.keys(table) as U[]) for (const name of table[unit] ?? []) map.set(name, unit)
  return map
}

const VOLUME_ALIASES = aliases<Volume>({
  tsp: ['tsp', 'tsps', 'teaspoon', 'teaspoons', 't'],
  Tbs: ['tbsp', 'tbsps', 'tbs', 'tbl', 'tbls', 'tablespoon', 'tablespoons'],
  cup: ['cup', 'cups', 'c'],
  'fl-oz': ['fl oz', 'fl. oz', 'fl-oz', 'floz', 'fluid ounce', 'fluid ounces'],
  pnt: ['pint', 'pints', 'pt', 'pnt'],
  qt: ['quart', 'quarts', 'qt', 'qts'],
  gal: ['gallon', 'gallons', 'gal'],
  ml: ['ml', 'mls', 'milliliter', 'milliliters', 'millilitre', 'millilitres', 'cc'],
  cl: ['cl', 'centiliter', 'centiliters', 'centilitre', 'centilitres'],
  dl: ['dl', 'deciliter', 'deciliters', 'decilitre', 'decilitres'],
  l: ['l', 'lt', 'liter', 'liters', 'litre', 'litres']
})

const MASS_ALIASES = aliases<Mass>({
  mg: ['mg', 'milligram', 'milligrams', 'milligramme', 'milligrammes'],
  g: ['g', 'gr', 'gm', 'gms', 'gram', 'grams', 'gramme', 'grammes'],
  kg: ['kg', 'kgs', 'kilo', 'kilos', 'kilogram', 'kilograms', 'kilogramme', 'kilogrammes'],
  oz: ['oz', 'ozs', 'ounce', 'ounces'],
  lb: ['lb', 'lbs', 'pound', 'pounds']
})

const COUNT_ALIASES = aliases<'ea' | 'dz'>({
  ea: ['ea', 'each', 'piece', 'pieces', 'pc', 'pcs', 'whole', 'unit', 'units'],
  dz: ['dozen', 'dozens', 'dz']
})

/** A unit as convert-units knows it, or null when it is not a volume, mass or count (cloves, cans, pinches...). */
export function measuredUnit (unit: string | null | undefined): Measured | null {
  if (unit == null || unit.trim() === '') return { dimension: 'count', unit: 'ea' }
  const raw = unit.trim().replace(/\.$/, '').replace(/\s+/g, ' ')
  // Recipe shorthand: a capital T is a tablespoon, a small t a teaspoon.
  if (raw === 'T' || raw === 'Tb') return { dimension: 'volume', unit: 'Tbs' }
  const key = raw.toLowerCase()
  const volume = VOLUME_ALIASES.get(key)
  if (volume != null) return { dimension: 'volume', unit: volume }
  const mass = MASS_ALIASES.get(key)
  if (mass != null) return { dimension: 'mass', unit: mass }
  const count = COUNT_ALIASES.get(key)
  if (count != null) return { dimension: 'count', unit: count }
  return null
}

/** How a unit reads on a list. */
const UNIT_NAMES = new Map<string, string>([
  ['tsp', 'tsp'], ['Tbs', 'tbsp'], ['cup', 'cup'], ['fl-oz', 'fl oz'], ['pnt', 'pint'], ['qt', 'quart'], ['gal', 'gallon'],
  ['ml', 'ml'], ['l', 'l'], ['mg', 'mg'], ['g', 'g'], ['kg', 'kg'], ['oz', 'oz'], ['lb', 'lb']
])

const METRIC = new Set(['ml', 'cl', 'dl', 'l', 'mg', 'g', 'kg'])

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
function readable (dimension: 'volume' | 'mass', base: number, largest: Volume | Mass, units: Set<string>, system?: UnitSystem): { quantity: number, unit: string } {
  const inUnit = (unit: Volume | Mass) => dimension === 'volume'
    ? convert(base).from('ml').to(unit as Volume)
    : convert(base).from('g').to(unit as Mass)
  const pick = (unit: Volume | Mass) => ({ quantity: roundQuantity(inUnit(unit)), unit: UNIT_NAMES.get(unit) ?? unit })
  const metric = system == null ? METRIC.has(largest) : system === 'metric'
  if (dimension === 'volume') {
    if (metric) return inUnit('l') >= 1 ? pick('l') : pick('ml')
    // Big US units given by the recipes themselves stay (a quart of stock), when there is at least one of them.
    for (const big of ['gal', 'qt', 'pnt'] as const) if (units.has(big) && inUnit(big) >= 1) return pick(big)
    if (units.size === 1 && units.has('fl-oz')) return pick('fl-oz')
    // From a quarter cup on, cups to the hundredth: 1 tbsp + 1/2 cup reads 0.56 cup, not 9 tbsp.
    const cups = inUnit('cup')
    if (cups >= 0.25) return { quantity: Math.round(cups * 100) / 100, unit: 'cup' }
    const tbsp = inUnit('Tbs')
    if (tbsp >= 1 && isMultipleOf(tbsp, 0.5)) return pick('Tbs')
    if (tbsp >= 1 && !units.has('tsp')) return pick('Tbs')
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
  largest?: { unit: Volume | Mass | 'ea' | 'dz', base: number }
  units: Set<string>
  notes: string[]
  sources: string[]
}

function baseOf (measured: Measured, quantity: number): number {
  if (measured.dimension === 'volume') return convert(quantity).from(measured.unit as Volume).to('ml')
  if (measured.dimension === 'mass') return convert(quantity).from(measured.unit as Mass).to('g')
  return measured.unit === 'dz' ? quantity * 12 : quantity
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
        const base = baseOf(measured, quantity)
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
      else ({ quantity, unit } = readable(group.dimension!, group.total, group.largest!.unit as Volume | Mass, group.units, options.units))
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
