// Pasted text and OCR output to a recipe preview (lib/recipe-import/text.ts): layouts with and without headings,
// several languages, groups and sections, numbering and bullet styles, OCR debris, bounds and linear work.
import t from 'tap'
import { parseRecipeText, TEXT_LIMITS, UNTITLED } from '../../lib/recipe-import/text.js'
import type { RecipePreview } from '../../lib/recipe-import/preview.js'
import { hostileTexts } from '../helpers/hostile-inputs.js'
import { LINEAR_GROWTH, workOf } from '../helpers/work.js'

function parse (text: string): RecipePreview {
  const preview = parseRecipeText(text)
  if (preview == null) throw new Error(`no recipe found in:\n${text}`)
  return preview
}

const texts = (preview: RecipePreview) => preview.ingredients.map(i => i.text)
const steps = (preview: RecipePreview) => preview.instructions.map(s => s.text)

t.test('a recipe with headings, times, yield, notes and nutrition', async t => {
  const preview = parse(`Classic Banana Bread

The moistest banana bread you will ever bake,
with a crackly top.

Prep time: 15 min | Cook: 1 hr 10 mins
Serves 8

Ingredients
- 3 ripe bananas, mashed
- 1/3 cup melted butter
- ¾ cup sugar
- 1 ½ cups all-purpose flour
- Pinch of salt

Instructions
1. Preheat the oven to 350°F (175°C) and butter a 4x8-inch loaf pan.
2. In a mixing bowl, mash the ripe bananas with a fork until smooth. Stir the melted butter into
the mashed bananas.
3. Pour the batter into the pan. Bake for 55 to 65 minutes.

Notes
Freezes well for up to three months.

Nutrition
Calories: 240 kcal | Fat: 8 g
Protein 3 g`)
  t.equal(preview.title, 'Classic Banana Bread')
  t.equal(preview.description, 'The moistest banana bread you will ever bake, with a crackly top.', 'prose before the ingredients, lines joined')
  t.same(texts(preview), ['3 ripe bananas, mashed', '1/3 cup melted butter', '¾ cup sugar', '1 ½ cups all-purpose flour', 'Pinch of salt'],
    'bullets stripped, the line kept as text')
  t.match(preview.ingredients[0], { name: 'ripe bananas', quantity: 3, unit: null, note: 'mashed', group: null }, 'parsed by parseIngredientLine')
  t.match(preview.ingredients[3], { name: 'all-purpose flour', quantity: 1.5, unit: 'cup' })
  t.same(preview.instructions, [
    { step: 1, text: 'Preheat the oven to 350°F (175°C) and butter a 4x8-inch loaf pan.' },
    { step: 2, text: 'In a mixing bowl, mash the ripe bananas with a fork until smooth. Stir the melted butter into the mashed bananas.' },
    { step: 3, text: 'Pour the batter into the pan. Bake for 55 to 65 minutes.' }
  ], 'numbering stripped, a step broken across lines joined, notes left out')
  t.match(preview, { prepTime: 15, cookTime: 70, totalTime: 85, servings: 8, yields: '8 servings', language: 'en' })
  t.same(preview.nutrition, { calories: '240 kcal', fatContent: '8 g', proteinContent: '3 g' })
  t.match(preview, { imageUrl: null, cuisine: null, category: null, tags: [], author: null, sourceUrl: null })
})

