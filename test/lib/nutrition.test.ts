// lib/nutrition: food data, name matching, unit conversion, recipe sums and the author's figures.
import t from 'tap'
import { allFoods, foodById } from '../../lib/nutrition/foods.js'
import { ingredientLine, ingredientNutrition, parseLine } from '../../lib/nutrition/ingredient.js'
import { matchFood, warmUp } from '../../lib/nutrition/match.js'
import { rounded } from '../../lib/nutrition/nutrients.js'
import { authorNutrition, mealNutrients, mealShare, recipeNutrition } from '../../lib/nutrition/recipe.js'
import { synonymFoodIds } from '../../lib/nutrition/synonyms.js'
import { unitKey } from '../../lib/ingredient-vocabulary.js'
import { newFoodNames } from '../helpers/hostile-inputs.js'
import { countWork, workOf } from '../helpers/work.js'

/** One line, read as the service reads a stored ingredient. */
const line = (text: string) => ingredientNutrition(ingredientLine(text)!)
const near = (actual: number | null | undefined, expected: number, tolerance: number) =>
  actual != null && Math.abs(actual - expected) <= tolerance

t.test('the food data is loaded from the committed file', async t => {
  t.ok(allFoods().length > 4000, `${allFoods().length} foods`)
  const flour = foodById('20081')
  t.equal(flour?.description, 'Wheat flour, white, all-purpose, enriched, bleached')
  t.equal(flour?.per100g.calories, 364)
  t.equal(flour?.portions.get('cup'), 125)
  t.equal(foodById('01123')?.portions.get('large'), 50, 'egg: 1 large = 50 g')
  t.equal(foodById('19335')?.portions.get('tsp'), 4.2, 'sugar: 1 tsp = 4.2 g')
  t.equal(foodById('01293')?.per100g.calories, 97, 'Greek yogurt')
  t.equal(foodById('01293')?.portions.get('cup'), 245, 'measures.ts completes SR28 where it has no cup')
  t.equal(foodById('19999'), undefined)
  for (const id of synonymFoodIds()) t.ok(foodById(id), `synonym food ${id} is in foods.json`)
  t.doesNotThrow(() => warmUp(), 'synonyms fold to distinct phrases, each naming one food')
})

t.test('2 cups all-purpose flour: about 250 g and 910 kcal', async t => {
  const flour = line('2 cups all-purpose flour')
  t.equal(flour.status, 'ok')
  t.same(flour.matched, { foodId: '20081', description: 'Wheat flour, white, all-purpose, enriched, bleached' })
  t.ok(near(flour.grams, 250, 0.5), `${flour.grams} g`)
  t.ok(near(flour.nutrients?.calories, 910, 2), `${flour.nutrients?.calories} kcal`)
  t.ok(near(flour.nutrients?.carbohydrates, 190.8, 1), 'carbohydrates')
})

t.test('eggs, oil and other household measures', async t => {
  const eggs = line('3 large eggs')
  t.equal(eggs.matched?.foodId, '01123')
  t.equal(eggs.grams, 150)
  t.ok(near(eggs.nutrients?.calories, 214.5, 0.5))
  t.ok(near(eggs.nutrients?.cholesterol, 558, 1))
  t.equal(line('3 eggs').grams, 150, 'a bare count of eggs means large eggs')
  t.equal(line('2 medium eggs').grams, 88)

  const oil = line('1 tbsp olive oil')
  t.equal(oil.matched?.foodId, '04053')
  t.ok(near(oil.grams, 13.5, 0.1))
  t.ok(near(oil.nutrients?.calories, 119, 1))
  t.ok(near(oil.nutrients?.saturatedFat, 1.9, 0.1))

  t.equal(line('1 stick butter').grams, 113)
  t.equal(line('2 cloves garlic').grams, 6)
  t.equal(line('1 medium onion').grams, 110)
  t.ok(near(line('1/2 tsp salt').nutrients?.sodium, 1163, 2), 'sodium from salt')
  t.ok(near(line('1 cup milk').grams, 244, 0.1))
  t.ok(near(line('250 ml whole milk').grams, 257.8, 0.5), 'millilitres through the food\'s cup weight')
  t.ok(near(line('1 pinch nutmeg').grams, 0.14, 0.05), 'a pinch is 1/16 tsp')
  t.equal(line('10 cherry tomatoes').grams, 170, 'a name can mean its own piece size')
  t.ok(near(line('1 dozen eggs').grams, 600, 0.1))
})

