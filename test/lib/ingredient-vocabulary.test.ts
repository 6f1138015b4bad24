// The ingredient vocabulary (lib/ingredient-vocabulary.ts): one table of singular cases run through the TypeScript rule
// and through PostgreSQL's ingredient_singular / ingredient_fold (migration 0034, generated from the same table), so
// grocery lists, nutrition and the search by ingredients cannot disagree; and the units every consumer reads.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseIngredient, unitsOfMeasure } from 'parse-ingredient'
import postgres from 'postgres'
import t from 'tap'
import { aisleFor, measuredUnit, normalizeName } from '../../lib/grocery.js'
import {
  AISLE_KEYWORDS, GRAMS, MILLILITRES, SINGULAR_EXCEPTIONS, singular, singularFunctionSql, unitDefinition, unitKey, unitKind, UNITS
} from '../../lib/ingredient-vocabulary.js'
import { normalizeIngredients, parseIngredientLine } from '../../lib/ingredients.js'
import { words } from '../../lib/nutrition/text.js'
import { testDatabaseUrl } from '../setup/database.js'

/** [word, its singular]. The first rows are where lib/grocery.ts, lib/nutrition/text.ts and migration 0023 disagreed. */
const CASES: ReadonlyArray<readonly [string, string]> = [
  // grocery: goose, nutrition: gees, 0023: geese
  ['geese', 'goose'],
  // grocery: grit, nutrition: grits, 0023: grit
  ['grits', 'grits'],
  // grocery: mouss, nutrition: mousse, 0023: mouss
  ['mousses', 'mousse'],
  // 0023: berri, cooki, celeri (stems, not words)
  ['berries', 'berry'], ['berry', 'berry'], ['cookies', 'cookie'], ['cookie', 'cookie'], ['celery', 'celery'],
  // nutrition and 0023 kept -is words, grocery dropped the s: kept, with the food plurals of -i words as exceptions
  ['anis', 'anis'], ['pastis', 'pastis'], ['haggis', 'haggis'], ['kiwis', 'kiwi'], ['chilis', 'chili'],
  ['chilies', 'chili'], ['chillies', 'chilli'], ['zucchinis', 'zucchini'],
  // 0023 kept greens and bitters (collard greens are not the colour)
  ['greens', 'greens'], ['bitters', 'bitters'],
  // irregular
  ['mice', 'mouse'], ['teeth', 'tooth'], ['feet', 'foot'], ['children', 'child'], ['people', 'person'], ['oxen', 'ox'],
  ['leaves', 'leaf'], ['loaves', 'loaf'], ['halves', 'half'], ['calves', 'calf'], ['knives', 'knife'], ['shelves', 'shelf'],
  // -ies
  ['cherries', 'cherry'], ['anchovies', 'anchovy'], ['strawberries', 'strawberry'], ['brownies', 'brownie'],
  ['smoothies', 'smoothie'], ['veggies', 'veggie'], ['pies', 'pie'], ['calories', 'calorie'], ['series', 'series'],
  ['species', 'species'],
  // -es
  ['tomatoes', 'tomato'], ['potatoes', 'potato'], ['mangoes', 'mango'], ['peaches', 'peach'], ['radishes', 'radish'],
  ['boxes', 'box'], ['glasses', 'glass'], ['quiches', 'quiche'], ['brioches', 'brioche'], ['ganaches', 'ganache'],
  ['shoes', 'shoe'], ['molasses', 'molasses'],
  // -s
  ['eggs', 'egg'], ['peas', 'pea'], ['oats', 'oat'], ['lentils', 'lentil'], ['olives', 'olive'], ['cloves', 'clove'],
  ['cheeses', 'cheese'], ['sauces', 'sauce'], ['avocados', 'avocado'], ['wedges', 'wedge'], ['thighs', 'thigh'],
  // singular or uncountable, ending in s
  ['hummus', 'hummus'], ['asparagus', 'asparagus'], ['couscous', 'couscous'], ['citrus', 'citrus'], ['swiss', 'swiss'],
  ['bass', 'bass'], ['glass', 'glass'], ['gas', 'gas'], ['ros', 'ros'],
  // not plural
  ['egg', 'egg'], ['rice', 'rice'], ['lettuce', 'lettuce'], ['tomato', 'tomato'], ['goose', 'goose'], ['', ''],
  // other letters (PostgreSQL counts characters, as the rule counts code points)
  ['piñas', 'piña'], ['äpfels', 'äpfel'], ['日本s', '日本s'], ['𠀀𠀀𠀀s', '𠀀𠀀𠀀'], ['2s', '2s'], ['100s', '100']
]