t.test('without headings, sections come from the layout', async t => {
  const preview = parse(`Quick Pancakes
1 cup flour
2 tbsp sugar
½ tsp salt
1 egg
1 cup milk
Whisk the flour, sugar and salt together in a large bowl.
Add the egg and milk and whisk until smooth.
Cook ladlefuls in a hot buttered pan until golden on both sides.`)
  t.equal(preview.title, 'Quick Pancakes')
  t.equal(preview.description, null)
  t.same(texts(preview), ['1 cup flour', '2 tbsp sugar', '½ tsp salt', '1 egg', '1 cup milk'])
  t.same(steps(preview), [
    'Whisk the flour, sugar and salt together in a large bowl.',
    'Add the egg and milk and whisk until smooth.',
    'Cook ladlefuls in a hot buttered pan until golden on both sides.'
  ])
  t.equal(preview.language, null, 'no heading tells the language')

  const numbered = parse(`Tea
2 tea bags
500 ml water
1. Boil the water
2. Pour it over the tea bags
3. Wait three minutes`)
  t.same(texts(numbered), ['2 tea bags', '500 ml water'])
  t.same(steps(numbered), ['Boil the water', 'Pour it over the tea bags', 'Wait three minutes'], 'numbered lines are steps')

  const paragraphs = parse(`Roast chicken

1 whole chicken
2 lemons
Salt and pepper to taste

Heat the oven to 220C. Rub the chicken all over with salt and pepper and stuff the
cavity with the lemons.

Roast for an hour and a half, until the juices run clear. Rest for 10 minutes before
carving.`)
  t.same(texts(paragraphs), ['1 whole chicken', '2 lemons', 'Salt and pepper to taste'], '"to taste" makes a line without quantity an ingredient')
  t.same(steps(paragraphs), [
    'Heat the oven to 220C. Rub the chicken all over with salt and pepper and stuff the cavity with the lemons.',
    'Roast for an hour and a half, until the juices run clear. Rest for 10 minutes before carving.'
  ], 'paragraphs are steps, their wrapped lines joined')

  const bulleted = parse(`Salad
• 1 cucumber
• 2 tomatoes
• Feta
Slice the cucumber and the tomatoes.
Crumble the feta over the top and serve.`)
  t.same(texts(bulleted), ['1 cucumber', '2 tomatoes', 'Feta'], 'a short bulleted line is an ingredient')
  t.equal(bulleted.instructions.length, 2)

  const intro = parse(`This is the cake my grandmother baked every Sunday for the whole family, and now I bake it too.
Lemon Cake
200 g flour
2 lemons
Mix everything and bake for 40 minutes.`)
  t.equal(intro.title, 'Lemon Cake', 'a long first sentence is not the title: the line before the ingredients is')
  t.match(intro.description, /^This is the cake my grandmother/)
})

t.test('heading spellings', async t => {
  const ingredientHeadings = ['Ingredients', 'INGREDIENTS', 'Ingredients:', '## Ingredients', '**Ingredients**', 'Ingredient list',
    "What you'll need", 'You will need:', 'Ingredients (serves 4)', 'lngredients', '• Ingredients']
  const stepHeadings = ['Instructions', 'DIRECTIONS:', 'Method', '### Method', 'Steps', 'Preparation', 'How to make it', 'Procedure:',
    '**Directions:**']
  for (const [n, ingredientsHeading] of ingredientHeadings.entries()) {
    const stepsHeading = stepHeadings[n % stepHeadings.length]
    const preview = parse(`Toast\n${ingredientsHeading}\nBread\nButter\n${stepsHeading}\nToast the bread\nSpread the butter`)
    t.same(texts(preview), ['Bread', 'Butter'], `${ingredientsHeading} / ${stepsHeading}: ingredients`)
    t.same(steps(preview), ['Toast the bread', 'Spread the butter'], `${ingredientsHeading} / ${stepsHeading}: steps`)
  }
  const inline = parse('Porridge\nIngredients: 50 g oats\n300 ml milk\nMethod: Simmer the oats in the milk for 5 minutes.')
  t.same(texts(inline), ['50 g oats', '300 ml milk'], 'text after "Ingredients:" on the same line')
  t.same(steps(inline), ['Simmer the oats in the milk for 5 minutes.'])
  const sentence = parse('Stew\nIngredients are cheap and easy to find here.\n500 g beef\n2 carrots\nBrown the beef, add the carrots and simmer.')
  t.equal(sentence.description, 'Ingredients are cheap and easy to find here.', 'a sentence starting with the word is no heading')
  t.same(texts(sentence), ['500 g beef', '2 carrots'])
})