t.test('mass units convert whatever the food', async t => {
  t.ok(near(line('8 oz cream cheese').grams, 226.8, 0.1))
  t.ok(near(line('1 lb ground beef').grams, 453.6, 0.1))
  t.equal(line('1 kg sugar').grams, 1000)
  t.equal(line('125 g fine sugar').grams, 125)
  const unknown = line('100 g flibbertigibbet')
  t.equal(unknown.status, 'unmatched')
  t.equal(unknown.matched, null)
  t.equal(unknown.grams, 100, 'the weight is known even when the food is not')
  t.equal(unknown.nutrients, null, 'an unmatched line adds nothing')
})

t.test('weights stated in the line win', async t => {
  t.ok(near(line('1 (14-ounce) can sweetened condensed milk').grams, 396.9, 0.1), 'per can, before the name')
  t.equal(line('2 cups (250 g) all-purpose flour').grams, 250, 'a volume\'s weight is for the whole line')
  t.ok(near(line('8 chicken thighs, boneless, skinless (about 2 pounds)').grams, 907.2, 0.1), 'after the name: the whole line')
  t.equal(line('4 x 120 g salmon fillets').grams, 480, 'x 120 g: each')
  t.match(line('4 x 120 g salmon fillets'), { matched: { description: /salmon/i } }, 'the food is named without the weight')
  t.ok(near(line('2 × 6oz chicken breasts').grams, 340.2, 0.1), '× 6oz: each')
  t.equal(ingredientNutrition({ text: '4 x 120 g salmon fillets', name: 'x 120 g salmon fillets', quantity: 4, unit: null }).grams, 480,
    'a line stored before the weight was noted (left in the name) weighs the same')
})

t.test('quantities: ranges, name-first lines, decimal commas', async t => {
  t.equal(line('2-3 cloves garlic').grams, 7.5, 'a range is its middle')
  t.ok(near(line('1-1/2 pounds Yukon Gold potatoes').grams, 680.4, 0.1), '"1-1/2" is one and a half')
  t.match(parseLine('Mlieko: 1 dl'), { quantity: 1, unit: 'deciliter' })
  t.match(parseLine('Fragole 1,1 kg'), { quantity: 1.1 })
  t.ok(near(line('Sale fino 1 pizzico').grams, 0.38, 0.01))
  t.equal(line('Kryštálový cukor: 1 PL').status, 'ok')
  t.equal(line('3 EL Öl').matched?.foodId, '04044', 'German spoon abbreviations; Öl is oil')
  t.equal(line('2 TB olive oil').status, 'ok', 'a unit the parser left in the name')
  t.equal(line('28 fl. oz vegetable stock').status, 'ok')
})

t.test('what cannot be counted is said', async t => {
  const salt = line('salt to taste')
  t.equal(salt.status, 'no-quantity')
  t.equal(salt.matched?.foodId, '02047')
  t.equal(salt.grams, null)
  t.equal(salt.nutrients, null)
  const word = line('2 cups flibbertigibbet')
  t.equal(word.status, 'unmatched')
  t.equal(word.grams, null)
  const can = line('1 can all-purpose flour')
  t.equal(can.status, 'unit-unknown', 'flour has no can weight')
  t.equal(can.matched?.foodId, '20081')
  t.equal(line('1 package mushrooms').status, 'unit-unknown', 'a container of unstated weight')
  t.equal(ingredientLine(''), null)
  t.equal(ingredientLine(42), null)
  t.equal(ingredientLine({ quantity: 2 }), null)
  t.match(ingredientLine({ text: '2 cups flour', name: 'flour', quantity: 2, unit: 'cup' }), { name: 'flour', quantity: 2, unit: 'cup' })
})