t.test('singular: the table of cases', async t => {
  for (const [word, one] of CASES) t.equal(singular(word), one, `${word} -> ${one}`)
  for (const [word, one] of Object.entries(SINGULAR_EXCEPTIONS)) {
    t.equal(singular(word), one, `exception ${word}`)
    t.equal(singular(one), one, `${one} is its own singular`)
  }
  t.equal(singular('constructor'), 'constructor', 'only the table\'s own words are exceptions')
  t.equal(singular('hasOwnProperty'), 'hasOwnProperty')
})

t.test('singular: grocery merging and nutrition use the one rule', async t => {
  for (const [word, one] of CASES.filter(([word]) => /^[a-z]+$/.test(word))) {
    t.equal(normalizeName(word), one, `grocery: ${word}`)
    t.same(words(word), [one], `nutrition: ${word}`)
  }
  t.equal(normalizeName('Fresh Geese'), 'fresh goose')
  t.same(words('Chocolate Mousses'), ['chocolate', 'mousse'])
})

t.test('units: every spelling, one key, one size', async t => {
  const cases: Array<[string, string | null]> = [
    ['T', 'tbsp'], ['Tb', 'tbsp'], ['Tbs', 'tbsp'], ['t', 'tsp'], ['tbsp.', 'tbsp'], ['Tablespoons', 'tbsp'],
    ['EL', 'tbsp'], ['tl', 'tsp'], ['fl. oz', 'floz'], ['fl  oz', 'floz'], ['fl-oz', 'floz'], ['fluid ounce', 'floz'],
    ['cc', 'ml'], ['gms', 'g'], ['gramos', 'g'], ['lbs', 'lb'], ['kilogrammes', 'kg'], ['pnt', 'pint'], ['qts', 'quart'],
    ['each', 'piece'], ['ea', 'piece'], ['units', 'piece'], ['dozen', 'dozen'], ['tins', 'can'], ['sachet', 'packet'],
    ['tub', 'container'], ['handful', 'handful'], ['extra large', 'xlarge'], ['inch', null], ['', null], ['constructor', null]
  ]
  for (const [raw, key] of cases) t.equal(unitKey(raw), key, `${JSON.stringify(raw)} -> ${key}`)
  t.equal(unitKey(null), null)
  for (const key of Object.keys(UNITS)) t.equal(unitKey(key), key, `${key} names itself`)

  t.equal(MILLILITRES.tbsp * 3, MILLILITRES.tsp * 9, 'a tablespoon is 3 teaspoons')
  t.ok(Math.abs(MILLILITRES.cup - MILLILITRES.tbsp * 16) < 1e-9, 'a cup is 16 tablespoons')
  t.equal(Number(MILLILITRES.cup.toFixed(3)), 236.588)
  t.ok(Math.abs(GRAMS.lb - GRAMS.oz * 16) < 1e-9, 'a pound is 16 ounces')
  t.equal(GRAMS.kg, 1000)
  t.equal(unitDefinition('dozen').amount, 12)
  t.equal(unitKind('jar'), 'container')
  t.equal(unitKind('clove'), 'count')
  t.equal(unitKind('pinch'), 'volume')
  t.equal(unitKind('not a unit'), 'count', 'a unit no table knows counts pieces of it')

  // Grocery lists sum the shopping units of a kind; nutrition converts every volume and mass.
  t.match(measuredUnit('tablespoons'), { dimension: 'volume', unit: 'tbsp' })
  t.match(measuredUnit('EL'), { dimension: 'volume', unit: 'tbsp' }, 'the spellings nutrition knows, on a list too')
  t.equal(measuredUnit('pinch'), null, 'nobody buys by the pinch')
  t.equal(measuredUnit('drop'), null)
  t.equal(measuredUnit('jar'), null)
})

