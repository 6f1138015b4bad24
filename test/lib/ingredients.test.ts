// The ingredient-line parser on the forms recipe pages and users write: mixed numbers, decimal commas, sizes,
// containers, parentheses before the name (sizes stay units: nutrition reads them as portions), "a pinch of", "2 x 400g cans",
// "4 x 120 g fillets" (the weight noted, the food named); the raw line is always kept.
import t from 'tap'
import { normalizeIngredients, parseIngredientLine } from '../../lib/ingredients.js'

const cases: Array<[string, { quantity: number | null, quantity2?: number | null, unit: string | null, name: string, note: string | null }]> = [
  ['1 1/2 cups flour', { quantity: 1.5, unit: 'cup', name: 'flour', note: null }],
  ['1-1/2 cups flour', { quantity: 1.5, quantity2: null, unit: 'cup', name: 'flour', note: null }],
  ['2-3 cups stock', { quantity: 2, quantity2: 3, unit: 'cup', name: 'stock', note: null }],
  ['1,5 kg potatoes', { quantity: 1.5, unit: 'kilogram', name: 'potatoes', note: null }],
  ['1,000 g flour', { quantity: 1000, unit: 'gram', name: 'flour', note: null }],
  ['250 gr flour', { quantity: 250, unit: 'gram', name: 'flour', note: null }],
  ['2 grated carrots', { quantity: 2, unit: null, name: 'grated carrots', note: null }],
  ['1 (14 oz) can diced tomatoes', { quantity: 1, unit: 'can', name: 'diced tomatoes', note: '14 oz' }],
  ['1 cup (240 ml) water', { quantity: 1, unit: 'cup', name: 'water', note: '240 ml' }],
  ['a pinch of salt', { quantity: 1, unit: 'pinch', name: 'salt', note: null }],
  ['A handful of basil', { quantity: 1, unit: 'handful', name: 'basil', note: null }],
  ['a lot of love', { quantity: null, unit: null, name: 'a lot of love', note: null }],
  ['2 large eggs', { quantity: 2, unit: 'large', name: 'eggs', note: null }],
  ['1 large onion, chopped', { quantity: 1, unit: 'large', name: 'onion', note: 'chopped' }],
  ['2 x 400g cans chickpeas', { quantity: 2, unit: 'can', name: 'chickpeas', note: '400g' }],
  ['4 x 120 g salmon fillets', { quantity: 4, unit: null, name: 'salmon fillets', note: '120 g' }],
  ['2 × 6oz chicken breasts, skinless', { quantity: 2, unit: null, name: 'chicken breasts, skinless', note: '6oz' }],
  ['4 slices bacon', { quantity: 4, unit: 'slice', name: 'bacon', note: null }],
  ['2 jars pesto', { quantity: 2, unit: 'jar', name: 'pesto', note: null }],
  ['1 packet yeast (7 g)', { quantity: 1, unit: 'packet', name: 'yeast', note: '7 g' }],
  ['3-4 cloves garlic', { quantity: 3, quantity2: 4, unit: 'clove', name: 'garlic', note: null }],
  ['Salt and pepper, to taste', { quantity: null, unit: null, name: 'Salt and pepper', note: 'to taste' }]
]

t.test('each form is read into quantity, unit, name and note, the line kept as written', async t => {
  for (const [line, expected] of cases) {
    const parsed = parseIngredientLine(line, 'Main')
    t.match(parsed, { text: line, group: 'Main', ...expected }, line)
  }
})

t.test('objects keep what they say and fill the rest from their text', async t => {
  t.match(normalizeIngredients([{ text: '2 x 400g cans chickpeas' }]), [{ quantity: 2, unit: 'can', name: 'chickpeas' }])
  t.match(normalizeIngredients([{ name: 'eggs', quantity: 3, text: '3 large eggs' }]), [{ name: 'eggs', quantity: 3, unit: null }])
})

t.test('a long line full of parentheses is still read', async t => {
  const line = `1 ${'(a) '.repeat(2000)}${'x'.repeat(5000)} 1,5 gr`
  const parsed = parseIngredientLine(line)
  t.equal(parsed.text, line)
  t.equal(parsed.quantity, 1)
})
