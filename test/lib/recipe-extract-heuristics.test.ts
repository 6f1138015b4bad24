// lib/recipe-import/extract: the heuristics for pages without (complete) structured data, each on small pages written
// for the test: heading wording and languages, ingredient lists found by their shape, steps written as paragraphs,
// tables, page furniture, title choice, structured data the page shows more of, microdata edge cases, and linear work
// on pages shaped to reach each of them.
import t from 'tap'
import { extractRecipe } from '../../lib/recipe-import/extract/index.js'
import type { RecipePreview } from '../../lib/recipe-import/preview.js'
import { ld, recipe } from '../helpers/hostile-inputs.js'
import { LINEAR_GROWTH, workOf } from '../helpers/work.js'

const PAGE = 'https://cook.example.com/recipes/soup/'

function extract (html: string, url = PAGE): RecipePreview {
  const result = extractRecipe(html, url)
  if (result == null) throw new Error('no recipe extracted')
  return result
}

const ingredients = (r: RecipePreview): string[] => r.ingredients.map(i => i.text)
const steps = (r: RecipePreview): string[] => r.instructions.map(s => s.text)
const page = (body: string, head = '<title>Tomato Soup</title>'): string =>
  `<!doctype html><html lang="en"><head>${head}</head><body>${body}</body></html>`

t.test('headings: qualified wording ("Cooking Instructions") and more languages', async t => {
  const qualified = extract(page(`<h2>Recipe Ingredients</h2><ul><li>4 tomatoes</li><li>1 onion</li></ul>
    <h3>Step-by-Step Instructions</h3><p>Chop the tomatoes and the onion.</p><p>Simmer for twenty minutes.</p>`))
  t.same(ingredients(qualified), ['4 tomatoes', '1 onion'])
  t.same(steps(qualified), ['Chop the tomatoes and the onion.', 'Simmer for twenty minutes.'])

  const cooking = extract(page(`<div class="recipe"><h2>Ingredients</h2><ul><li>2 cups oats</li><li>1 cup water</li></ul>
    <h3>Cooking Instructions</h3><ul><li>Toast the oats in a dry pan.</li><li>Pour the water over them.</li></ul></div>`))
  t.same(ingredients(cooking), ['2 cups oats', '1 cup water'], 'the steps heading ends the ingredients')
  t.same(steps(cooking), ['Toast the oats in a dry pan.', 'Pour the water over them.'])

  const chinese = extract(page(`<p>材料：</p><ul><li>4 个 鸡蛋</li><li>125 克 糖</li></ul>
    <p>做法：</p><p>1. 把烤箱预热至200度。</p><p>2. 把鸡蛋和糖打发。</p>`))
  t.same(ingredients(chinese), ['4 个 鸡蛋', '125 克 糖'], 'full-width colon after the heading')
  t.same(steps(chinese), ['把烤箱预热至200度。', '把鸡蛋和糖打发。'])

  const hungarian = extract(page(`<h2>Hozzávalók</h2><ul><li>4 db tojás</li><li>250 g cukor</li></ul>
    <h2>Elkészítése</h2><p>A tojásokat habosra keverjük a cukorral.</p>`))
  t.same(steps(hungarian), ['A tojásokat habosra keverjük a cukorral.'])

  const korean = extract(page(`<h3>재료</h3><ul><li>닭고기 500g</li><li>간장 3큰술</li></ul>
    <h3>만드는 법</h3><ol><li>닭고기를 손질합니다.</li><li>간장에 재웁니다.</li></ol>`))
  t.same(ingredients(korean), ['닭고기 500g', '간장 3큰술'])
  t.same(steps(korean), ['닭고기를 손질합니다.', '간장에 재웁니다.'], 'lines in other scripts are text, not punctuation')

  const russian = extract(page(`<h2>Ингредиенты</h2><ul><li>2 яйца</li><li>200 г муки</li></ul>
    <h2>Приготовление</h2><p>Смешать муку и яйца.</p><p>Жарить на сковороде.</p>`))
  t.same(steps(russian), ['Смешать муку и яйца.', 'Жарить на сковороде.'])
})

t.test('headings: a heading ending in "Tips" or "Storage" ends the steps', async t => {
  const r = extract(page(`<h2>Ingredients</h2><ul><li>1 lb chicken</li><li>2 pitas</li></ul>
    <h2>Directions</h2><ol><li>Roast the chicken until golden.</li><li>Fill the warm pitas.</li></ol>
    <h2>Pro Tips</h2><ol><li>Use thighs, they stay juicier.</li></ol>
    <h2>Leftovers &amp; Storage</h2><p>Keeps three days in the fridge.</p>`))
  t.same(steps(r), ['Roast the chicken until golden.', 'Fill the warm pitas.'])
})

t.test('headings: ingredients written as headings, group headings as high as "Ingredients", links under a heading', async t => {
  const asHeadings = extract(page(`<h4>Ingredients</h4><h5>• 2 tablespoons olive oil</h5><h5>• 50g butter</h5><h5>• salt</h5>
    <h4>Method</h4><p>1. Heat the oil and the butter.</p><p>2. Season with salt.</p>`))
  t.same(ingredients(asHeadings), ['2 tablespoons olive oil', '50g butter', 'salt'], 'bulleted headings are lines, not groups')

  const groups = extract(page(`<h2>Ingredients</h2><ul><li>4 cups flour</li><li>2 eggs</li></ul>
    <h2>Glaze</h2><ul><li>1/3 cup sugar</li><li>½ cup hot water</li></ul>
    <h2>Method</h2><ol><li>Knead the dough and let it rise.</li><li>Brush the glaze over the buns.</li></ol>
    <h2>About us</h2><ul><li>Our story</li></ul>`))
  t.same(groups.ingredients.map(i => [i.text, i.group]), [['4 cups flour', null], ['2 eggs', null], ['1/3 cup sugar', 'Glaze'], ['½ cup hot water', 'Glaze']])

  const edit = extract(page(`<div class="heading"><h2>Ingredients</h2><span><a href="/edit">[edit]</a></span></div>
    <ul><li>2 cups milk</li><li>1 cup pumpkin</li></ul>
    <div class="heading"><h2>Procedure</h2><a href="/edit">[edit]</a></div><ol><li>Blend everything together.</li><li>Bake for 45 minutes.</li></ol>`))
  t.same(ingredients(edit), ['2 cups milk', '1 cup pumpkin'], 'the heading\'s own links do not end the section')
})

