// The ingredient vocabulary, the one place for ingredient words: how a word is made singular (the rule and its table
// of exceptions), the units of measure (every spelling, what kind of amount each is and how much of its base unit it
// holds) and the aisle keywords of shopping lists. Grocery merging (lib/grocery.ts), nutrition (lib/nutrition) and
// the ingredient parser (lib/ingredients.ts) read it here, and the search's SQL normalisation (`ingredient_singular`,
// the function behind `ingredient_fold` and recipes.ingredient_names) is generated from it (`singularFunctionSql`,
// migration 0034), so they cannot disagree: test/lib/ingredient-vocabulary.test.ts runs one table of cases through
// both.

// ---------------------------------------------------------------------------------------------------------------
// Singular

/**
 * Words the rule would get wrong (lower case, accents folded): irregular plurals, plurals whose singular keeps an
 * "e" or ends in "i", and words that end in s but are singular or uncountable. Only letters a-z: the SQL function is
 * generated from this table, so keys and values must be plain words.
 */
export const SINGULAR_EXCEPTIONS: Readonly<Record<string, string>> = {
  // Singular or uncountable, ending in s (the rule keeps -ss, -us and -is words on its own).
  molasses: 'molasses',
  grits: 'grits',
  greens: 'greens', // collard greens are not the colour
  bitters: 'bitters',
  series: 'series',
  species: 'species',
  // -ves -> -f / -fe.
  leaves: 'leaf',
  loaves: 'loaf',
  halves: 'half',
  calves: 'calf',
  knives: 'knife',
  shelves: 'shelf',
  // -ies -> -ie (the rule makes -y).
  cookies: 'cookie',
  brownies: 'brownie',
  veggies: 'veggie',
  smoothies: 'smoothie',
  calories: 'calorie',
  pies: 'pie',
  chilies: 'chili',
  chillies: 'chilli',
  // -es -> -e after ch, sh, ss or o (the rule drops -es there).
  quiches: 'quiche',
  brioches: 'brioche',
  ganaches: 'ganache',
  mousses: 'mousse',
  shoes: 'shoe',
  // -is plurals of words ending in i (the rule keeps -is: anis, pastis, haggis).
  kiwis: 'kiwi',
  chilis: 'chili',
  rotis: 'roti',
  chapatis: 'chapati',
  salamis: 'salami',
  blinis: 'blini',
  paninis: 'panini',
  martinis: 'martini',
  zucchinis: 'zucchini',
  // Irregular.
  mice: 'mouse',
  geese: 'goose',
  teeth: 'tooth',
  feet: 'foot',
  children: 'child',
  people: 'person',
  oxen: 'ox'
}

/**
 * The singular of one lower-case word: its exception, else words shorter than 4 characters, not ending in s, or
 * ending in -ss, -us or -is stay; -ies -> -y; -es after ch, sh, x, z, ss or o is dropped; otherwise the final s.
 * "eggs" -> "egg", "tomatoes" -> "tomato", "berries" -> "berry", "glasses" -> "glass", "hummus" stays.
 * Lengths count code points, as PostgreSQL's length() does.
 */