t.test('headings in German, French, Spanish, Italian and Dutch', async t => {
  const cases: Array<[string, string, string[], string[]]> = [
    ['de', 'Apfelkuchen\nZutaten für 4 Personen\n200 g Mehl\n3 Äpfel\nZubereitung\n1. Den Ofen auf 180 °C vorheizen.\n2. Mehl und Äpfel mischen und 45 Minuten backen.',
      ['200 g Mehl', '3 Äpfel'], ['Den Ofen auf 180 °C vorheizen.', 'Mehl und Äpfel mischen und 45 Minuten backen.']],
    ['fr', 'Crêpes\nPour 4 personnes\nIngrédients :\n250 g de farine\n4 œufs\nPréparation :\nMélanger la farine et les œufs.\nCuire dans une poêle chaude.',
      ['250 g de farine', '4 œufs'], ['Mélanger la farine et les œufs.', 'Cuire dans une poêle chaude.']],
    ['es', 'Tortilla española\nIngredientes\n4 patatas\n6 huevos\nPreparación\n1. Pelar y cortar las patatas.\n2. Batir los huevos y mezclar.',
      ['4 patatas', '6 huevos'], ['Pelar y cortar las patatas.', 'Batir los huevos y mezclar.']],
    ['it', 'Pasta al pomodoro\nIngredienti\n320 g di spaghetti\n400 g di pomodori\nProcedimento\nCuocere la pasta in acqua salata.\nCondire con il sugo.',
      ['320 g di spaghetti', '400 g di pomodori'], ['Cuocere la pasta in acqua salata.', 'Condire con il sugo.']],
    ['nl', 'Pannenkoeken\nIngrediënten\n250 g bloem\n2 eieren\nBereiding\n1. Meng de bloem met de eieren.\n2. Bak de pannenkoeken.',
      ['250 g bloem', '2 eieren'], ['Meng de bloem met de eieren.', 'Bak de pannenkoeken.']]
  ]
  for (const [language, text, ingredients, instructions] of cases) {
    const preview = parse(text)
    t.equal(preview.language, language, `${language}: language from the headings`)
    t.same(texts(preview), ingredients, `${language}: ingredients`)
    t.same(steps(preview), instructions, `${language}: steps`)
  }
  t.match(parse(cases[0][1]), { servings: 4, yields: '4 servings' }, '"Zutaten für 4 Personen" carries the yield')
  t.match(parse(cases[1][1]), { servings: 4 }, '"Pour 4 personnes"')
  const german = parse('Brot\nZubereitungszeit: 20 Min.\nBackzeit: 1 Std.\nZutaten\n500 g Mehl\nFür den Belag\n100 g Käse\nZubereitung\nAlles mischen und backen.')
  t.match(german, { prepTime: 20, cookTime: 60 })
  t.match(german.ingredients[1], { text: '100 g Käse', group: 'Für den Belag' })
})

t.test('groups of ingredients and sections of steps', async t => {
  const preview = parse(`Pizza Margherita
Makes 2 pizzas

Ingredients
For the dough:
500 g flour
7 g dried yeast
Ingredients for the sauce:
400 g canned tomatoes
1 clove garlic
TO SERVE
basil leaves

Method
Make the dough:
1. Mix the flour and yeast, add the water and knead for 10 minutes.
2. Leave to rise for an hour.
### Make the sauce
3. Blend the tomatoes with the garlic.`)
  t.same(preview.ingredients.map(i => [i.text, i.group]), [
    ['500 g flour', 'For the dough'],
    ['7 g dried yeast', 'For the dough'],
    ['400 g canned tomatoes', 'For the sauce'],
    ['1 clove garlic', 'For the sauce'],
    ['basil leaves', 'To serve']
  ])
  t.same(preview.instructions, [
    { step: 1, text: 'Mix the flour and yeast, add the water and knead for 10 minutes.', section: 'Make the dough' },
    { step: 2, text: 'Leave to rise for an hour.', section: 'Make the dough' },
    { step: 3, text: 'Blend the tomatoes with the garlic.', section: 'Make the sauce' }
  ])
  t.match(preview, { servings: 2, yields: '2 pizzas' })

  const noHeadings = parse(`Lemon Tart
For the pastry
200 g flour
100 g butter
For the filling
3 lemons
3 eggs
1. Make the pastry and bake it blind.
2. Whisk the filling and bake for 25 minutes.`)
  t.same(noHeadings.ingredients.map(i => i.group), ['For the pastry', 'For the pastry', 'For the filling', 'For the filling'],
    '"For the ..." before quantity lines opens a group without any main heading')
  t.equal(noHeadings.instructions.length, 2)

  const perComponent = parse(`Burgers
Ingredients
For the patties
500 g beef mince
Instructions
1. Shape the mince into four patties.
For the sauce
3 tbsp mayonnaise
1 tbsp ketchup
2. Mix the sauce.`)
  t.same(perComponent.ingredients.map(i => [i.text, i.group]), [
    ['500 g beef mince', 'For the patties'], ['3 tbsp mayonnaise', 'For the sauce'], ['1 tbsp ketchup', 'For the sauce']
  ], 'a component heading among the steps with quantity lines after it holds ingredients')
  t.same(steps(perComponent), ['Shape the mince into four patties.', 'Mix the sauce.'])
})

