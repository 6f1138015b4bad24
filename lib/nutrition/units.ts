// Units of measure for nutrition: what a recipe line's unit means (mass, volume or a count), and the household measures
// the food data keeps (portion keys) with their gram weights.

/** Household measures kept per food in foods.json, in the order they are written. */
export const PORTION_KEYS = [
  'cup', 'tbsp', 'tsp', 'floz', 'pint', 'quart', 'gallon',
  'medium', 'large', 'small', 'xlarge', 'jumbo',
  'piece', 'block', 'chop', 'slice', 'clove', 'stick', 'pat', 'can', 'head', 'bunch', 'ear', 'sprig', 'leaf', 'stalk', 'spear', 'pod',
  'bulb', 'fillet', 'breast', 'thigh', 'drumstick', 'wing', 'link', 'strip', 'wedge', 'fruit', 'each', 'item', 'unit',
  'sheet', 'tortilla', 'packet'
] as const
const PORTION_KEY_SET = new Set<string>(PORTION_KEYS)

/** Millilitres in one unit of each volume measure (US customary cups and spoons). */
export const MILLILITRES: Readonly<Record<string, number>> = {
  ml: 1,
  cl: 10,
  dl: 100,
  l: 1000,
  tsp: 4.929,
  tbsp: 14.787,
  floz: 29.574,
  cup: 236.588,
  pint: 473.176,
  quart: 946.353,
  gallon: 3785.41,
  shot: 44.36, // 1.5 fl oz
  pinch: 0.308, // 1/16 tsp
  dash: 0.616, // 1/8 tsp
  drop: 0.05
}

/** Grams in one unit of each mass measure. */
export const GRAMS: Readonly<Record<string, number>> = { mg: 0.001, g: 1, kg: 1000, oz: 28.3495, lb: 453.592 }

/** Containers: how much one holds depends on the product, so only a stated weight ("1 (14-ounce) can") converts it. */
export const CONTAINERS = new Set(['package', 'bag', 'box', 'jar', 'container', 'carton', 'pack', 'bottle', 'tub', 'packet'])

const SINGULAR: Readonly<Record<string, string>> = {
  pieces: 'piece',
  slices: 'slice',
  cloves: 'clove',
  sticks: 'stick',
  leaves: 'leaf',
  stalks: 'stalk',
  sprigs: 'sprig',
  links: 'link',
  strips: 'strip',
  pods: 'pod',
  sheets: 'sheet',
  spears: 'spear',
  wedges: 'wedge',
  heads: 'head',
  ears: 'ear',
  fillets: 'fillet',
  breasts: 'breast',
  thighs: 'thigh',
  drumsticks: 'drumstick',
  wings: 'wing',
  bulbs: 'bulb',
  cans: 'can',
  chops: 'chop',
  blocks: 'block',
  tablespoon: 'tbsp',
  teaspoon: 'tsp',
  tortillas: 'tortilla',
  fruits: 'fruit',
  items: 'item',
  units: 'unit',
  packets: 'packet'
}

/**
 * The portion key of an SR28 measure (`unit` column of portions.csv): `cup`, `tablespoon` -> `tbsp`, `fl oz` -> `floz`,
 * `large whole` -> `large`, `potato medium` -> `medium`, `cloves` -> `clove`; null for measures not kept (oz, lb,
 * serving, package...).
 */
export function portionKey (srUnit: string): string | null {
  const unit = srUnit.trim().toLowerCase()
  if (unit.startsWith('fl oz')) return 'floz'
  if (unit.startsWith('extra large')) return 'xlarge'
  if (unit.startsWith('extra small')) return null
  const words = unit.split(/\s+/)
  const first = SINGULAR[words[0]] ?? words[0]
  if (PORTION_KEY_SET.has(first)) return first
  const size = words.find(w => w === 'large' || w === 'medium' || w === 'small')
  return size ?? null
}

