import { parse } from 'csv-parse/sync'
import t from 'tap'
import {
  aisleFor, contentDisposition, csvCell, type ExportItem, measuredUnit, mergeIngredients, normalizeName, roundQuantity,
  servingsFactor, sortByAisle, toCsv, toText
} from '../../lib/grocery.js'
import { singular } from '../../lib/ingredient-vocabulary.js'
import { parseIngredientLine } from '../../lib/ingredients.js'

/** Contributions from written lines, as recipes store them (parsed by lib/ingredients.ts). */
const lines = (texts: string[], factor = 1) => texts.map(text => ({ ingredient: parseIngredientLine(text), factor }))
const merged = (texts: string[], factor = 1) => mergeIngredients(lines(texts, factor))
const one = (texts: string[], factor = 1) => {
  const result = merged(texts, factor)
  if (result.length !== 1) throw new Error(`expected one line, got ${JSON.stringify(result)}`)
  return result[0]
}

t.test('singular and normalised names', async t => {
  const pairs: Array<[string, string]> = [
    ['eggs', 'egg'], ['tomatoes', 'tomato'], ['potatoes', 'potato'], ['berries', 'berry'], ['cherries', 'cherry'],
    ['anchovies', 'anchovy'], ['peaches', 'peach'], ['radishes', 'radish'], ['boxes', 'box'], ['glasses', 'glass'],
    ['cheeses', 'cheese'], ['sauces', 'sauce'], ['olives', 'olive'], ['cloves', 'clove'], ['leaves', 'leaf'],
    ['loaves', 'loaf'], ['cookies', 'cookie'], ['kiwis', 'kiwi'], ['peas', 'pea'], ['avocados', 'avocado'],
    ['mangoes', 'mango'], ['quiches', 'quiche']
  ]
  for (const [plural, one] of pairs) t.equal(singular(plural), one, `${plural} -> ${one}`)
  for (const word of ['egg', 'asparagus', 'hummus', 'couscous', 'molasses', 'swiss', 'glass', 'gas', 'rice', 'bass']) {
    t.equal(singular(word), word, `${word} stays`)
  }
  t.equal(normalizeName('  Fresh   TOMATOES '), 'fresh tomato', 'case, spacing, plural')
  t.equal(normalizeName('Cherry tomatoes'), normalizeName('cherry tomato'))
  t.equal(normalizeName('Eggs'), normalizeName('egg'))
  t.equal(normalizeName('Berries'), normalizeName('berry'))
  t.equal(normalizeName('all-purpose flour!'), 'all-purpose flour', 'punctuation other than hyphens goes')
  t.equal(normalizeName('ＥＧＧＳ'), 'egg', 'NFKC: full-width letters')
})

t.test('units: what converts and what does not', async t => {
  t.match(measuredUnit('cup'), { dimension: 'volume', unit: 'cup' })
  t.match(measuredUnit('tablespoon'), { dimension: 'volume', unit: 'tbsp' }, 'the parser\'s unit ids')
  t.match(measuredUnit('Tbsp.'), { dimension: 'volume', unit: 'tbsp' }, 'case and a trailing dot')
  t.match(measuredUnit('T'), { dimension: 'volume', unit: 'tbsp' }, 'capital T is a tablespoon')
  t.match(measuredUnit('t'), { dimension: 'volume', unit: 'tsp' }, 'small t a teaspoon')
  t.match(measuredUnit('fluid ounce'), { dimension: 'volume', unit: 'floz' })
  t.match(measuredUnit('millilitre'), { dimension: 'volume', unit: 'ml' })
  t.match(measuredUnit('gram'), { dimension: 'mass', unit: 'g' })
  t.match(measuredUnit('lbs'), { dimension: 'mass', unit: 'lb' })
  t.match(measuredUnit('oz'), { dimension: 'mass', unit: 'oz' }, 'a bare ounce is a weight')
  t.match(measuredUnit(null), { dimension: 'count', unit: 'piece' }, 'no unit: a count')
  t.match(measuredUnit('dozen'), { dimension: 'count', unit: 'dozen' })
  for (const unit of ['clove', 'can', 'pinch', 'large', 'bunch']) t.equal(measuredUnit(unit), null, `${unit} is not convertible`)
  t.equal(roundQuantity(1.0625), 1.06)
  t.equal(roundQuantity(2 / 3), 0.667)
  t.equal(roundQuantity(1234.4), 1234)
})