t.test('ingredients by their shape: a list of quantities without a heading, groups between its lists', async t => {
  const r = extract(page(`<h1>Tuna Melt</h1><p>We love this melt. It is quick and very good.</p>
    <h2>Produce</h2><ul><li>1 small red onion</li><li>½ cup dill leaves</li><li>1 lemon</li></ul>
    <h2>Pantry</h2><ul><li>2 5-ounce cans tuna</li><li>4 teaspoons Dijon mustard</li><li>Kosher salt</li></ul>
    <h3>1. Do some prep:</h3><ol><li>Finely chop the onion and the dill.</li><li>Stir in the mustard and the tuna.</li></ol>
    <footer><ul><li>3 stores</li><li>2 offices</li><li>1 newsletter</li></ul></footer>`))
  t.same(r.ingredients.map(i => [i.text, i.group]), [
    ['1 small red onion', 'Produce'], ['½ cup dill leaves', 'Produce'], ['1 lemon', 'Produce'],
    ['2 5-ounce cans tuna', 'Pantry'], ['4 teaspoons Dijon mustard', 'Pantry'], ['Kosher salt', 'Pantry']
  ])
  t.same(steps(r), ['Finely chop the onion and the dill.', 'Stir in the mustard and the tuna.'])

  const lines = extract(page(`<p>Recipe: Orange Carrots</p><p>3 large carrots<br>1/4 tsp. salt<br>1 Tbs. soy sauce<br>Orange juice</p>
    <p>Cut the carrots into thick rounds and put them in a pan with the juice.</p>`))
  t.same(ingredients(lines), ['3 large carrots', '1/4 tsp. salt', '1 Tbs. soy sauce', 'Orange juice'], 'lines of one paragraph')

  const article = `<h1>Our year</h1><ul><li>3 new shops opened</li><li>2 awards won</li><li>10 people hired</li></ul>
    <p>Thank you all for being with us this year, and see you soon.</p>`
  t.equal(extractRecipe(page(article), PAGE), null, 'numbers without measures are not ingredients')
  const numbered = '<ul><li>1 Heat 2 cups of oil</li><li>2 Fry 200 g of potatoes</li><li>3 Salt with 1 tsp salt</li></ul>'
  t.equal(extractRecipe(page(numbered), PAGE), null, 'lines numbered 1, 2, 3 are steps, not ingredients')

  const withSteps = extract(page(`<ul><li>2 eggs</li><li>1 onion</li><li>3 carrots</li></ul>
    <h2>Instructions</h2><ol><li>Chop the onion and the carrots.</li><li>Scramble the eggs with them.</li></ol>`))
  t.same(ingredients(withSteps), ['2 eggs', '1 onion', '3 carrots'], 'no measure needed when the steps have their heading')

  const weak = extract(page(`<div class="summary"><p>Ingredients</p><p>Only five!</p></div>
    <ul><li>200 g spaghetti</li><li>2 cloves garlic</li><li>4 tbsp olive oil</li><li>1 pinch chili flakes</li></ul>
    <h2>Method</h2><ol><li>Cook the spaghetti.</li><li>Warm the garlic in the oil with the chili.</li></ol>`))
  t.same(ingredients(weak), ['200 g spaghetti', '2 cloves garlic', '4 tbsp olive oil', '1 pinch chili flakes'],
    'a heading over one line of a summary box gives way to the list')
})

t.test('headings: compound words ("Zutatenliste", "Ingrediëntenlijst")', async t => {
  const de = extract(page(`<h3>Zutatenliste</h3><ul><li>250 g Mehl</li><li>3 Eier</li></ul>
    <h3>Zubereitungsschritte</h3><ol><li>Alles verrühren.</li><li>In der Pfanne backen.</li></ol>`))
  t.same(ingredients(de), ['250 g Mehl', '3 Eier'])
  t.same(steps(de), ['Alles verrühren.', 'In der Pfanne backen.'])
  const nl = extract(page('<p><b>Ingrediëntenlijst</b></p><ul><li>400 gr amandelspijs</li><li>1 rol bladerdeeg</li></ul>'))
  t.same(ingredients(nl), ['400 gr amandelspijs', '1 rol bladerdeeg'])
})

t.test('steps written as paragraphs after the ingredients, without a heading', async t => {
  const plain = extract(page(`<article><h1>Ribs</h1><p>Ingredients</p><ul><li>1 rack baby back ribs</li><li>1 cup brown sugar</li></ul>
    <p>Prepare your smoker at 275 degrees with hickory wood.</p><p>Remove the membrane off the back of the rack.</p>
    <p>Smoke until the bark is set.</p><ul class="article-share"><li><a href="/fb">Facebook</a></li></ul>
    <p>More about our smokers and our rubs, read on for our story and plans.</p></article>`))
  t.same(steps(plain), ['Prepare your smoker at 275 degrees with hickory wood.', 'Remove the membrane off the back of the rack.', 'Smoke until the bark is set.'])

  const named = extract(page(`<main><h2>Hozzávalók</h2><ul><li>4 db tojás</li><li>250 g porcukor</li></ul>
    <h2>A recept</h2><p>A tojásokat szétválasztjuk, a sárgáját a cukorral habosra keverjük, majd megsütjük.</p>
    <h2>További receptek</h2><p>Ez egy másik recept leírása, amely nem tartozik ide egyáltalán.</p></main>`))
  t.same(steps(named), ['A tojásokat szétválasztjuk, a sárgáját a cukorral habosra keverjük, majd megsütjük.'], 'after a heading the extractor does not know')
})

t.test('table rows are lines (a cell\'s line breaks and header cells too), sign-up boxes are not the page\'s text', async t => {
  const table = extract(page(`<h2>Ingredients</h2><table><tr><td>200 g</td><td>flour</td></tr><tr><td>2</td><td>eggs</td></tr></table>
    <h2>Method</h2><ol><li>Mix the flour and the eggs.</li></ol>`))
  t.same(ingredients(table), ['200 g flour', '2 eggs'])

  const notes = extract(page(`<h2>Ingredients</h2><table><tr><th colspan="2">Dough</th></tr>
    <tr><td>2 cups</td><td><a href="/flour">flour</a><br><small>sifted</small></td></tr><tr><td>1</td><td>egg<br><small></small></td></tr>
    <tr><th colspan="2">Filling</th></tr><tr><td>3</td><td>apples<br><small>peeled</small></td></tr></table>
    <h2>Method</h2><ol><li>Mix the flour and the egg, fill with the apples.</li></ol>`))
  t.same(notes.ingredients.map(i => [i.text, i.group]), [['2 cups flour sifted', 'Dough'], ['1 egg', 'Dough'], ['3 apples peeled', 'Filling']],
    'a line break inside a row\'s cell, header cells naming groups')
  const single = extract(page(`<h2>Ingredients</h2><table><tr><td>2 cups flour<br>1 egg<br>3 apples</td></tr></table>
    <h2>Method</h2><ol><li>Mix everything.</li></ol>`))
  t.same(ingredients(single), ['2 cups flour', '1 egg', '3 apples'], 'a cell alone in its row keeps its lines')

  const promo = extract(page(`<p><b>Ingredients:</b></p><p>- 250g shortcrust pastry</p><p>- 3 egg yolks</p>
    <p class="article-newsletter-signup-cta">Sign up to our newsletter to stay up-to-date!</p>
    <div class="newsletter-box"><a href="/subscribe">Subscribe</a></div>
    <p><b>Method:</b></p><p>Line the tins with the pastry and bake.</p>`))
  t.same(ingredients(promo), ['250g shortcrust pastry', '3 egg yolks'])
})