/** Recipe spellings (several languages) -> unit keys. Keys are lower-cased; see `unitKey` for `T` and `t`. */
const UNIT_ALIASES: Readonly<Record<string, string>> = (() => {
  const table: Record<string, string[]> = {
    mg: ['mg', 'milligram', 'milligrams'],
    g: ['g', 'gr', 'grs', 'gram', 'grams', 'gramm', 'gramme', 'grammes', 'grammi', 'gramos', 'gramas'],
    kg: ['kg', 'kgs', 'kilogram', 'kilograms', 'kilo', 'kilos'],
    oz: ['oz', 'ounce', 'ounces', 'onzas'],
    lb: ['lb', 'lbs', 'pound', 'pounds'],
    ml: ['ml', 'mls', 'milliliter', 'milliliters', 'millilitre', 'millilitres'],
    cl: ['cl', 'centiliter', 'centiliters', 'centilitre', 'centilitres'],
    dl: ['dl', 'deciliter', 'deciliters', 'decilitre', 'decilitres'],
    l: ['l', 'lt', 'liter', 'liters', 'litre', 'litres', 'liter(s)'],
    tsp: ['tsp', 'tsps', 'teaspoon', 'teaspoons', 'teaspoonful', 'tl', 'theelepel', 'theelepels', 'teelöffel', 'ts', 'teskje', 'cdta', 'cucharadita', 'čl', 'lyžička', 'cucchiaino', 'cucchiaini'],
    tbsp: ['tbsp', 'tbsps', 'tbs', 'tbl', 'tb', 'tablespoon', 'tablespoons', 'tablespoonful', 'el', 'eetlepel', 'eetlepels', 'esslöffel', 'ss', 'spiseskje', 'cda', 'cucharada', 'cucharadas', 'pl', 'lyžica', 'cucchiaio', 'cucchiai'],
    cup: ['cup', 'cups', 'c', 'tasse', 'tassen', 'kopje', 'kopjes', 'taza', 'tazas'],
    floz: ['floz', 'fl oz', 'fl. oz', 'fl.oz', 'fluid ounce', 'fluid ounces'],
    pint: ['pint', 'pints', 'pt'],
    quart: ['quart', 'quarts', 'qt'],
    gallon: ['gallon', 'gallons', 'gal'],
    pinch: ['pinch', 'pinches', 'prise', 'prisen', 'snufje', 'pizzico', 'pincée', 'štipka', 'stipka'],
    dash: ['dash', 'dashes', 'scheut', 'splash'],
    drop: ['drop', 'drops'],
    shot: ['shot', 'shots', 'jigger'],
    piece: ['piece', 'pieces', 'pc', 'pcs', 'stk', 'stk.', 'stück', 'stuk', 'stuks', 'each', 'ea', 'ks'],
    knob: ['knob', 'knobs', 'klont', 'klontje'],
    large: ['large', 'lg'],
    medium: ['medium', 'med', 'md'],
    small: ['small', 'sm'],
    xlarge: ['extra large', 'extra-large', 'xl'],
    clove: ['clove', 'cloves', 'zehe', 'zehen', 'teentje', 'teentjes', 'dente', 'dentes', 'gousse', 'gousses', 'spicchio', 'spicchi', 'diente', 'dientes'],
    slice: ['slice', 'slices', 'scheibe', 'scheiben', 'plak', 'plakken', 'tranche', 'tranches', 'fetta', 'fette'],
    stick: ['stick', 'sticks'],
    can: ['can', 'cans', 'tin', 'tins', 'dose', 'dosen', 'blik'],
    head: ['head', 'heads'],
    bunch: ['bunch', 'bunches', 'bund', 'bos', 'bouquet'],
    ear: ['ear', 'ears'],
    sprig: ['sprig', 'sprigs', 'zweig', 'zweige', 'takje', 'takjes', 'rametto'],
    leaf: ['leaf', 'leaves'],
    stalk: ['stalk', 'stalks', 'rib', 'ribs', 'stange', 'stangen'],
    fillet: ['fillet', 'fillets', 'filet', 'filets'],
    block: ['block', 'blocks'],
    chop: ['chop', 'chops'],
    dozen: ['dozen', 'dz'],
    package: ['package', 'packages', 'pkg', 'pck', 'pck.', 'packung', 'pak'],
    pack: ['pack', 'packs'],
    bag: ['bag', 'bags'],
    box: ['box', 'boxes'],
    jar: ['jar', 'jars', 'glas'],
    container: ['container', 'containers', 'tub', 'tubs'],
    carton: ['carton', 'cartons'],
    bottle: ['bottle', 'bottles'],
    packet: ['packet', 'packets', 'sachet', 'sachets', 'envelope', 'envelopes']
  }
  const out: Record<string, string> = {}
  for (const [key, spellings] of Object.entries(table)) for (const s of spellings) out[s] = key
  return out
})()

/** The unit key of a recipe unit ("tablespoon", "Tbsp", "EL", "fl. oz"...), or null when it is not a known unit. */
export function unitKey (raw: string | null | undefined): string | null {
  if (raw == null) return null
  const trimmed = raw.trim()
  if (trimmed === 'T' || trimmed === 'Tb' || trimmed === 'Tbs') return 'tbsp'
  if (trimmed === 't') return 'tsp'
  const unit = trimmed.toLowerCase().replace(/\s+/g, ' ')
  return UNIT_ALIASES[unit] ?? UNIT_ALIASES[unit.replace(/\.$/, '')] ?? null
}

export type UnitKind = 'mass' | 'volume' | 'count' | 'container'

export function unitKind (key: string): UnitKind {
  if (key in GRAMS) return 'mass'
  if (key in MILLILITRES) return 'volume'
  if (CONTAINERS.has(key)) return 'container'
  return 'count'
}