t.test('names match the food a cook means', async t => {
  const cases: Array<[string, string]> = [
    ['all-purpose flour', '20081'],
    ['plain flour', '20081'],
    ['butter', '01001'],
    ['unsalted butter', '01145'],
    ['Eggs', '01123'],
    ['sugar', '19335'],
    ['granulated sugar', '19335'],
    ['light brown sugar', '19334'],
    ['extra-virgin olive oil', '04053'],
    ['milk', '01077'],
    ['garlic', '11215'],
    ['garlic cloves', '11215'],
    ['yellow onion', '11282'],
    ['green onions', '11291'],
    ['boneless skinless chicken breasts', '05062'],
    ['chicken thighs', '05096'],
    ['black pepper', '02030'],
    ['freshly ground black pepper', '02030'],
    ['red pepper flakes', '02031'],
    ['red bell pepper', '11821'],
    ['jalapeño peppers', '11979'],
    ['peanut butter', '16098'],
    ['butter beans', '16051'],
    ['cream cheese', '01017'],
    ['coconut milk', '12118'],
    ['TOMATOES', '11529'],
    ['fresh parsley leaves', '11297'],
    ['buttermilk or milk', '01088'],
    ['button or cremini mushrooms', '11260'],
    ['half and half', '01049'],
    ['Zwiebeln', '11282'],
    ['huile d\'olive', '04053'],
    ['Panna fresca liquida', '01053']
  ]
  for (const [name, id] of cases) t.equal(matchFood(name)?.food.id, id, `${name} -> ${foodById(id)?.description}`)
  // Not in the synonym list: the word index finds the food.
  t.equal(matchFood('cream of tartar')?.food.description, 'Leavening agents, cream of tartar')
  t.equal(matchFood('cream of tartar')?.via, 'search')
  t.match(matchFood('fennel bulb')?.food.description, /^Fennel, bulb/)
  t.equal(matchFood('flibbertigibbet'), null, 'an unknown word')
  t.equal(matchFood('powder'), null, 'a vague word alone')
  t.equal(matchFood('1 recipe Italian meringue'), null, 'a word that is only a detail of a food')
})

// Counted, not timed (test/helpers/work.ts; a clock's verdict depends on what else the machine runs): the work of the
// built-ins a match calls (map and set look-ups, array searches and callbacks, string searches) is compared with one
// pass over the foods counted the same way. A scan per name calls at least one of them per food; the index touches
// only the foods listed under the name's words. `npm run bench:hostile-input` times the 2000 names.
t.test('matching is indexed, not a scan per name', async t => {
  warmUp()
  const scan = workOf(() => allFoods().some(food => food.description === 'no such food'))
  t.ok(scan > allFoods().length, `one pass over the ${allFoods().length} foods counts ${scan}`)
  let most = { name: '', work: 0 }
  let matched = 0
  for (const name of newFoodNames(2000)) {
    const { work, result } = countWork(() => matchFood(name))
    if (result?.via === 'search') matched++
    if (work > most.work) most = { name, work }
  }
  t.equal(matched, 2000, 'every name found a food through the word index (no synonym covers the brand words)')
  t.ok(most.work < scan, `2000 new names: at most ${most.work} (${most.name}), less than one pass over the foods`)
})

t.test('units', async t => {
  t.equal(unitKey('T'), 'tbsp')
  t.equal(unitKey('t'), 'tsp')
  t.equal(unitKey('Tbsp.'), 'tbsp')
  t.equal(unitKey('tablespoon'), 'tbsp')
  t.equal(unitKey('fluid ounce'), 'floz')
  t.equal(unitKey('EL'), 'tbsp')
  t.equal(unitKey('lbs'), 'lb')
  t.equal(unitKey('handful'), 'handful', 'the parser\'s units are the vocabulary\'s')
  t.equal(unitKey('inch'), null)
})