t.test('amounts set apart from their ingredient are one line with it; what a list item hides is not', async t => {
  const items = extract(page(`<h2>Ingredients</h2><ul>
    <li><span class="amount">1</span><div class="name">medium shallot</div></li>
    <li><span class="amount">⅓ cups</span> <span class="metric">(80ml)</span><div class="name">olive oil</div></li>
    <li><span class="amount">¼ cup</span><div class="name">white wine vinegar</div>
      <div class="substitute hidden">apple cider vinegar</div><div style="display: none">red wine vinegar</div></li>
    <li><span class="amount">2 tsp</span><div class="name">dijon mustard</div></li></ul>
    <h2>Instructions</h2><ol><li>Whisk everything together.</li></ol>`))
  t.same(ingredients(items), ['1 medium shallot', '⅓ cups (80ml) olive oil', '¼ cup white wine vinegar', '2 tsp dijon mustard'])

  const container = extract(page(`<section class="recipe-ingredients"><h3>Zutaten</h3>
    <x-number>500</x-number><p>g Strauchtomaten</p><x-number>1</x-number><p>rote Zwiebel</p><x-number>1.5</x-number><p>EL Olivenöl</p>
    <p>Salz</p></section><h3>Zubereitung</h3><p>Tomaten und Zwiebel würfeln, mit Öl und Salz mischen.</p>`))
  t.same(ingredients(container), ['500 g Strauchtomaten', '1 rote Zwiebel', '1.5 EL Olivenöl', 'Salz'])

  const shown = extract(page(`<h2>Ingredients</h2><ul><li>2 eggs</li><li class="hidden md:block">1 cup milk</li></ul>
    <div style="display:none"><h2>Method</h2><ol><li>Whisk the eggs and the milk together.</li></ol></div>`))
  t.same(ingredients(shown), ['2 eggs', '1 cup milk'], 'shown on larger screens')
  t.same(steps(shown), ['Whisk the eggs and the milk together.'], 'a hidden printable copy is still read')
})

t.test('title: the <h1> og:title names, never the site\'s name, a part of the title or a wiki namespace', async t => {
  const og = extract(page('<h1>Two favorites in one apple tart</h1><h2>Ingredients</h2><ul><li>4 apples</li></ul>',
    '<title>Apple tart recipe</title><meta property="og:title" content="Two favorites in one apple tart">'))
  t.equal(og.title, 'Two favorites in one apple tart')

  const logo = extract(page('<h1 class="site-title">FEL!X KITCHEN</h1><h1>PICCATA</h1><h2>Zutaten</h2><ul><li>1 Ei</li></ul>',
    '<title>PICCATA – FEL!X KITCHEN</title>'), 'https://felix.example/2024/piccata/')
  t.equal(logo.title, 'PICCATA', 'the first <h1> is the site\'s name')

  const split = extract(page('<h1>baba ghanoush</h1><h1>with potato chips</h1><h2>Ingredients</h2><ul><li>2 eggplants</li></ul>',
    '<title>Smoky Eggplant Dip With Potato Chips | Donna Cooks</title><meta property="og:site_name" content="Donna Cooks">'))
  t.equal(split.title, 'Smoky Eggplant Dip With Potato Chips', 'a fragment of the title is not the title')

  const wiki = extract(page('<h1>Cookbook:Pumpkin Pie</h1><h2>Ingredients</h2><ul><li>2 cups milk</li></ul>',
    '<title>Cookbook:Pumpkin Pie - Wikibooks, open books for an open world</title>'), 'https://en.wikibooks.example/wiki/Cookbook:Pumpkin_Pie')
  t.equal(wiki.title, 'Pumpkin Pie')

  const noH1 = extract(page('<h2>Ingredients</h2><ul><li>2 cups milk</li></ul>',
    '<title>Pumpkin Pie - Best Recipes Ever</title><meta property="og:title" content="Pumpkin Pie">'))
  t.equal(noH1.title, 'Pumpkin Pie', 'og:title is the <title> without its decorations')
})