t.test('units: the parser stores only units the vocabulary knows', async t => {
  const lengths = new Set(['centimeter', 'foot', 'inch', 'meter', 'millimeter', 'yard'])
  for (const [id, unit] of Object.entries(unitsOfMeasure)) {
    if (lengths.has(id)) continue
    t.ok(unitKey(id) != null, `parse-ingredient's ${id}`)
    t.ok(unitKey(unit.short) != null, `parse-ingredient's ${unit.short}`)
    t.equal(unitKey(unit.plural), unitKey(id), `parse-ingredient's ${unit.plural}`)
  }
  for (const [key, unit] of Object.entries(UNITS)) {
    if (!('parsed' in unit)) continue
    for (const spelling of [key, `${key}s`, ...unit.parsed]) {
      const [line] = normalizeIngredients([`2 ${spelling} pesto`])
      t.equal(unitKey(line.unit), key, `"2 ${spelling} pesto": ${key}`)
      t.equal(line.name, 'pesto')
    }
  }
  t.match(parseIngredientLine('2 tins tomatoes'), { unit: 'can', name: 'tomatoes' }, 'tins and cans are one unit')
  t.equal(parseIngredient('1 glas pesto')[0]?.unitOfMeasureID ?? null, null, 'foreign spellings are not taught to the parser')
})

t.test('aisle keywords are written singular', async t => {
  for (const [aisle, keywords] of Object.entries(AISLE_KEYWORDS)) {
    for (const keyword of keywords) {
      if (keyword === 'herbes de provence') continue // French; a name and a keyword are folded alike anyway
      t.ok(keyword.split(' ').every(word => singular(word) === word), `${aisle}: ${keyword}`)
    }
  }
  t.equal(aisleFor('2 Cherries'), 'produce')
  t.equal(aisleFor('Molasses'), 'pantry')
  t.equal(aisleFor('Herbes de Provence'), 'spices')
})

t.test('migration 0034 holds the generated function', async t => {
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../db/migrations')
  const newest = readdirSync(dir).filter(name => name.endsWith('.sql')).sort().reverse()
    .find(name => readFileSync(path.join(dir, name), 'utf8').includes('FUNCTION ingredient_singular('))
  t.ok(newest, 'a migration defines ingredient_singular')
  t.ok(readFileSync(path.join(dir, newest!), 'utf8').includes(singularFunctionSql()),
    `${newest} holds singularFunctionSql() as it is now: after changing the table, add a migration with its text`)
})

t.test('PostgreSQL agrees with the rule on every case', async t => {
  const sql = postgres(await testDatabaseUrl(), { max: 1, onnotice: () => {} })
  t.teardown(() => sql.end())
  const all = [...new Set([...CASES.map(([word]) => word), ...Object.keys(SINGULAR_EXCEPTIONS), ...Object.values(SINGULAR_EXCEPTIONS)])]
  const rows = await sql`select w, ingredient_singular(w) as one from unnest(${all}::text[]) as w`
  t.equal(rows.length, all.length)
  for (const row of rows) t.equal(row.one, singular(row.w), `ingredient_singular(${JSON.stringify(row.w)})`)
  const [nothing] = await sql`select ingredient_singular(null) as one`
  t.equal(nothing.one, null)

  // The search's keys: the same words in every line, the lines kept (an empty one too).
  const names = ['Fresh Geese', 'chocolate MOUSSES', 'Grits', 'berries', '', 'Crème fraîche', "baker's  potatoes!"]
  const [keys] = await sql`select recipe_ingredient_names(to_jsonb(${names}::text[])) as keys`
  t.same(keys.keys, ['fresh goose', 'chocolate mousse', 'grits', 'berry', '', 'creme fraiche', 'baker potato'])
  const plain = CASES.filter(([word]) => /^[a-z]+$/.test(word))
  const [line] = await sql`select ingredient_fold(${plain.map(([word]) => word).join(' ')}) as key`
  t.equal(line.key, plain.map(([, one]) => one).join(' '), 'a line of every case')
  const [breaks] = await sql`select ingredient_fold(${'\nEggs\n\n Peas \n'}) as key`
  t.equal(breaks.key, '\negg\n\npea\n', 'line breaks kept')

  // The staple ranks name keys, not stems.
  const ranks = await sql`select w, ingredient_staple_rank(ingredient_fold(w)) as rank from unnest(${['berries', 'celery', 'rosemary', 'tomatoes', 'eggs', 'chilies']}::text[]) as w`
  for (const row of ranks) t.ok(row.rank > 0, `${row.w} is a staple`)
})