t.test('merging: compatible units are summed in a readable unit', async t => {
  t.match(one(['1 cup flour', '1/2 cup flour']), { name: 'flour', quantity: 1.5, unit: 'cup', category: 'pantry' }, '1 cup + 1/2 cup')
  t.match(one(['1 tbsp flour', '1 cup flour']), { quantity: 1.06, unit: 'cup' }, '1 tbsp + 1 cup: in cups')
  t.match(one(['2 tsp salt', '2 tsp salt']), { quantity: 4, unit: 'tsp' }, 'teaspoons stay teaspoons when tablespoons would be uneven')
  t.match(one(['3 tsp sugar', '3 tsp sugar']), { quantity: 2, unit: 'tbsp' }, '6 tsp is 2 tbsp')
  t.match(one(['8 tbsp butter', '8 tbsp butter']), { quantity: 1, unit: 'cup' }, '16 tbsp is a cup')
  t.match(one(['1/3 cup milk', '1/3 cup milk']), { quantity: 0.67, unit: 'cup' }, 'thirds of a cup stay in cups')
  t.match(one(['1 tbsp sugar', '1/2 cup sugar']), { quantity: 0.56, unit: 'cup' }, 'from a quarter cup on, cups (not 9 tbsp)')
  t.match(one(['2 tbsp oil', '2 tbsp oil']), { quantity: 0.25, unit: 'cup' }, '4 tbsp is a quarter cup')
  t.match(one(['1 tbsp oil', '1 tbsp oil']), { quantity: 2, unit: 'tbsp' }, 'below a quarter cup, tablespoons')
  t.match(one(['500 ml milk', '1 l milk']), { quantity: 1.5, unit: 'l' }, 'metric volume')
  t.match(one(['300 ml stock', '200 ml stock']), { quantity: 500, unit: 'ml' })
  t.match(one(['600 g flour', '600 g flour']), { quantity: 1.2, unit: 'kg' }, 'metric mass')
  t.match(one(['1 lb beef', '4 oz beef']), { quantity: 1.25, unit: 'lb' }, 'pounds and ounces')
  t.match(one(['10 oz cheese', '8 oz cheese']), { quantity: 18, unit: 'oz' }, 'an uneven pound stays in ounces')
  t.match(one(['1 quart stock', '2 cups stock']), { quantity: 1.5, unit: 'quart' }, 'a big unit the recipe used stays')
  t.match(one(['1 cup milk', '100 ml milk']), { unit: 'cup' }, 'mixed systems: the unit of the larger part decides')
  t.match(one(['2 eggs', '1 egg']), { name: 'eggs', quantity: 3, unit: null, category: 'dairy' }, 'eggs/egg are one item, counts summed')
  t.match(one(['1 dozen eggs', '2 eggs']), { quantity: 14, unit: null }, 'a dozen is twelve')
  t.match(one(['3 tomatoes', '1 tomato']), { quantity: 4, category: 'produce' }, 'tomatoes/tomato')
  t.match(one(['1 cup berries', '1/2 cup berry']), { quantity: 1.5, unit: 'cup' }, 'berries/berry')
  t.match(one(['2 cloves garlic', '1 clove garlic']), { name: 'garlic', quantity: 3, unit: 'clove' }, 'other units sum with the same unit')
  t.match(one(['2-3 cloves garlic']), { quantity: 3 }, 'a range counts its upper end')
})

t.test('merging: what is kept apart or kept as written', async t => {
  const sugar = merged(['200 g sugar', '1 cup sugar'])
  t.equal(sugar.length, 2, 'mass and volume do not mix without a density')
  t.same(sugar.map(s => [s.quantity, s.unit]).sort(), [[1, 'cup'], [200, 'g']])
  t.equal(merged(['2 cans tomatoes', '400 g tomatoes']).length, 2, 'cans and grams stay apart')
  t.equal(merged(['1 pinch salt', '1 tsp salt']).length, 2, 'a pinch is not a volume here')
  const taste = merged(['salt to taste', 'Salt  to taste', 'pepper to taste'])
  t.same(taste.map(i => [i.name, i.quantity, i.unit, i.note]), [['pepper', null, null, 'to taste'], ['salt', null, null, 'to taste']],
    'lines without an amount: one line per ingredient, never summed, the phrase as a note')
  const salt = merged(['pinch of salt', 'salt to taste', 'a pinch of salt', 'Salt, to taste', 'salt (optional)'])
  t.same(salt.map(i => [i.name, i.quantity, i.unit, i.note]), [['salt', null, null, 'pinch; to taste; optional']],
    'a pinch, to taste and optional are one "salt" line')
  t.same(merged(['parsley for garnish', 'fresh parsley, to taste']).map(i => i.name).sort(), ['fresh parsley', 'parsley'], 'the name is kept as written otherwise')
  t.same(merged(['to taste']).map(i => i.name), ['to taste'], 'a line that is only a phrase stays as written')
  t.equal(merged(['flour', '1 cup flour']).length, 2, 'an amount-less line is not folded into a measured one')
  t.same(merged([]), [], 'nothing in, nothing out')
  const noted = one(['1 onion, chopped', '1 onion, sliced', '1 onion, chopped'])
  t.match(noted, { quantity: 3, note: 'chopped; sliced' }, 'distinct notes are kept')
})