t.test('structured data the page shows more of: the page\'s list; complete data kept', async t => {
  const partial = ld(recipe({ recipeIngredient: ['3 tbsp soy sauce', '2 tbsp water', '1 large egg'] }), '<title>Chicken</title>')
    .replace('<body></body>', `<body><h2>Ingredients</h2><ul><li>1 pound chicken thighs</li><li>½ teaspoon salt</li>
      <li>3 tbsp soy sauce</li><li>2 tbsp water</li><li>1 large egg</li></ul></body>`)
  t.same(ingredients(extract(partial)), ['1 pound chicken thighs', '½ teaspoon salt', '3 tbsp soy sauce', '2 tbsp water', '1 large egg'])

  const bare = ld(recipe({ recipeIngredient: ['Tequila', 'Lime juice', 'Triple sec'] })).replace('<body></body>',
    '<body><h3>Ingredients</h3><ul><li>4 cl Tequila</li><li>2 cl Lime juice</li><li>2 cl Triple sec</li></ul></body>')
  t.same(ingredients(extract(bare)), ['4 cl Tequila', '2 cl Lime juice', '2 cl Triple sec'], 'quantities the data lacks')

  const complete = ld(recipe({ recipeIngredient: ['2 mangoes', '1 lime', '½ red onion'] })).replace('<body></body>',
    `<body><h2>Ingredients</h2><ul><li>2 mangoes</li><li>1 lime</li><li>½ red onion</li></ul>
    <h3>Nutrition</h3><ul><li>Energy</li><li>135 kcal</li><li>Fat</li><li>1 g</li></ul></body>`)
  t.same(ingredients(extract(complete)), ['2 mangoes', '1 lime', '½ red onion'], 'no more ingredients on the page')

  const scaled = ld(recipe({ recipeIngredient: ['1 l stock', '220 g polenta', 'Salt'] })).replace('<body></body>',
    `<body><h2>Ingredients</h2><ul><li>5 dl stock</li><li>110 g polenta</li><li>Salt</li><li>1 l stock</li><li>220 g polenta</li>
    <li>Salt</li><li>2 l stock</li><li>440 g polenta</li><li>Salt</li></ul></body>`)
  t.same(ingredients(extract(scaled)), ['1 l stock', '220 g polenta', 'Salt'], 'scaled copies of the list are not more ingredients')

  const notes = ld(recipe({ recipeIngredient: ['1 medium shallot', '⅓ cup olive oil', 'dijon mustard', '⅛ tsp salt'] }))
    .replace('<body></body>', `<body><h2>Ingredients</h2><ul><li>1 medium shallot, thinly sliced</li>
      <li>⅓ cups (80ml) olive oil</li><li>2 tsp (10ml) dijon mustard</li><li>½ tsp salt</li></ul></body>`)
  t.same(ingredients(extract(notes)), ['1 medium shallot, thinly sliced', '⅓ cups (80ml) olive oil', '2 tsp (10ml) dijon mustard', '½ tsp salt'],
    'the notes and amounts the data left out')
  const units = ld(recipe({ recipeIngredient: ['⅓ cup sourdough discard', '½ cup butter (melted)', '1 teaspoon salt'] }))
    .replace('<body></body>', `<body><h2>Ingredients</h2><ul><li>⅓ cup (100 g) sourdough discard</li>
      <li>½ cup (113 g) butter (melted)</li><li>1 teaspoon (5 g) salt</li></ul></body>`)
  t.same(ingredients(extract(units)), ['⅓ cup sourdough discard', '½ cup butter (melted)', '1 teaspoon salt'], 'a second unit adds nothing')

  const fewSteps = ld(recipe({ recipeInstructions: [{ '@type': 'HowToStep', text: 'Make a vegetable stock.' }] })).replace('<body></body>',
    `<body><h2>Bereiding</h2><ol><li>Make a vegetable stock.</li><li>Poach the chicken in the stock for an hour.</li>
    <li>Bake the pastry shells until golden and puffed.</li><li>Make a roux with butter and flour, then add the stock.</li></ol></body>`)
  t.same(steps(extract(fewSteps)), ['Make a vegetable stock.', 'Poach the chicken in the stock for an hour.',
    'Bake the pastry shells until golden and puffed.', 'Make a roux with butter and flour, then add the stock.'])

  const titles = ld(recipe({ recipeInstructions: ['Cook the noodles', 'Dress the salad', 'Serve'].map(text => ({ '@type': 'HowToStep', text })) }))
    .replace('<body></body>', `<body><div class="steps"><h2>Instructions</h2>
      <div class="step"><p class="number">1</p><p>Cook the noodles</p><p>Boil the noodles until tender, then rinse them in cold water.</p></div>
      <div class="step"><p class="number">2</p><p>Dress the salad</p><ul><li>Whisk the lime juice with the oil.</li><li>Toss the noodles in it.</li></ul></div>
      <div class="step"><p class="number">3</p><p>Serve</p><p>Divide between bowls and top with mint.</p></div></div><h3>More recipes</h3><p>Noodle soup</p></body>`)
  t.same(steps(extract(titles)), ['Cook the noodles: Boil the noodles until tender, then rinse them in cold water.',
    'Dress the salad: Whisk the lime juice with the oil. Toss the noodles in it.', 'Serve: Divide between bowls and top with mint.'],
  'steps given as their titles: each with the page\'s text under it')

  const tips = ld(recipe({ recipeInstructions: ['Cut the chicken into cubes.', 'Coat the cubes in flour.', 'Fry until golden.'] }))
    .replace('<body></body>', `<body><h2>Instructions</h2><ol><li>Cut the chicken into cubes.</li><li>Tip: use thighs.</li>
      <li>Coat the cubes in flour.</li><li>Tip: flour with spices.</li><li>Fry until golden.</li></ol></body>`)
  t.same(steps(extract(tips)), ['Cut the chicken into cubes.', 'Coat the cubes in flour.', 'Fry until golden.'], 'complete steps kept')
})

t.test('structured data: steps that repeat the description, ingredients run together with commas', async t => {
  const excerpt = 'Around the holidays everybody bakes these bars. As a child I could never wait for them and now'
  const html = ld(recipe({ description: excerpt, recipeInstructions: excerpt + '...' })).replace('<body></body>',
    '<body><h2>Method</h2><ol><li>Roll out the pastry and cut it in half.</li><li>Bake until golden.</li></ol></body>')
  t.same(steps(extract(html)), ['Roll out the pastry and cut it in half.', 'Bake until golden.'], 'the page\'s steps instead')
  const article = ld(recipe({ description: excerpt, recipeInstructions: `${excerpt} we bake them. Mix the flour. Bake.` }))
  t.ok(steps(extract(article)).join(' ').includes('Mix the flour.'), 'a text that goes on past the description is kept')

  const joined = extract(ld(recipe({ recipeIngredient: ['125ml milk, 1 tsp vinegar, 60ml olive oil, 100g sugar'] })))
  t.same(ingredients(joined), ['125ml milk', '1 tsp vinegar', '60ml olive oil', '100g sugar'])
  const commas = extract(ld(recipe({ recipeIngredient: ['Salt, pepper, 1 lemon'] })))
  t.same(ingredients(commas), ['Salt, pepper, 1 lemon'], 'one comma before a quantity is an ingredient\'s own')
})

t.test('yields written "for 3 to 4 servings" are not ingredients', async t => {
  const r = extract(page('<h2>Ingredients</h2><p>for 3 to 4 servings</p><ul><li>1 pound chicken</li><li>2 eggs</li></ul>'))
  t.same(ingredients(r), ['1 pound chicken', '2 eggs'])
  t.equal(r.servings, 3)
})

t.test('microdata: the quantity beside the property, a list run together, the instructions element\'s own blocks', async t => {
  const html = `<div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Margarita</h1>
    <ul><li><span>4 cl <a href="/tequila" itemprop="recipeIngredient">Tequila</a></span></li>
    <li><span>2 cl <a href="/lime" itemprop="recipeIngredient">Lime juice</a></span></li>
    <li><span itemprop="recipeIngredient">Salt</span> and <span itemprop="recipeIngredient">ice</span></li></ul>
    <div itemprop="recipeInstructions"><ol><li>Salt the rim of the glass.</li><li>Shake with ice.</li></ol>
    <p>We add a little syrup: it balances the drink.</p></div></div>`
  const r = extract(html)
  t.same(ingredients(r), ['4 cl Tequila', '2 cl Lime juice', 'Salt', 'ice'], 'the item\'s text when it holds one property')
  t.same(steps(r), ['Salt the rim of the glass.', 'Shake with ice.', 'We add a little syrup: it balances the drink.'])

  const joined = `<div itemscope itemtype="http://schema.org/Recipe"><meta itemprop="name" content="Gratin">
    <span itemprop="ingredients">2 kohlrabi</span><span itemprop="ingredients">6 potatoes</span><span itemprop="ingredients">1 onion</span>
    <meta itemprop="recipeIngredient" content="2 kohlrabi 6 potatoes 1 onion">
    <div itemprop="recipeInstructions"><ol><li>Slice and bake.</li></ol></div></div>`
  t.same(ingredients(extract(joined)), ['2 kohlrabi', '6 potatoes', '1 onion'])
})