t.test('author figures: keys, units and numbers as sites write them', async t => {
  t.same(authorNutrition({
    calories: '420 kcal',
    fatContent: '12 g',
    saturatedFatContent: '1,5 g',
    sodiumContent: '0.5 g',
    cholesterol: '30mg',
    carbohydrateContent: 55,
    servingSize: '1 slice',
    sugar: 'lots'
  }), { calories: 420, protein: null, fat: 12, saturatedFat: 1.5, carbohydrates: 55, fiber: null, sugars: null, sodium: 500, cholesterol: 30 })
  t.ok(near(authorNutrition({ energy: '1760 kJ' }).calories, 420.7, 0.1), 'kilojoules')
  t.same(authorNutrition(null).calories, null)
})

t.test('a recipe: totals, per serving, the author first', async t => {
  const ingredients = [
    { text: '2 cups all-purpose flour', name: 'all-purpose flour', quantity: 2, unit: 'cup' },
    '3 large eggs',
    '1 tbsp olive oil',
    'salt to taste',
    '1 cup flibbertigibbet',
    { junk: true }
  ]
  const computed = recipeNutrition({ ingredients, servings: 4, nutrition: null })
  t.same(computed.coverage, { lines: 5, matched: 4, converted: 3 })
  t.same(computed.ingredients.map(i => i.status), ['ok', 'ok', 'ok', 'no-quantity', 'unmatched'])
  t.ok(near(computed.total.calories, 910 + 214.5 + 119.3, 2), `${computed.total.calories} kcal`)
  t.ok(near(computed.perServing.calories, computed.total.calories! / 4, 1e-9))
  t.equal(computed.sources.calories, 'ingredients')
  t.equal(computed.perServingIsWholeRecipe, false)
  t.ok(computed.total.fiber != null && computed.total.sugars != null, 'every nutrient known')

  const authored = recipeNutrition({ ingredients, servings: 4, nutrition: { calories: 300, proteinContent: '9 g' } })
  t.equal(authored.perServing.calories, 300)
  t.equal(authored.total.calories, 1200)
  t.equal(authored.perServing.protein, 9)
  t.equal(authored.sources.calories, 'author')
  t.equal(authored.sources.protein, 'author')
  t.equal(authored.sources.fat, 'ingredients')
  t.same(authored.total.fat, computed.total.fat)

  const whole = recipeNutrition({ ingredients, servings: null, nutrition: null })
  t.equal(whole.perServingIsWholeRecipe, true)
  t.same(whole.perServing, whole.total, 'no servings: a serving is the whole recipe')

  const nothing = recipeNutrition({ ingredients: ['salt to taste'], servings: 2, nutrition: null })
  t.same(rounded(nothing.total), { calories: null, protein: null, fat: null, saturatedFat: null, carbohydrates: null, fiber: null, sugars: null, sodium: null, cholesterol: null }, 'nothing weighed: unknown, not zero')
  t.same(nothing.sources.calories, null)
})

t.test('a planned meal\'s share of its recipe', async t => {
  t.equal(mealShare(2, 4), 0.5)
  t.equal(mealShare(null, 4), 0.25, 'no planned servings: one serving')
  t.equal(mealShare(3, null), 3, 'a recipe without servings is one serving')
  t.equal(mealShare(null, null), 1)
  const recipe = recipeNutrition({ ingredients: ['2 cups all-purpose flour'], servings: 4, nutrition: null })
  t.ok(near(mealNutrients(recipe, 2).calories, recipe.total.calories! / 2, 1e-9))
})

t.test('a unit no table knows is not a count of pieces', async t => {
  const ginger = ingredientNutrition({ text: '2 inch ginger', name: 'ginger', quantity: 2, unit: 'inch' })
  t.equal(ginger.matched?.foodId, '11216')
  t.equal(ginger.status, 'unit-unknown')
  t.equal(ingredientNutrition({ text: '2 (100 g) widgets of ginger', name: 'ginger', quantity: 2, unit: 'widget' }).grams, 200, 'unless the line states a weight')
  for (let i = 0; i < 3; i++) t.match(ingredientLine({ text: 'Fragole 1,1 kg', name: 'Fragole', quantity: 11, unit: 'kilogram' }), { quantity: 1.1 }, 'the same answer every time')
})