t.test('numbering and bullet styles', async t => {
  const numberings = ['1. ', '1) ', '(1) ', 'Step 1: ', 'STEP 1 - ', 'Step 1. ', '1 - ', '1: ', '1.']
  for (const prefix of numberings) {
    const second = prefix.replace('1', '2')
    const preview = parse(`Rice\nIngredients\n1 cup rice\nInstructions\n${prefix}Rinse the rice.\n${second}Simmer for 15 minutes.`)
    t.same(steps(preview), ['Rinse the rice.', 'Simmer for 15 minutes.'], `numbering "${prefix}" stripped`)
  }
  const bullets = ['- ', '• ', '* ', '▢ ', '☐ ', '[ ] ', '– ', '· ', '> ', '✓ ', '○ ', '▪ ']
  for (const bullet of bullets) {
    const preview = parse(`Rice\n${bullet}1 cup rice\n${bullet}2 cups water\nSimmer the rice in the water for 15 minutes.`)
    t.same(texts(preview), ['1 cup rice', '2 cups water'], `bullet "${bullet.trim()}" stripped`)
  }
  const numberedIngredients = parse('Rice\nIngredients\n1) 200 g rice\n2) 400 ml water\nMethod\n1) Simmer the rice.')
  t.same(texts(numberedIngredients), ['200 g rice', '400 ml water'], 'a numbered ingredient list keeps the quantity, not the number')
  const bulletSteps = parse('Smoothie\nIngredients\n1 banana\n200 ml milk\nSteps\n- Peel the banana\n- Blend everything until smooth\n- Serve cold')
  t.same(steps(bulletSteps), ['Peel the banana', 'Blend everything until smooth', 'Serve cold'], 'each bullet is a step')
  const loneNumbers = parse('Bread\nIngredients\n500 g flour\nMethod\n1\nMix the flour with the water.\n2\nKnead for ten minutes and\nbake.')
  t.same(steps(loneNumbers), ['Mix the flour with the water.', 'Knead for ten minutes and bake.'], 'a step number on its own line')
})

t.test('yields and times', async t => {
  const cases: Array<[string, Partial<RecipePreview>]> = [
    ['Serves 4', { servings: 4, yields: '4 servings' }],
    ['Serves: 4-6', { servings: 4, yields: '4-6 servings' }],
    ['Servings: 6', { servings: 6, yields: '6 servings' }],
    ['4 servings', { servings: 4, yields: '4 servings' }],
    ['Makes 24 cookies', { servings: 24, yields: '24 cookies' }],
    ['Makes about 12 muffins', { servings: 12, yields: 'about 12 muffins' }],
    ['Yield: 2 loaves', { servings: 2, yields: '2 loaves' }],
    ['Yields 8', { servings: 8, yields: '8' }],
    ['Portionen: 3', { servings: 3 }],
    ['Prep time: 15 min', { prepTime: 15 }],
    ['Prep: 15 mins', { prepTime: 15 }],
    ['Cook: 1 hr 10 mins', { cookTime: 70 }],
    ['Cooking time 45 minutes', { cookTime: 45 }],
    ['Total time 1h30', { totalTime: 90 }],
    ['Total Time: 1 hour 5 minutes', { totalTime: 65 }],
    ['Ready in 40 minutes', { totalTime: 40 }],
    ['Bake time: 1 ½ hours', { cookTime: 90 }],
    ['Prep time: 1:30', { prepTime: 90 }],
    ['Cook time: 10-15 min', { cookTime: 10 }],
    ['Resting time: 2 hours', { prepTime: null, cookTime: null, totalTime: null }],
    ['Temps de préparation : 20 min', { prepTime: 20 }],
    ['Cuisson : 1 h 15', { cookTime: 75 }],
    ['Tiempo de cocción: 30 minutos', { cookTime: 30 }],
    ['Tempo di cottura: 1 ora e 30 minuti', { cookTime: 90 }],
    ['Bereidingstijd: 25 minuten', { prepTime: 25 }],
    ['Prep 10 mins | Cook 20 mins | Serves 2', { prepTime: 10, cookTime: 20, totalTime: 30, servings: 2 }],
    ['Prep: 15 mins · Cook: 25 mins · Makes 16 squares', { prepTime: 15, cookTime: 25, servings: 16, yields: '16 squares' }]
  ]
  for (const [line, expected] of cases) {
    const preview = parse(`Dish\n${line}\nIngredients\n1 onion\nMethod\nChop the onion.`)
    t.match(preview, expected, line)
    t.same(texts(preview), ['1 onion'], `${line}: not an ingredient`)
  }
  const inSteps = parse('Dish\n1 onion\n2 eggs\nCook 10 minutes, stirring.\nBake for 30 minutes.\nCook time is short.')
  t.same(steps(inSteps), ['Cook 10 minutes, stirring.', 'Bake for 30 minutes.', 'Cook time is short.'], 'method sentences are not times')
  t.match(inSteps, { prepTime: null, cookTime: null, totalTime: null })
  const bold = parse('Cake\n**Serves:** 12\nIngredients\n1 egg\nMethod\nBake it.')
  t.equal(bold.servings, 12, 'markdown emphasis inside a line')
})