t.test('headings: an article before the word ("Les ingrédients de la recette", "Die Zubereitung")', async t => {
  const french = extract(page(`<h2>Les ingrédients de la recette</h2><ul><li>2 concombres</li><li>1 gousse d'ail</li></ul>
    <h2>La préparation de la recette</h2><p>Râpez les concombres et égouttez-les.</p><p>Mélangez avec l'ail pilé.</p>`))
  t.same(ingredients(french), ['2 concombres', "1 gousse d'ail"])
  t.same(steps(french), ['Râpez les concombres et égouttez-les.', "Mélangez avec l'ail pilé."])
  const german = extract(page(`<h2>Die Zutaten</h2><ul><li>2 Eier</li><li>200 g Mehl</li></ul>
    <h2>Die Zubereitung</h2><p>Eier und Mehl verrühren.</p>`))
  t.same(steps(german), ['Eier und Mehl verrühren.'])
})

t.test('furniture: a "widget" class around the page\'s <h1>, or on a heading, is content', async t => {
  const r = extract(page(`<div class="widget-area-main"><div class="recipe widget"><h1>Tomato Soup</h1>
    <h3 class="widget-title">Ingredients</h3><ul><li>4 tomatoes</li><li>1 onion</li></ul>
    <h3 class="widget-title">Directions</h3><p>Chop the tomatoes and the onion.</p><p>Simmer for twenty minutes.</p></div></div>
    <div class="widget-area-side"><h3>Popular</h3><ul><li>3 ways with eggs</li><li>5 quick pastas</li><li>2 cakes</li></ul></div>`))
  t.same(ingredients(r), ['4 tomatoes', '1 onion'])
  t.same(steps(r), ['Chop the tomatoes and the onion.', 'Simmer for twenty minutes.'])
})

t.test('steps: an <aside> set into a step ("Learn more") is not a step and does not end them', async t => {
  const r = extract(page(`<h2>Ingredients</h2><ul><li>2 cups rye flour</li><li>1 egg</li></ul>
    <h4>Instructions</h4><ol><li><p>Whisk the flour with the egg.</p><aside><h4>Learn more</h4><a href="/blog/rye">All about rye</a><p>By A. Writer</p></aside></li>
    <li><p>Roll into balls and bake them.</p></li><li><p>Cool on the pan.</p></li></ol>`))
  t.same(steps(r), ['Whisk the flour with the egg.', 'Roll into balls and bake them.', 'Cool on the pan.'])
})

t.test('headings: a table of contents entry ("How to Make It" as a link) is not the steps\' heading', async t => {
  const r = extract(page(`<ul><li><a href="#why">Why I love this recipe</a></li><li><a href="#how">How to Make It</a></li></ul>
    <h2 id="why">Why I love this recipe</h2><p>It is a long story about summers at the lake, told over many sentences. It goes on and on about the weather and the view.</p>
    <p>Another paragraph of the story follows here, about the neighbours and their garden. It is also long and has nothing to cook.</p>
    <h3>Ingredients</h3><ul><li>3 cups milk</li><li>1 pound cake</li></ul>
    <h3>Instructions</h3><ul><li>Whisk the milk.</li><li>Layer the cake.</li></ul>`))
  t.same(steps(r), ['Whisk the milk.', 'Layer the cake.'])
})

t.test('steps: prose inside a step block classed like ingredients ("step-ingredients") is the step', async t => {
  const r = extract(page(`<div class="recipe-instructions"><h2>Zubereitung</h2>
    <div class="step-ingredients"><ul><li>800 g Gnocchi</li><li>Salz</li></ul><p>Gnocchi in Salzwasser al dente kochen.</p></div>
    <div class="step-ingredients"><ul><li>2 Zwiebeln</li></ul><p>Zwiebeln schälen und in feine Streifen schneiden.</p></div></div>`))
  t.same(steps(r), ['Gnocchi in Salzwasser al dente kochen.', 'Zwiebeln schälen und in feine Streifen schneiden.'])
})

t.test('headings: Dutch "Instructies"', async t => {
  const r = extract(page(`<h2>Ingrediënten</h2><ul><li>1 kip</li><li>2 uien</li></ul>
    <h2>Instructies</h2><div>Breng water aan de kook met de uien.</div><div>Leg de kip erin en laat een uur koken.</div>`))
  t.same(steps(r), ['Breng water aan de kook met de uien.', 'Leg de kip erin en laat een uur koken.'])
})

t.test('embedded state: steps cut to a teaser give way to the page\'s full list of them', async t => {
  const state = { props: { recipe: { ingredients: ['1 chicken', '2 onions'], instructions: ['Boil water with the onions.', 'Add the chicken.'] } } }
  const r = extract(page(`<h2>Instructions</h2><ol><li>Boil water with the onions.</li><li>Add the chicken.</li>
    <li>Simmer for an hour, skimming the foam now and then.</li><li>Lift the chicken out and let it cool down.</li>
    <li>Strain the broth through a fine sieve.</li><li>Pick the meat off the bones and serve it with the broth.</li></ol>
    <script id="__NEXT_DATA__" type="application/json">${JSON.stringify(state)}</script>`))
  t.same(ingredients(r), ['1 chicken', '2 onions'])
  t.equal(r.instructions.length, 6)
})

t.test('sections: a recipe card\'s bare "Instructions" right under its ingredients beats a blog\'s "How to Make" account', async t => {
  const blog = `<h2>How to Make Hot Cocoa at Home</h2><p>You need very little to whip up this comforting drink, and here is what goes in it:</p>
    <ul><li>Almond milk. Choose a plain and unsweetened one, it keeps the drink light and lets the cocoa come through.</li>
    <li>Cocoa powder. Pure cocoa gives all the chocolate flavour, so use a good one that you like the taste of.</li>
    <li>Coconut butter. The secret to a creamy cup; you will not taste the coconut, only a subtle nuttiness.</li>
    <li>Cinnamon. Optional but recommended, a gentle spice that balances the rich chocolate flavour of the cup.</li>
    <li>Sweetener. Use as much or as little as you like; maple syrup or coconut sugar work just as well here.</li></ul>`
  const r = extract(page(`${blog}<div class="recipe-card"><h3>Ingredients</h3><ul><li>2 cups almond milk</li><li>2 tbsp cocoa powder</li></ul>
    <div class="recipe-instructions"><h3>Instructions</h3><ol><li>Heat the almond milk in a small saucepan until it steams.</li>
    <li>Once warm, whisk in the cocoa powder and the coconut butter until smooth.</li><li>Serve immediately and enjoy!</li></ol></div></div>`))
  t.same(steps(r), ['Heat the almond milk in a small saucepan until it steams.', 'Once warm, whisk in the cocoa powder and the coconut butter until smooth.',
    'Serve immediately and enjoy!'])
})