export function singular (word: string): string {
  const known = SINGULAR_EXCEPTIONS[word]
  if (known !== undefined && Object.hasOwn(SINGULAR_EXCEPTIONS, word)) return known
  if (!word.endsWith('s') || [...word].length < 4 || /(?:ss|us|is)$/.test(word)) return word
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`
  if (/(?:ch|sh|x|z|ss|o)es$/.test(word)) return word.slice(0, -2)
  return word.slice(0, -1)
}

const PLAIN_WORD = /^[a-z]+$/

/**
 * The SQL of `ingredient_singular(word)`, the same rule with the same exceptions, for a migration (0034 holds this
 * text; the vocabulary test checks the newest migration defining the function still does). IMMUTABLE: recipes'
 * generated columns and the pair index read it through `ingredient_fold`. One expression of string functions and not
 * STRICT (a null word is null anyway), so PostgreSQL inlines it into ingredient_fold: called as a function it cost
 * about 4 us a word and made the fold five times slower; inlined, the fold costs what 0023's did (about 60 us for a
 * recipe of ten ingredients).
 */
export function singularFunctionSql (): string {
  const entries = Object.entries(SINGULAR_EXCEPTIONS)
  for (const [word, single] of entries) {
    if (!PLAIN_WORD.test(word) || !PLAIN_WORD.test(single)) throw new Error(`singular exception ${word} -> ${single}: letters a-z only`)
  }
  const table = entries.map(([word, single]) => `"${word}": "${single}"`)
  const lines: string[] = []
  for (let i = 0; i < table.length; i += 6) lines.push('  ' + table.slice(i, i + 6).join(', '))
  return [
    'CREATE OR REPLACE FUNCTION ingredient_singular(word text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE',
    "RETURN coalesce(('{",
    lines.join(',\n'),
    "  }'::jsonb) ->> word, CASE",
    "  WHEN right(word, 1) <> 's' OR length(word) < 4 OR right(word, 2) IN ('ss', 'us', 'is') THEN word",
    "  WHEN right(word, 3) = 'ies' THEN left(word, -3) || 'y'",
    "  WHEN right(word, 3) IN ('xes', 'zes', 'oes') OR right(word, 4) IN ('ches', 'shes', 'sses') THEN left(word, -2)",
    '  ELSE left(word, -1)',
    'END);'
  ].join('\n')
}

// ---------------------------------------------------------------------------------------------------------------
// Units

/**
 * What an amount in a unit is: a mass or a volume (converted through `amount`), a count of pieces (a portion of the
 * food: piece, large, clove, slice...; a dozen is 12 pieces) or a container whose content depends on the product.
 */
export type UnitKind = 'mass' | 'volume' | 'count' | 'container'

export interface UnitDefinition {
  kind: UnitKind
  /** Grams (mass), millilitres (volume) or pieces (piece, dozen) in one unit. */
  amount?: number
  /** metric or US customary (masses and volumes). */
  system?: 'metric' | 'us'
  /** Summed with the others of its kind on a shopping list (not pinches, drops or shots: nobody buys by them). */
  shopping?: boolean
  /** How a shopping list writes it. */
  label?: string
  /**
   * The ingredient parser (parse-ingredient, which knows the common units) is taught this unit: its key, the key + s,
   * and these spellings ("2 jars pesto", "2 tins tomatoes" -> can). English only: the parser reads English lines.
   */
  parsed?: readonly string[]
  /** Every spelling, lower case (several languages), the key itself included. */
  aliases: readonly string[]
}

/** US fluid ounce in millilitres; the spoons and cups are its fractions and multiples. */
const FLOZ = 29.5735295625

/** Every unit, by key. */
export const UNITS = {
  mg: { kind: 'mass', amount: 0.001, system: 'metric', shopping: true, aliases: ['mg', 'milligram', 'milligrams', 'milligramme', 'milligrammes'] },
  g: { kind: 'mass', amount: 1, system: 'metric', shopping: true, aliases: ['g', 'gr', 'grs', 'gm', 'gms', 'gram', 'grams', 'gramm', 'gramme', 'grammes', 'grammi', 'gramos', 'gramas'] },
  kg: { kind: 'mass', amount: 1000, system: 'metric', shopping: true, aliases: ['kg', 'kgs', 'kilogram', 'kilograms', 'kilogramme', 'kilogrammes', 'kilo', 'kilos'] },
  oz: { kind: 'mass', amount: 28.349523125, system: 'us', shopping: true, aliases: ['oz', 'ozs', 'ounce', 'ounces', 'onzas'] },
  lb: { kind: 'mass', amount: 453.59237, system: 'us', shopping: true, aliases: ['lb', 'lbs', 'pound', 'pounds'] },
  ml: { kind: 'volume', amount: 1, system: 'metric', shopping: true, aliases: ['ml', 'mls', 'milliliter', 'milliliters', 'millilitre', 'millilitres', 'cc'] },
  cl: { kind: 'volume', amount: 10, system: 'metric', shopping: true, aliases: ['cl', 'centiliter', 'centiliters', 'centilitre', 'centilitres'] },
  dl: { kind: 'volume', amount: 100, system: 'metric', shopping: true, aliases: ['dl', 'deciliter', 'deciliters', 'decilitre', 'decilitres'] },
  l: { kind: 'volume', amount: 1000, system: 'metric', shopping: true, aliases: ['l', 'lt', 'liter', 'liters', 'litre', 'litres', 'liter(s)'] },
  tsp: {
    kind: 'volume',
    amount: FLOZ / 6,
    system: 'us',
    shopping: true,
    aliases: ['tsp', 'tsps', 'teaspoon', 'teaspoons', 'teaspoonful', 'tl', 'theelepel', 'theelepels', 'teelöffel', 'ts', 'teskje', 'cdta', 'cucharadita', 'čl', 'lyžička', 'cucchiaino', 'cucchiaini']
  },
  tbsp: {
    kind: 'volume',
    amount: FLOZ / 2,
    system: 'us',
    shopping: true,
    aliases: ['tbsp', 'tbsps', 'tbs', 'tbl', 'tbls', 'tb', 'tablespoon', 'tablespoons', 'tablespoonful', 'el', 'eetlepel', 'eetlepels', 'esslöffel', 'ss', 'spiseskje', 'cda', 'cucharada', 'cucharadas', 'pl', 'lyžica', 'cucchiaio', 'cucchiai']
  },
  cup: { kind: 'volume', amount: FLOZ * 8, system: 'us', shopping: true, aliases: ['cup', 'cups', 'c', 'tasse', 'tassen', 'kopje', 'kopjes', 'taza', 'tazas'] },
  floz: { kind: 'volume', amount: FLOZ, system: 'us', shopping: true, label: 'fl oz', aliases: ['floz', 'fl oz', 'fl. oz', 'fl.oz', 'fl-oz', 'fluid ounce', 'fluid ounces'] },
  pint: { kind: 'volume', amount: FLOZ * 16, system: 'us', shopping: true, aliases: ['pint', 'pints', 'pt', 'pnt'] },
  quart: { kind: 'volume', amount: FLOZ * 32, system: 'us', shopping: true, aliases: ['quart', 'quarts', 'qt', 'qts'] },
  gallon: { kind: 'volume', amount: FLOZ * 128, system: 'us', shopping: true, aliases: ['gallon', 'gallons', 'gal'] },
  shot: { kind: 'volume', amount: FLOZ * 1.5, aliases: ['shot', 'shots', 'jigger'] },
  pinch: { kind: 'volume', amount: FLOZ / 96, aliases: ['pinch', 'pinches', 'prise', 'prisen', 'snufje', 'pizzico', 'pincée', 'štipka', 'stipka'] },
  dash: { kind: 'volume', amount: FLOZ / 48, aliases: ['dash', 'dashes', 'scheut', 'splash'] },
  drop: { kind: 'volume', amount: 0.05, aliases: ['drop', 'drops'] },
  piece: { kind: 'count', amount: 1, shopping: true, aliases: ['piece', 'pieces', 'pc', 'pcs', 'stk', 'stk.', 'stück', 'stuk', 'stuks', 'each', 'ea', 'ks', 'unit', 'units'] },
  dozen: { kind: 'count', amount: 12, shopping: true, aliases: ['dozen', 'dozens', 'dz'] },
  large: { kind: 'count', aliases: ['large', 'lg'] },
  medium: { kind: 'count', aliases: ['medium', 'med', 'md'] },
  small: { kind: 'count', aliases: ['small', 'sm'] },
  xlarge: { kind: 'count', aliases: ['xlarge', 'extra large', 'extra-large', 'xl'] },
  clove: { kind: 'count', aliases: ['clove', 'cloves', 'zehe', 'zehen', 'teentje', 'teentjes', 'dente', 'dentes', 'gousse', 'gousses', 'spicchio', 'spicchi', 'diente', 'dientes'] },
  slice: { kind: 'count', parsed: [], aliases: ['slice', 'slices', 'scheibe', 'scheiben', 'plak', 'plakken', 'tranche', 'tranches', 'fetta', 'fette'] },
  stick: { kind: 'count', aliases: ['stick', 'sticks'] },
  can: { kind: 'count', parsed: ['tin', 'tins'], aliases: ['can', 'cans', 'tin', 'tins', 'dose', 'dosen', 'blik'] },
  head: { kind: 'count', aliases: ['head', 'heads'] },
  bunch: { kind: 'count', aliases: ['bunch', 'bunches', 'bund', 'bos', 'bouquet'] },
  ear: { kind: 'count', aliases: ['ear', 'ears'] },
  sprig: { kind: 'count', aliases: ['sprig', 'sprigs', 'zweig', 'zweige', 'takje', 'takjes', 'rametto'] },
  leaf: { kind: 'count', aliases: ['leaf', 'leaves'] },
  stalk: { kind: 'count', parsed: [], aliases: ['stalk', 'stalks', 'rib', 'ribs', 'stange', 'stangen'] },
  fillet: { kind: 'count', parsed: [], aliases: ['fillet', 'fillets', 'filet', 'filets'] },
  block: { kind: 'count', aliases: ['block', 'blocks'] },
  chop: { kind: 'count', aliases: ['chop', 'chops'] },
  sheet: { kind: 'count', parsed: [], aliases: ['sheet', 'sheets'] },
  knob: { kind: 'count', parsed: [], aliases: ['knob', 'knobs', 'klont', 'klontje'] },
  handful: { kind: 'count', parsed: [], aliases: ['handful', 'handfuls'] },
  rasher: { kind: 'count', parsed: [], aliases: ['rasher', 'rashers'] },
  scoop: { kind: 'count', parsed: [], aliases: ['scoop', 'scoops'] },
  cube: { kind: 'count', parsed: [], aliases: ['cube', 'cubes'] },
  package: { kind: 'container', aliases: ['package', 'packages', 'pkg', 'pck', 'pck.', 'packung', 'pak'] },
  pack: { kind: 'container', aliases: ['pack', 'packs'] },
  bag: { kind: 'container', aliases: ['bag', 'bags'] },
  box: { kind: 'container', aliases: ['box', 'boxes'] },
  jar: { kind: 'container', parsed: [], aliases: ['jar', 'jars', 'glas'] },
  container: { kind: 'container', aliases: ['container', 'containers', 'tub', 'tubs'] },
  carton: { kind: 'container', aliases: ['carton', 'cartons'] },
  bottle: { kind: 'container', parsed: [], aliases: ['bottle', 'bottles'] },
  packet: { kind: 'container', parsed: ['sachet', 'sachets'], aliases: ['packet', 'packets', 'sachet', 'sachets', 'envelope', 'envelopes'] }
} as const satisfies Record<string, UnitDefinition>

export type UnitName = keyof typeof UNITS

const UNIT_BY_ALIAS: ReadonlyMap<string, UnitName> = (() => {
  const map = new Map<string, UnitName>()
  for (const [key, unit] of Object.entries(UNITS) as Array<[UnitName, UnitDefinition]>) {
    for (const alias of unit.aliases) {
      if (map.has(alias)) throw new Error(`unit alias ${alias} of both ${map.get(alias)} and ${key}`)
      map.set(alias, key)
    }
  }
  return map
})()

/** Recipe shorthand, case-sensitive: a capital T is a tablespoon, a small t a teaspoon. */
const SHORTHAND: Readonly<Record<string, UnitName>> = { T: 'tbsp', Tb: 'tbsp', Tbs: 'tbsp', t: 'tsp' }

/**
 * The unit key of a recipe unit ("tablespoon", "Tbsp.", "EL", "fl. oz", "T"...), or null when it is not a known unit.
 * Case, inner spacing and a trailing dot do not matter, except for the shorthand T (tablespoon) and t (teaspoon).
 */
export function unitKey (raw: string | null | undefined): UnitName | null {
  if (raw == null) return null
  const trimmed = raw.trim()
  const shorthand = SHORTHAND[trimmed]
  if (shorthand !== undefined && Object.hasOwn(SHORTHAND, trimmed)) return shorthand
  const unit = trimmed.toLowerCase().replace(/\s+/g, ' ')
  return UNIT_BY_ALIAS.get(unit) ?? UNIT_BY_ALIAS.get(unit.replace(/\.$/, '')) ?? null
}

/** The definition of a unit key. */
export function unitDefinition (key: UnitName): UnitDefinition {
  return UNITS[key]
}

/** The kind of a unit key; anything else (a unit no table knows) counts as pieces of it. */
export function unitKind (key: string): UnitKind {
  return isUnitName(key) ? UNITS[key].kind : 'count'
}

/** Whether a string is a unit key. */
export function isUnitName (key: string): key is UnitName {
  return Object.hasOwn(UNITS, key)
}

/** Grams in one unit of each mass unit, millilitres in one unit of each volume unit. */
export const GRAMS: Readonly<Record<string, number>> = Object.fromEntries(
  (Object.entries(UNITS) as Array<[UnitName, UnitDefinition]>).filter(([, unit]) => unit.kind === 'mass').map(([key, unit]) => [key, unit.amount!]))
export const MILLILITRES: Readonly<Record<string, number>> = Object.fromEntries(
  (Object.entries(UNITS) as Array<[UnitName, UnitDefinition]>).filter(([, unit]) => unit.kind === 'volume').map(([key, unit]) => [key, unit.amount!]))

// ---------------------------------------------------------------------------------------------------------------
// Aisles

/** Aisle categories, in the order a shop is walked (the order lists and exports use). */
export const AISLES = ['produce', 'bakery', 'meat', 'dairy', 'frozen', 'pantry', 'spices', 'beverages', 'other'] as const
export type Aisle = typeof AISLES[number]

/** Keywords (singular, lower-case; several words match as a phrase) per aisle. */
export const AISLE_KEYWORDS: Readonly<Record<Exclude<Aisle, 'other'>, readonly string[]>> = {
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

/** Words that put an item in an aisle whatever it is ("frozen peas", "canned tuna", "dried thyme"). */
export const AISLE_MODIFIERS: Readonly<Record<string, Aisle>> = { frozen: 'frozen', canned: 'pantry', tinned: 'pantry', dried: 'pantry', dry: 'pantry' }