t.test('author, cuisine, category, tags and source from labelled lines', async t => {
  const preview = parse(`Paella
By Maria Lopez
Cuisine: Spanish
Course: Main
Tags: rice, seafood; summer
https://example.com/paella
Ingredients
300 g rice
Method
Cook the rice in the stock.`)
  t.match(preview, { title: 'Paella', author: 'Maria Lopez', cuisine: 'Spanish', category: 'Main', tags: ['rice', 'seafood', 'summer'], sourceUrl: 'https://example.com/paella', description: null })
})

t.test('OCR-like noise', async t => {
  const preview = parse(`| CHOCOLATE CHIP COOKIES |
~
Makes 24 cookies
INGREDIENTS
e 2 cups ﬂour
e 1 tsp baking soda
« 1 cup butter, soft-
ened
e 2 cups chocolate chips
. ,
DIRECTIONS
1
Preheat the oven to 375°F. Beat the butter and
sugar until creamy, then add the eggs one at a
time.
2
Stir in the flour and choco-
late chips. Drop by spoonfuls onto a baking sheet.
3 Bake for 9 to 11 minutes or until golden brown. |
Page 12`)
  t.equal(preview.title, 'Chocolate Chip Cookies', 'edge rules dropped, all-caps title softened')
  t.same(texts(preview), ['2 cups flour', '1 tsp baking soda', '1 cup butter, softened', '2 cups chocolate chips'],
    'OCR bullets, ligatures and a hyphenated break')
  t.same(steps(preview), [
    'Preheat the oven to 375°F. Beat the butter and sugar until creamy, then add the eggs one at a time.',
    'Stir in the flour and chocolate chips. Drop by spoonfuls onto a baking sheet.',
    'Bake for 9 to 11 minutes or until golden brown.'
  ], 'lone numbers, lines broken mid-sentence, a dropped point after a step number, a page number')
  t.match(preview, { servings: 24, yields: '24 cookies' })

  const wrappedIngredient = parse('Pie\nIngredients\n1 can sweetened condensed milk, or\nevaporated milk\n2 eggs\nMethod\nBake.')
  t.same(texts(wrappedIngredient), ['1 can sweetened condensed milk, or evaporated milk', '2 eggs'], 'an ingredient wrapped after "or"')

  const pasted = parse('Guacamole\nIngredients\nUS Customary Metric\n1x 2x 3x\n▢ 3 avocados\n▢ 1 lime, juiced\nInstructions\nMash the avocados with the lime juice.\nPrint Recipe')
  t.same(texts(pasted), ['3 avocados', '1 lime, juiced'], 'recipe-card controls copied from a web page are dropped')
  t.same(steps(pasted), ['Mash the avocados with the lime juice.'])

  const crlf = parse('Toast\r\nIngredients\r\n2 slices bread\u00a0\r\nMethod\r\n\u200bToast the bread.\r\n')
  t.same(texts(crlf), ['2 slices bread'], 'CRLF, no-break spaces and zero-width characters')
  t.same(steps(crlf), ['Toast the bread.'])
})