t.test('steps: numbered step titles set as higher headings ("<h1>2 Mix</h1>") do not end the steps', async t => {
  const r = extract(page(`<h3>Ingredients</h3><ul><li>650 g pastry sheets</li><li>500 g cheese</li></ul>
    <h3>Method</h3><h1>1 Grease the tin</h1><p>Brush a round tin with oil and lay two sheets in it.</p>
    <h1>2 Mix</h1><p>Whisk the water, salt and the rest of the oil together.</p>
    <h1>3 Bake</h1><p>Bake for forty minutes at 210 degrees.</p>`))
  t.same(steps(r), ['Brush a round tin with oil and lay two sheets in it.', 'Whisk the water, salt and the rest of the oil together.',
    'Bake for forty minutes at 210 degrees.'])
})

t.test('containers: sibling step blocks ("<div class="step">" each) are one list of steps', async t => {
  const r = extract(page(`<div class="ingredients"><ul><li>4 sheets filo pastry</li><li>200 g prunes</li><li>2 onions</li></ul></div>
    <div class="col"><div class="step"><h2>Part 1</h2><div>Soak the prunes in warm water for an hour.</div></div>
    <div class="step"><h2>Part 2</h2><div>Heat the oven to 240 degrees.</div></div>
    <div class="step"><h2>Part 3</h2><div>Fry the onions in a little oil until soft and golden, about ten minutes.</div></div></div>`))
  t.same(steps(r), ['Soak the prunes in warm water for an hour.', 'Heat the oven to 240 degrees.',
    'Fry the onions in a little oil until soft and golden, about ten minutes.'])
})

t.test('steps: a numbered list above the box of ingredients, without a heading, is the steps', async t => {
  const r = extract(page(`<p>A stew from the south, slow and sour.</p><h2>The recipe</h2><h3>A day ahead</h3>
    <ol><li>Cut the beef into large chunks.</li><li>Marinate the chunks overnight in water, vinegar and the spices.</li>
    <li>Brown the meat on all sides and stew it for three hours.</li></ol>
    <h2>Notes</h2><ol><li>It keeps three days in the fridge and tastes better for it.</li><li>Freeze it in portions if you made a lot.</li></ol>
    <div class="recipe-box"><h2>Ingredients</h2><div>Voor 4 tot 6 personen:</div>
    <ul><li>1 kg stewing beef</li><li>400 ml vinegar</li><li>3 onions</li></ul></div>`))
  t.same(ingredients(r), ['1 kg stewing beef', '400 ml vinegar', '3 onions'], '"Voor 4 tot 6 personen:" is the yield')
  t.same(steps(r), ['Cut the beef into large chunks.', 'Marinate the chunks overnight in water, vinegar and the spices.',
    'Brown the meat on all sides and stew it for three hours.'])
})

t.test('ingredients: a servings selector\'s words ("Für" [4] "Portionen") and "z. B." notes are not the list\'s end or its lines', async t => {
  const r = extract(page(`<div class="recipe-ingredients"><h3>Zutaten</h3><div><span>Für</span><button>-</button><div>4</div><button>+</button><span>Portionen</span></div>
    <div><p><strong>Salsa</strong></p><p>500 g Tomaten</p><p>1 Zwiebel</p><p><strong>Steaks</strong></p><p>4 El bunte Pfefferkörner (z. B. Tellicherry-, Lang- und Kubeben-Pfeffer)</p><p>4 Rumpsteaks</p></div></div>
    <h3>Zubereitung</h3><p>Tomaten würfeln und mit der Zwiebel mischen.</p>`))
  t.same(ingredients(r), ['500 g Tomaten', '1 Zwiebel', '4 El bunte Pfefferkörner (z. B. Tellicherry-, Lang- und Kubeben-Pfeffer)', '4 Rumpsteaks'])
})

t.test('ingredients: an amount after its name in one block is not joined to the next name', async t => {
  const row = (name: string, amount: string): string => `<div class="row"><div class="name">${name}</div><div class="qty">${amount}</div></div>`
  const r = extract(page(`<div class="ingredients-box"><h3>Ingredients</h3>${row('Basil', '20 g')}${row('Pine nuts', '70 g')}${row('Olive oil', '120 ml')}</div>
    <h3>Method</h3><p>Blend everything into a smooth pesto.</p>`))
  t.notOk(ingredients(r).some(line => /70 g Olive oil|20 g Pine nuts/.test(line)), ingredients(r).join(' | '))
})

t.test('headings: nutrition headings in more languages end the ingredients ("Næringsinnhold", "Voedingswaarden")', async t => {
  for (const word of ['Næringsinnhold', 'Voedingswaarden', 'Valeurs nutritionnelles']) {
    const r = extract(page(`<div class="recipe-ingredients"><h2>Ingredienser</h2><ul><li>2 stk. mango</li><li>1 rød chili</li></ul>
      <h3>${word}</h3><ul><li>Energi 135 kcal</li><li>Fett 1 g</li></ul></div><h2>Slik gjør du</h2><p>Del mango i små terninger.</p>`))
    t.same(ingredients(r), ['2 stk. mango', '1 rød chili'], word)
  }
})

t.test('ingredients: one paragraph listing them under a long "Zutaten für ..." heading', async t => {
  const r = extract(page(`<h2><strong>Zutaten für eine Tourte mit Feigen und Entenconfit:</strong></h2>
    <p>4-5 Feigen, 1 Entenconfit (Brust oder 2 Keulen), 3 Schalotten, 200-250 g Pfifferlinge, 1,5 EL Honig, Salz und Pfeffer.</p>
    <p>Utensilien: 20 cm Quicheform</p><p>1- Die Schalotten schälen und in dünne Scheiben schneiden.</p><p>2- Die Pilze putzen und braten.</p>`))
  t.same(ingredients(r), ['4-5 Feigen', '1 Entenconfit (Brust oder 2 Keulen)', '3 Schalotten', '200-250 g Pfifferlinge', '1,5 EL Honig', 'Salz und Pfeffer'])
})

t.test('ingredients: a long heading between two lists names the next group', async t => {
  const r = extract(page(`<div class="recipe-ingredients"><h3>Ingredients</h3><ul><li>3 cups sweet rice</li><li>2 cups water</li></ul>
    <h4>Decoration (the number you need will vary with the size of each bar)</h4><ul><li>1 Tbsp pine nuts</li><li>3 dried jujubes</li></ul></div>
    <h3>Instructions</h3><ol><li>Soak the rice overnight and drain it.</li></ol>`))
  t.same(ingredients(r), ['3 cups sweet rice', '2 cups water', '1 Tbsp pine nuts', '3 dried jujubes'])
})