t.test('merging: a unit system chosen for the list', async t => {
  const metric = (texts: string[]) => mergeIngredients(lines(texts), { units: 'metric' })
  const imperial = (texts: string[]) => mergeIngredients(lines(texts), { units: 'imperial' })
  t.match(metric(['1 cup milk', '1 cup milk']), [{ quantity: 473, unit: 'ml' }], 'US cups as millilitres')
  t.match(metric(['2 lb beef']), [{ quantity: 907, unit: 'g' }], 'pounds as grams')
  t.match(metric(['3 cups stock', '3 cups stock']), [{ quantity: 1.42, unit: 'l' }], 'litres from one on')
  t.match(imperial(['500 ml milk']), [{ quantity: 2.11, unit: 'cup' }], 'millilitres as cups')
  t.match(imperial(['500 g flour']), [{ quantity: 17.6, unit: 'oz' }], 'grams as ounces')
  t.match(imperial(['1 kg flour', '1 kg flour']), [{ quantity: 4.41, unit: 'lb' }], 'pounds from four on')
  t.match(mergeIngredients(lines(['1 cup milk', '100 ml milk'])), [{ unit: 'cup' }], 'no system chosen: the larger part decides, as before')
})

t.test('merging: scaling by servings', async t => {
  t.equal(servingsFactor(8, 4), 2)
  t.equal(servingsFactor(2, 4), 0.5)
  t.equal(servingsFactor(null, 4), 1, 'no planned servings: factor 1')
  t.equal(servingsFactor(4, null), 1, 'no recipe servings: factor 1')
  t.equal(servingsFactor(4, 0), 1)
  t.match(one(['1 cup flour'], 2), { quantity: 2, unit: 'cup' })
  t.match(one(['1/4 cup oil'], 0.25), { quantity: 1, unit: 'tbsp' }, 'a small result steps down to tablespoons')
  t.match(one(['3 eggs'], 0.5), { quantity: 1.5 })
  const both = mergeIngredients([...lines(['1 cup flour'], 2), ...lines(['1/2 cup flour'], 1)])
  t.match(both, [{ quantity: 2.5, unit: 'cup' }], 'each recipe scales by its own factor before summing')
})

t.test('aisles', async t => {
  const expected: Record<string, string> = {
    tomato: 'produce',
    'cherry tomatoes': 'produce',
    'red bell pepper': 'produce',
    'garlic clove': 'produce',
    'fresh basil': 'produce',
    'lemon juice': 'produce',
    baguette: 'bakery',
    'chicken breast': 'meat',
    'ground beef': 'meat',
    shrimp: 'meat',
    milk: 'dairy',
    eggs: 'dairy',
    'sour cream': 'dairy',
    'almond milk': 'dairy',
    'frozen peas': 'frozen',
    'ice cream': 'frozen',
    'chicken broth': 'pantry',
    'olive oil': 'pantry',
    'all-purpose flour': 'pantry',
    'baking soda': 'pantry',
    'peanut butter': 'pantry',
    'canned tuna': 'pantry',
    'dried apricots': 'pantry',
    salt: 'spices',
    'black pepper': 'spices',
    'ground cinnamon': 'spices',
    'dried oregano': 'spices',
    'garlic powder': 'spices',
    'orange juice': 'beverages',
    'white wine': 'beverages',
    'dish soap': 'other',
    // Equally specific keywords, neither ending the name: the one listed first (meat before pantry) wins, wherever
    // each stands in the name.
    'rice chicken soup': 'meat',
    'chicken rice soup': 'meat',
    'tomato garlic salt mix': 'produce',
    '': 'other'
  }
  for (const [name, aisle] of Object.entries(expected)) t.equal(aisleFor(name), aisle, `${name || '(empty)'}: ${aisle}`)
  const sorted = sortByAisle([
    { name: 'salt', category: 'spices' as const },
    { name: 'Milk', category: 'dairy' as const },
    { name: 'apple', category: 'produce' as const },
    { name: 'butter', category: 'dairy' as const }
  ])
  t.same(sorted.map(i => i.name), ['apple', 'butter', 'Milk', 'salt'], 'aisle order, then name')
  const byNameThenUnit = sortByAisle([
    { name: 'Éclair', category: 'bakery' as const, unit: null },
    { name: 'bread', category: 'bakery' as const, unit: 'loaf' },
    { name: 'Bread', category: 'bakery' as const, unit: 'g' },
    { name: 'eclair', category: 'bakery' as const, unit: 'box' }
  ])
  t.same(byNameThenUnit.map(i => `${i.name}/${i.unit}`), ['Bread/g', 'bread/loaf', 'Éclair/null', 'eclair/box'],
    'names compared without case or accents, then the unit (none first)')
  t.same(merged(['1 tsp salt', '2 eggs', '1 apple', '1 cup milk']).map(i => i.category), ['produce', 'dairy', 'dairy', 'spices'])
})