t.test('titles', async t => {
  t.equal(parse('Ingredients\n2 eggs\nMethod\nScramble the eggs.').title, UNTITLED, 'no title line')
  t.equal(parse('# Recipe: Scrambled Eggs\n2 eggs\nScramble the eggs in butter.').title, 'Scrambled Eggs', 'markdown and "Recipe:" dropped')
  t.equal(parse('10-Minute Pasta\nIngredients\n200 g spaghetti\nMethod\nBoil the pasta.').title, '10-Minute Pasta', 'a title starting with a number')
  t.equal(parse('3 Ingredient Cookies\n\nThe easiest cookies.\n1 cup peanut butter\n1 egg\nMix and bake.').title, '3 Ingredient Cookies')
  const listOnly = parse('2 cups flour\n1 egg\nMix them.')
  t.equal(listOnly.title, UNTITLED, 'a paste that starts with its ingredients has no title')
  t.same(texts(listOnly), ['2 cups flour', '1 egg'])
  const long = parse(`${'Very '.repeat(60)}long title\n2 eggs\nScramble the eggs.`)
  t.ok(long.title.length <= TEXT_LIMITS.title)
})

t.test('nothing recipe-like is null', async t => {
  const nothing = [
    '',
    '   \n\n  \t ',
    'x',
    'Shopping',
    '||| ~~~ ___\n. , ;',
    '1\n2\n3',
    'Hello Bob,\nThanks for the lovely dinner yesterday. We should meet again soon.\nCheers, Alice',
    'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.',
    'Serves 4\nPrep time: 10 min',
    'Ingredients\nMethod\nNotes'
  ]
  for (const text of nothing) t.equal(parseRecipeText(text), null, JSON.stringify(text.slice(0, 40)))
})

t.test('bounds', async t => {
  const many = parse(`Big batch\nIngredients\n${Array.from({ length: 500 }, (_, i) => `${i + 1} g spice number ${i}`).join('\n')}\n` +
    `Method\n${Array.from({ length: 500 }, (_, i) => `${i + 1}. Stir pot number ${i}.`).join('\n')}`)
  t.equal(many.ingredients.length, TEXT_LIMITS.items)
  t.equal(many.instructions.length, TEXT_LIMITS.items)
  t.equal(many.instructions[199].step, 200)

  const long = parse(`Long\nIngredients\n1 ${'very '.repeat(400)}long ingredient\nMethod\n1. ${'Stir and stir again '.repeat(600)}\n${'and again '.repeat(600)}`)
  t.ok(long.ingredients[0].text.length <= TEXT_LIMITS.ingredient, 'ingredient line capped')
  t.ok(long.ingredients[0].name.length <= 200)
  t.ok(long.instructions[0].text.length <= TEXT_LIMITS.step, 'step capped')

  const description = parse(`Wordy\n${'A long story about this dish. '.repeat(400)}\n2 eggs\nScramble the eggs.`)
  t.ok(description.description != null && description.description.length <= TEXT_LIMITS.description, 'description capped')

  const beyond = parse(`Cut off\n1 egg\n${' '.repeat(TEXT_LIMITS.chars)}\n2 eggs`)
  t.same(texts(beyond), ['1 egg'], 'nothing after the character limit is read')
})

// Counted, not timed (test/helpers/work.ts; a clock's verdict depends on what else the machine runs): from a quarter of
// the character limit to all of it, the work of the built-ins the parser calls must grow about 4x, as linear work does
// (16x if quadratic), and a text four times the limit must cost exactly what its first TEXT_LIMITS.chars characters
// cost, so no input costs more than the limit's worth. `npm run bench:hostile-input` times the same texts.
t.test('huge and hostile inputs: work linear in their size, nothing past the limit', async t => {
  const size = TEXT_LIMITS.chars
  const [quarter, inputs, beyond] = [size / 4, size, 4 * size].map(hostileTexts)
  for (const [name, text] of Object.entries(inputs)) {
    const small = workOf(() => parseRecipeText(quarter[name]))
    const full = workOf(() => parseRecipeText(text))
    const growth = full / small
    t.ok(growth < LINEAR_GROWTH, `${name}: work ${full} for ${text.length} characters, ${growth.toFixed(2)}x a quarter of it`)
    t.equal(workOf(() => parseRecipeText(beyond[name])), full, `${name}: four times the limit costs what the limit does`)
  }
  const repeated = parseRecipeText(inputs['repeated recipes'])
  t.ok(repeated != null && repeated.ingredients.length <= TEXT_LIMITS.items && repeated.instructions.length <= TEXT_LIMITS.items)
})