t.test('recipe card controls ("Scale", "1x 2x 3x", "Cook Mode") and <dt> group terms in ingredient lists', async t => {
  const card = extract(page(`<div class="recipe-ingredients"><h3>Ingredients</h3><div>Scale</div><div>1x 2x 3x</div><div>Units Scale</div>
    <ul><li>10 ripe bananas</li><li>1/4 cup brown sugar</li><li>2 cups oil</li></ul><div>Cook Mode Prevent your screen from going dark</div></div>
    <h3>Instructions</h3><ol><li>Fry the bananas in the oil until golden.</li></ol>`))
  t.same(ingredients(card), ['10 ripe bananas', '1/4 cup brown sugar', '2 cups oil'])

  const terms = extract(page(`<h2>Ingredienti</h2><dl><dd>Latte intero 200 ml</dd><dd>Tuorli 3</dd><dd>Panna fresca 500 ml</dd>
    <dt>Per decorare</dt><dd>Panna fresca 150 ml</dd><dd>Zucchero a velo 30 g</dd></dl><h2>Preparazione</h2><p>Scaldate il latte con la vaniglia.</p>`))
  t.same(ingredients(terms), ['Latte intero 200 ml', 'Tuorli 3', 'Panna fresca 500 ml', 'Panna fresca 150 ml', 'Zucchero a velo 30 g'])
  t.equal(terms.ingredients[3].group, 'decorare')
})

t.test('structured data: notes in brackets alone do not make the page\'s lines richer', async t => {
  const html = ld(recipe({ recipeIngredient: ['2 cups strawberries', '1/2 cup lychee jelly', '1/3 cup sugar'] })).replace('<body></body>',
    `<body><h2>Ingredients</h2><ul><li>2 cups strawberries (chopped)</li><li>1/2 cup lychee jelly (or whatever flavor you prefer)</li>
    <li>1/3 cup sugar (or honey to taste)</li></ul></body>`)
  t.same(ingredients(extract(html)), ['2 cups strawberries', '1/2 cup lychee jelly', '1/3 cup sugar'])
})

t.test('ingredients: of lists alike for each number of servings, only the one marked active is read', async t => {
  const r = extract(page(`<h2>Zutaten</h2><div class="portions">
    <ul class="recipe-list" data-size="2"><li>5,5 dl Bouillon</li><li>110 g Polenta</li><li>Salz</li></ul>
    <ul class="recipe-list is-active" data-size="4"><li>1,1 l Bouillon</li><li>220 g Polenta</li><li>Salz</li></ul>
    <ul class="recipe-list" data-size="6"><li>1,65 l Bouillon</li><li>330 g Polenta</li><li>Salz</li></ul></div>
    <h2>Zubereitung</h2><p>Bouillon aufkochen und die Polenta einrieseln lassen.</p>`))
  t.same(ingredients(r), ['1,1 l Bouillon', '220 g Polenta', 'Salz'])
})

t.test('ingredients: a short plain line right before the first list names its group', async t => {
  const r = extract(page(`<h2>Ingredients</h2><p>for 14 servings</p><p>Dough</p><ul><li>½ cup butter, melted</li><li>5 cups flour</li></ul>
    <p>Filling</p><ul><li>¾ cup brown sugar</li><li>2 tablespoons cinnamon</li></ul><h2>Preparation</h2><p>Mix the dough and let it rise.</p>`))
  t.same(ingredients(r), ['½ cup butter, melted', '5 cups flour', '¾ cup brown sugar', '2 tablespoons cinnamon'])
  t.same(r.ingredients.map(i => i.group), ['Dough', 'Dough', 'Filling', 'Filling'])
})

t.test('headings: "4 tips to vary it" ends a section, "Banketstaaf maken" heads the steps', async t => {
  const r = extract(page(`<h2>Ingrediënten</h2><ul><li>250 g amandelspijs</li><li>1 rol bladerdeeg</li><li>1 ei</li></ul>
    <h2>4 tips om te variëren met deze banketstaaf</h2><ul><li>Verstop wat kersen in het midden van de rol spijs.</li>
    <li>Meng wat sinaasappelrasp door het amandelspijs.</li></ul>
    <h2>Banketstaaf maken</h2><p>Verwarm de oven voor op 200 graden en bekleed een bakplaat.</p><p>Rol het bladerdeeg uit en leg de spijs erop.</p>`))
  t.same(steps(r), ['Verwarm de oven voor op 200 graden en bekleed een bakplaat.', 'Rol het bladerdeeg uit en leg de spijs erop.'])
})

t.test('steps: "Dica: ..." notes between the steps are not steps', async t => {
  const r = extract(page(`<h2>Ingredientes</h2><ul><li>500 g de peito de frango</li><li>2 ovos</li></ul>
    <h2>Modo de preparo</h2><p>Corte o frango em cubos pequenos.</p><p>Dica: esse tamanho ajuda a fritar mais rápido.</p>
    <p>Passe os cubos no ovo batido e frite.</p>`))
  t.same(steps(r), ['Corte o frango em cubos pequenos.', 'Passe os cubos no ovo batido e frite.'])
})

t.test('ingredients: of alternatives alike (one per appliance), the hidden ones are left out', async t => {
  const r = extract(page(`<section class="ingredients"><h2>Ingredients</h2>
    <div data-method="standard"><ul><li>1 cup whole milk</li><li>1/3 cup sugar</li></ul></div>
    <div data-method="deluxe" class="d-none"><ul><li>1 1/2 cups whole milk</li><li>1/2 cup sugar</li></ul></div></section>
    <h2>Directions</h2><ol><li>Mix the milk and the sugar until dissolved.</li></ol>`))
  t.same(ingredients(r), ['1 cup whole milk', '1/3 cup sugar'])
})

t.test('steps: times set as label and value lines ("Garzeit:" over "40 Min") under the steps heading are skipped', async t => {
  const r = extract(page(`<h2>Zutaten</h2><ul><li>2 Hühnerbrüste</li><li>1 Karotte</li></ul>
    <h2>Zubereitung</h2><dl><dt>Vorbereitung:</dt><dd>30 Min</dd><dt>Garzeit:</dt><dd>40 Min</dd></dl><div>Gesamtzeit:</div><div><b>1 Std 10 Min</b></div>
    <p>1.Die Hühnerbrust in Stücke schneiden und würzen.</p><p>2.Die Karotte schälen und raspeln.</p>`))
  t.same(steps(r), ['Die Hühnerbrust in Stücke schneiden und würzen.', 'Die Karotte schälen und raspeln.'])
})

t.test('headings: Chinese "…的做法" heads the steps', async t => {
  const r = extract(page(`<h2>用料</h2><table><tr><td>番茄</td><td>两个</td></tr><tr><td>洋葱</td><td>半个</td></tr></table>
    <h2>番茄鸡肉焗饭【两人份】的做法</h2><ol><li><p>番茄切丁，洋葱切丝备用</p></li><li><p>鸡肉切块，腌制15分钟以上</p></li></ol>`))
  t.same(steps(r), ['番茄切丁，洋葱切丝备用', '鸡肉切块，腌制15分钟以上'])
})