const ITEMS: ExportItem[] = [
  { name: 'Milk', quantity: 1.5, unit: 'l', category: 'dairy', checked: false, note: null },
  { name: 'apples', quantity: 3, unit: null, category: 'produce', checked: true, note: 'Pink Lady, or "Gala"' },
  { name: 'salt to taste', quantity: null, unit: null, category: 'spices', checked: false, note: null }
]

t.test('text export', async t => {
  const text = toText('Weekly\r\nshop', sortByAisle(ITEMS))
  t.equal(text, [
    'Weekly shop',
    '===========',
    '',
    'Produce',
    '[x] 3 apples (Pink Lady, or "Gala")',
    '',
    'Dairy',
    '[ ] 1.5 l Milk',
    '',
    'Spices & seasonings',
    '[ ] salt to taste',
    ''
  ].join('\n'), 'one block per aisle; line breaks in names cannot start new lines')
  t.match(toText('Empty', []), /\(no items\)/)
})

t.test('CSV export: RFC 4180 and no formulas', async t => {
  const csv = toCsv(ITEMS)
  t.ok(csv.endsWith('\r\n'), 'CRLF line ends')
  t.same(parse(csv), [
    ['Name', 'Quantity', 'Unit', 'Category', 'Checked', 'Note'],
    ['Milk', '1.5', 'l', 'Dairy', 'no', ''],
    ['apples', '3', '', 'Produce', 'yes', 'Pink Lady, or "Gala"'],
    ['salt to taste', '', '', 'Spices & seasonings', 'no', '']
  ], 'a CSV parser reads back every cell')
  for (const danger of ['=SUM(A1:A9)', '+1+1', '-2+3', '@SUM(1)', '\tx', '\rx', '=HYPERLINK("http://x","y")']) {
    const cell = csvCell(danger)
    const [[read]] = parse(`${cell}\r\n`, { relax_column_count: true }) as string[][]
    t.equal(read, `'${danger}`, `${JSON.stringify(danger)} gets a leading apostrophe`)
  }
  t.equal(csvCell('plain'), 'plain')
  t.equal(csvCell('a,b'), '"a,b"')
  t.equal(csvCell('say "hi"'), '"say ""hi"""')
  t.equal(csvCell('two\nlines'), '"two\nlines"')
  t.equal(csvCell('1-2'), '1-2', 'a hyphen inside a cell is harmless')
})

t.test('download file names', async t => {
  t.equal(contentDisposition('Weekly shop', 'csv'), 'attachment; filename="weekly-shop.csv"')
  t.equal(contentDisposition('Crème brûlée', 'txt'), 'attachment; filename="creme-brulee.txt"; filename*=UTF-8\'\'cr%C3%A8me-br%C3%BBl%C3%A9e.txt')
  t.equal(contentDisposition('寿司', 'json'), 'attachment; filename="grocery-list.json"; filename*=UTF-8\'\'%E5%AF%BF%E5%8F%B8.json', 'no ASCII left: a fallback name')
  const hostile = contentDisposition('../../etc/passwd"; filename="evil.exe\r\nSet-Cookie: a=b', 'csv')
  t.equal(hostile, 'attachment; filename="etc-passwd-filename-evil-exe-set-cookie-a-b.csv"', 'no quotes, path characters or line breaks')
  t.equal(contentDisposition('"\'/\\', 'txt'), 'attachment; filename="grocery-list.txt"')
  t.ok(contentDisposition('x'.repeat(300), 'txt').length < 120, 'long names are cut')
})