t.test('steps: numbered paragraphs right after the ingredients are the steps, not a list further down (comments)', async t => {
  const r = extract(page(`<ul><li>250 g de tagliatelles</li><li>100 g de lardons</li><li>1 oeuf</li><li>4 cs de parmesan</li></ul>
    <p>1- Battez l'œuf à la fourchette.</p><p>2- Ajoutez le parmesan et mélangez.</p><p>3- Faites cuire les pâtes et mélangez le tout.</p>
    <div>3 commentaires</div><ol><li><div>Nadine il y a 10 ans</div><p>Quelle bonne idée, je fonce en cuisine tout de suite !</p></li>
    <li><div>Chantal il y a 10 ans</div><p>Je vais la faire ce soir, merci pour cette bonne recette !</p></li></ol>`))
  t.same(steps(r), ["Battez l'œuf à la fourchette.", 'Ajoutez le parmesan et mélangez.', 'Faites cuire les pâtes et mélangez le tout.'])
})

t.test('steps: lists under numbered headings ("1. Do some prep:", "2. Make the salad:") after the ingredients are one list of steps', async t => {
  const r = extract(page(`<h2>Produce</h2><ul><li>1 small red onion</li><li>2 celery stalks</li><li>1 medium tomato</li></ul>
    <h2>Pantry</h2><ul><li>2 cans oil-packed tuna</li><li>1/3 cup mayonnaise</li></ul>
    <h3>1. Do some prep:</h3><ul><li>Finely chop half of the red onion and the celery.</li><li>Thinly slice the tomato crosswise.</li></ul>
    <h3>2. Make the tuna salad:</h3><ul><li>Stir the mayonnaise into the onion and the celery.</li><li>Add the tuna and flake it apart with a fork.</li></ul>`))
  t.same(steps(r), ['Finely chop half of the red onion and the celery.', 'Thinly slice the tomato crosswise.',
    'Stir the mayonnaise into the onion and the celery.', 'Add the tuna and flake it apart with a fork.'])
})

t.test('steps: a step number glued to the first word ("1Wash the vegetables.") is removed, "1st" is kept', async t => {
  const r = extract(page(`<h2>Ingredients</h2><ul><li>1 cucumber</li><li>2 tomatoes</li></ul>
    <h2>Method</h2><ol><li><span>1</span>Wash the vegetables.</li><li><span>2</span>Roughly chop them.</li><li>1st of all, season them well.</li></ol>`))
  t.same(steps(r), ['Wash the vegetables.', 'Roughly chop them.', '1st of all, season them well.'])
})

t.test('ingredients: Bootstrap tab panes ("tab-pane fade active show" among "tab-pane fade") read only the shown one', async t => {
  const r = extract(page(`<h2>Ingrédients</h2><div class="tab-content">
    <div class="tab-pane fade active show" id="p2"><ul><li>4 gousses d'ail</li><li>8 pommes de terre</li></ul></div>
    <div class="tab-pane fade" id="p4"><ul><li>8 gousses d'ail</li><li>16 pommes de terre</li></ul></div></div>
    <h2>Préparation</h2><p>Épluchez les pommes de terre et l'ail.</p>`))
  t.same(ingredients(r), ["4 gousses d'ail", '8 pommes de terre'])
})

// Linear, counted as in recipe-extract.test.ts: pages shaped to reach each heuristic, at a quarter of the size and at
// the size, past every cap.
function shapedPages (size: number): Record<string, string> {
  const n = (unit: string): number => Math.max(1, Math.floor(size / unit.length))
  const li = '<li>2 cups flour</li>'
  return {
    'lists of quantities without a heading': page(`<ul>${li.repeat(n(li) / 2)}</ul><p>Mix well and bake it until done.</p>`),
    'many short lists between headings': page('<h3>Dough</h3><ul><li>1 cup milk</li><li>2 g salt</li><li>3 eggs</li></ul>'.repeat(n('<h3>Dough</h3><ul><li>1 cup milk</li><li>2 g salt</li><li>3 eggs</li></ul>'))),
    'prose after the ingredients': page(`<h2>Ingredients</h2><ul>${li.repeat(5)}</ul>` + '<p>Stir the soup slowly for a while.</p>'.repeat(n('<p>Stir the soup slowly for a while.</p>'))),
    'table rows': page('<h2>Ingredients</h2><table>' + '<tr><td>200 g</td><td>flour</td></tr>'.repeat(n('<tr><td>200 g</td><td>flour</td></tr>')) + '</table>'),
    'many <h1>s': page('<h1>Soup</h1>'.repeat(n('<h1>Soup</h1>')) + `<h2>Ingredients</h2><ul>${li}</ul>`, '<title>Soup | Site</title><meta property="og:title" content="Soup">'),
    'microdata names in list items': `<div itemscope itemtype="https://schema.org/Recipe"><ul>${'<li>2 cl <span itemprop="recipeIngredient">rum</span></li>'.repeat(n('<li>2 cl <span itemprop="recipeIngredient">rum</span></li>'))}</ul></div>`,
    'structured data beside a long page list': ld(recipe({ recipeIngredient: ['2 cups flour', '1 egg'] })).replace('<body></body>',
      `<body><h2>Ingredients</h2><ul>${'<li>1 egg</li><li>2 cups flour</li><li>3 g salt</li>'.repeat(n('<li>1 egg</li><li>2 cups flour</li><li>3 g salt</li>'))}</ul></body>`),
    'amounts set apart in list items': page('<h2>Ingredients</h2><ul>' + '<li><span>2 cups</span><div>flour</div></li>'.repeat(n('<li><span>2 cups</span><div>flour</div></li>')) + '</ul>'),
    'steps given as titles': ld(recipe({ recipeInstructions: ['Mix', 'Bake'] })).replace('<body></body>',
      `<body>${'<p>Mix</p><p>Stir the batter well.</p>'.repeat(n('<p>Mix</p><p>Stir the batter well.</p>'))}</body>`),
    'numbered lists without a steps heading': page('<ol><li>Stir the soup slowly for a while.</li><li>Serve it.</li></ol>'.repeat(n('<ol><li>Stir the soup slowly for a while.</li><li>Serve it.</li></ol>')) +
      `<h2>Ingredients</h2><ul>${li.repeat(3)}</ul>`),
    'headings ending in tips': page('<h2>Kitchen Tips</h2><p>1 cup</p>'.repeat(n('<h2>Kitchen Tips</h2><p>1 cup</p>')))
  }
}

t.test('the heuristics stay linear', async t => {
  const [quarter, full] = [62_500, 250_000].map(shapedPages)
  for (const [name, html] of Object.entries(full)) {
    const small = workOf(() => extractRecipe(quarter[name], PAGE))
    const large = workOf(() => extractRecipe(html, PAGE))
    t.ok(large / small < LINEAR_GROWTH, `${name}: work ${large} for ${html.length} characters, ${(large / small).toFixed(2)}x a quarter of it`)
  }
})
