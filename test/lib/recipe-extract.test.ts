// lib/recipe-import/extract: the recipe of a web page (JSON-LD in all its shapes, microdata, page heuristics),
// cleaning (entities, durations, yields, images), bounds, linear work, and the development corpus
// (../shared/import-corpus) scored with the core criterion of its score.py.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { decodeHTML } from 'entities'
import t from 'tap'
import { parseDuration, parseYield, resolveImage } from '../../lib/recipe-import/extract/clean.js'
import { boundNesting } from '../../lib/recipe-import/extract/guard.js'
import { extractRecipe } from '../../lib/recipe-import/extract/index.js'
import { parseJsonLd } from '../../lib/recipe-import/extract/json-ld.js'
import type { RecipePreview } from '../../lib/recipe-import/preview.js'
import { hostilePages, ld, recipe } from '../helpers/hostile-inputs.js'
import { LINEAR_GROWTH, workOf } from '../helpers/work.js'
import { withoutStructuredData } from '../../scripts/without-structured-data.js'

const PAGE = 'https://cook.example.com/recipes/pancakes/'

function extract (html: string, url = PAGE): RecipePreview {
  const result = extractRecipe(html, url)
  if (result == null) throw new Error('no recipe extracted')
  return result
}

const texts = (r: RecipePreview) => ({ ingredients: r.ingredients.map(i => i.text), steps: r.instructions.map(s => s.text) })

t.test('JSON-LD: a full Recipe object maps to every preview field', async t => {
  const r = extract(ld(recipe({
    description: 'Light &amp; fluffy.',
    recipeIngredient: ['1 1/2 cups flour, sifted', '2 tablespoons sugar', 'Salt'],
    prepTime: 'PT10M',
    cookTime: 'PT20M',
    recipeYield: ['4', '4 servings'],
    image: { '@type': 'ImageObject', url: '/img/pancakes.jpg' },
    recipeCuisine: 'American',
    recipeCategory: ['Breakfast', 'Brunch'],
    keywords: 'pancakes, breakfast, easy',
    author: { '@type': 'Person', name: 'Ann Cook' },
    nutrition: { '@type': 'NutritionInformation', calories: '240 kcal', fatContent: '9 g' },
    inLanguage: 'en-US'
  })))
  t.equal(r.title, 'Fluffy Pancakes')
  t.equal(r.description, 'Light & fluffy.')
  t.same(r.ingredients[0], { text: '1 1/2 cups flour, sifted', name: 'flour', quantity: 1.5, unit: 'cup', note: 'sifted', group: null })
  t.same(r.ingredients[2], { text: 'Salt', name: 'Salt', quantity: null, unit: null, note: null, group: null }, 'absent parts are null')
  t.same(r.instructions, [{ step: 1, text: 'Mix.' }, { step: 2, text: 'Fry.' }])
  t.equal(r.prepTime, 10)
  t.equal(r.cookTime, 20)
  t.equal(r.totalTime, 30, 'total = prep + cook when missing')
  t.equal(r.servings, 4)
  t.equal(r.yields, '4 servings')
  t.equal(r.imageUrl, 'https://cook.example.com/img/pancakes.jpg', 'relative image made absolute')
  t.equal(r.cuisine, 'American')
  t.equal(r.category, 'Breakfast, Brunch')
  t.same(r.tags, ['pancakes', 'breakfast', 'easy'])
  t.equal(r.author, 'Ann Cook')
  t.same(r.nutrition, { calories: '240 kcal', fatContent: '9 g' })
  t.equal(r.language, 'en-US')
  t.equal(r.sourceUrl, PAGE)
})

t.test('JSON-LD: every container shape and @type spelling finds the Recipe', async t => {
  const shapes: Record<string, unknown> = {
    'top-level array': [{ '@type': 'WebSite', name: 'Site' }, recipe()],
    '@graph': { '@context': 'https://schema.org', '@graph': [{ '@type': 'WebPage', name: 'Page' }, recipe()] },
    'ItemList itemListElement.item': { '@type': 'ItemList', itemListElement: [{ '@type': 'ListItem', position: 1, item: recipe() }] },
    mainEntity: { '@type': 'WebPage', mainEntity: recipe() },
    'objects keyed "0", "1"': { 0: { '@type': 'Organization', name: 'Org' }, 1: recipe() },
    '@type as an array': recipe({ '@type': ['Recipe', 'NewsArticle'] }),
    '"schema:Recipe"': recipe({ '@type': 'schema:Recipe' }),
    '"http://schema.org/Recipe"': recipe({ '@type': 'http://schema.org/Recipe' })
  }
  for (const [name, data] of Object.entries(shapes)) {
    const r = extractRecipe(ld(data), PAGE)
    t.equal(r?.title, 'Fluffy Pancakes', name)
    t.same(r == null ? null : texts(r), { ingredients: ['2 cups flour', '1 egg'], steps: ['Mix.', 'Fry.'] }, name)
  }
})

t.test('JSON-LD: the most complete of several recipes, and @id references in a graph', async t => {
  const graph = {
    '@graph': [
      { '@type': 'Recipe', name: 'Teaser', image: 'https://cook.example.com/t.jpg' },
      recipe({ author: { '@id': '#ann' }, image: { '@id': '#photo' } }),
      { '@type': 'Person', '@id': '#ann', name: 'Ann Cook' },
      { '@type': 'ImageObject', '@id': '#photo', contentUrl: 'https://cdn.example.com/p.jpg' }
    ]
  }
  const r = extract(ld(graph))
  t.equal(r.title, 'Fluffy Pancakes')
  t.equal(r.author, 'Ann Cook')
  t.equal(r.imageUrl, 'https://cdn.example.com/p.jpg')
})

t.test('JSON-LD: sloppy JSON is repaired', async t => {
  const body = JSON.stringify(recipe())
  const cases: Record<string, string> = {
    'control characters inside strings': body.replace('"Mix."', '"Mix\nwell.\tNow."'),
    'CDATA wrapper': `//<![CDATA[\n${body}\n//]]>`,
    'HTML comment wrapper': `<!-- ${body} -->`,
    'trailing semicolon': `${body};`,
    'trailing commas': body.replace(']', ',]').replace(/}$/, ',}'),
    'several objects in one script': `{"@type":"WebSite","name":"Site"}\n${body}`,
    'several objects separated by commas': `{"@type":"WebSite","name":"Site"},${body}`,
    'invalid escapes': body.replace('"Fry."', '"Fry \\\'em."'),
    'unclosed at the end': body.slice(0, -1)
  }
  for (const [name, script] of Object.entries(cases)) {
    const r = extractRecipe(ld(script), PAGE)
    t.equal(r?.title, 'Fluffy Pancakes', name)
    t.equal(r?.ingredients.length, 2, name)
  }
  t.equal(extract(ld(cases['control characters inside strings'])).instructions[0].text, 'Mix well. Now.')
  t.equal(extract(ld(cases['invalid escapes'])).instructions[1].text, "Fry 'em.")
  t.same(parseJsonLd('{"a":1}; {"b":[1,2,],}'), [{ a: 1 }, { b: [1, 2] }])
})

t.test('JSON-LD: instructions in every shape', async t => {
  const sections = extract(ld(recipe({
    recipeInstructions: [
      { '@type': 'HowToSection', name: 'Batter', itemListElement: [{ '@type': 'HowToStep', text: 'Whisk.' }, { '@type': 'HowToStep', text: 'Rest.' }] },
      { '@type': 'HowToSection', name: 'Cooking', itemListElement: [{ '@type': 'HowToStep', itemListElement: [{ '@type': 'HowToDirection', text: 'Fry.' }] }] }
    ]
  })))
  t.same(sections.instructions, [
    { step: 1, text: 'Whisk.', section: 'Batter' },
    { step: 2, text: 'Rest.', section: 'Batter' },
    { step: 3, text: 'Fry.', section: 'Cooking' }
  ], 'HowToSection names kept as section')

  const lines = extract(ld(recipe({ recipeInstructions: 'Mix the batter.\nHeat the pan.\r\n\nFry both sides.' })))
  t.same(texts(lines).steps, ['Mix the batter.', 'Heat the pan.', 'Fry both sides.'], 'one string split at newlines')

  const numbered = extract(ld(recipe({ recipeInstructions: '1. Mix the batter. 2. Heat the pan to 180 C. 3. Fry 2.5 minutes.' })))
  t.same(texts(numbered).steps, ['Mix the batter.', 'Heat the pan to 180 C.', 'Fry 2.5 minutes.'], 'numbered steps in one paragraph')

  const html = extract(ld(recipe({ recipeInstructions: '<p>Mix <b>well</b>.</p><p>Fry.</p><ol><li>Serve.</li></ol>' })))
  t.same(texts(html).steps, ['Mix well.', 'Fry.', 'Serve.'], 'markup: block tags end steps, inline tags vanish')

  const strings = extract(ld(recipe({ recipeInstructions: [['Step 1: Mix.', 'Step 2: Fry.']] })))
  t.same(texts(strings).steps, ['Mix.', 'Fry.'], 'nested arrays of strings, numbering removed')

  const listed = extract(ld(recipe({ recipeInstructions: { '@type': 'ItemList', itemListElement: ['Mix.', 'Fry.'] } })))
  t.same(texts(listed).steps, ['Mix.', 'Fry.'], 'an ItemList')
})

t.test('JSON-LD: entities, tags and whitespace are cleaned', async t => {
  const r = extract(ld(recipe({
    name: 'Mac &amp;amp; Cheese &#8211; <em>Best</em>',
    recipeIngredient: ['&#8531; cup   milk', '<a href="/x">2</a> cups&nbsp;macaroni', '  ', 'For the topping:', '1 cup crumbs'],
    keywords: ['cheese', 'Cheese', 'pasta, baked']
  })))
  t.equal(r.title, 'Mac & Cheese – Best')
  t.same(texts(r).ingredients, ['⅓ cup milk', '2 cups macaroni', '1 cup crumbs'])
  t.ok(Math.abs((r.ingredients[0].quantity ?? 0) - 1 / 3) < 0.01, 'vulgar fraction parsed')
  t.equal(r.ingredients[2].group, 'topping', '"For the topping:" starts a group')
  t.same(r.tags, ['cheese', 'pasta', 'baked'], 'split, deduplicated')
})

t.test('durations', async t => {
  const cases: Array<[unknown, number | null]> = [
    ['PT1H30M', 90], ['P0DT0H45M', 45], ['PT90M', 90], ['PT1H30M0S', 90], ['pt20m', 20], ['P1DT2H', 1560],
    ['PT0.5H', 30], ['PT 20 M', 20], ['1 hr 30 mins', 90], ['1 hour 15 minutes', 75], ['45 min', 45], ['1h30', 90],
    ['1:30', 90], ['2 Stunden', 120], ['20-25 minutes', 20], ['1 ½ hours', 90], [25, 25], ['25', 25],
    ['PT0M', null], ['PT', null], ['', null], ['soon', null], [null, null], [{ '@value': 'PT5M' }, 5]
  ]
  for (const [input, minutes] of cases) t.equal(parseDuration(input), minutes, JSON.stringify(input))
  const r = extract(ld(recipe({ prepTime: 'PT15M', cookTime: 'PT1H', totalTime: 'PT1H30M' })))
  t.equal(r.totalTime, 90, 'a given total is kept')
})

t.test('yields', async t => {
  t.same(parseYield('4 servings'), { yields: '4 servings', servings: 4 })
  t.same(parseYield(6), { yields: '6 servings', servings: 6 })
  t.same(parseYield('1'), { yields: '1 serving', servings: 1 })
  t.same(parseYield(['12', '12 cookies']), { yields: '12 cookies', servings: 12 })
  t.same(parseYield('Serves 4-6'), { yields: 'Serves 4-6', servings: 4 })
  t.same(parseYield('Makes one loaf'), { yields: 'Makes one loaf', servings: 1 })
  t.same(parseYield({ '@type': 'QuantitativeValue', value: 2, unitText: 'loaves' }), { yields: '2 loaves', servings: 2 })
  t.equal(parseYield(null), null)
  t.equal(parseYield([]), null)
})

t.test('images in every shape, made absolute', async t => {
  const base = new URL(PAGE)
  t.equal(resolveImage('https://cdn.example.com/a.jpg', base), 'https://cdn.example.com/a.jpg')
  t.equal(resolveImage(['', 'data:image/png;base64,xx', '/b.jpg'], base), 'https://cook.example.com/b.jpg')
  t.equal(resolveImage({ '@type': 'ImageObject', contentUrl: 'c.jpg' }, base), 'https://cook.example.com/recipes/pancakes/c.jpg')
  t.equal(resolveImage([{ url: '//cdn.example.com/d.jpg' }], base), 'https://cdn.example.com/d.jpg')
  t.equal(resolveImage('javascript:alert(1)', base), null)
  t.equal(resolveImage('/e.jpg', null), null, 'relative without a base')
  const withBase = extract(ld(recipe({ image: 'img/f.jpg' }), '<base href="https://static.example.com/assets/">'))
  t.equal(withBase.imageUrl, 'https://static.example.com/assets/img/f.jpg', '<base href> wins')
  const fallback = extract(ld(recipe(), '<meta property="og:image" content="/og.jpg">'))
  t.equal(fallback.imageUrl, 'https://cook.example.com/og.jpg', 'og:image fills a missing image')
})

t.test('author and language in their shapes', async t => {
  t.equal(extract(ld(recipe({ author: 'Ann' }))).author, 'Ann')
  t.equal(extract(ld(recipe({ author: [{ '@type': 'Person', name: 'Ann' }, { name: 'Bob' }] }))).author, 'Ann, Bob')
  t.equal(extract(ld(recipe())).language, 'en', 'from <html lang>')
})

const MICRODATA = `<!doctype html><html lang="fr"><head><title>Gratin - Site</title></head><body>
<div itemscope itemtype="http://schema.org/Recipe">
  <h1 itemprop="name">Gratin &amp; Poireaux</h1>
  <img itemprop="image" src="data:image/gif;base64,R0lGOD" data-lazy-src="/img/gratin.jpg">
  <meta itemprop="prepTime" content="PT15M"><time itemprop="cookTime" datetime="PT1H10M">1 h 10</time>
  <span itemprop="recipeYield">6 personnes</span>
  <div itemprop="author" itemscope itemtype="http://schema.org/Person"><span itemprop="name">Marie</span></div>
  <ul>
    <li itemprop="recipeIngredient">300 g emmental</li>
    <li itemprop="ingredients">1 kg d'oignons</li>
  </ul>
  <ol>
    <li itemprop="recipeInstructions" itemscope itemtype="http://schema.org/HowToStep"><span itemprop="text">Épluchez les oignons.</span></li>
    <li itemprop="recipeInstructions" itemscope itemtype="http://schema.org/HowToStep"><span itemprop="text">Faites gratiner.</span></li>
  </ol>
  <div itemprop="nutrition" itemscope itemtype="http://schema.org/NutritionInformation"><span itemprop="calories">320 kcal</span></div>
</div></body></html>`

t.test('microdata: properties, nested HowToStep, durations in attributes', async t => {
  const r = extract(MICRODATA, 'https://gratin.example.fr/r/1')
  t.equal(r.title, 'Gratin & Poireaux')
  t.same(texts(r), { ingredients: ['300 g emmental', "1 kg d'oignons"], steps: ['Épluchez les oignons.', 'Faites gratiner.'] })
  t.equal(r.prepTime, 15)
  t.equal(r.cookTime, 70)
  t.equal(r.totalTime, 85)
  t.equal(r.servings, 6)
  t.equal(r.yields, '6 personnes')
  t.equal(r.imageUrl, 'https://gratin.example.fr/img/gratin.jpg', 'lazy-loaded image')
  t.equal(r.author, 'Marie')
  t.same(r.nutrition, { calories: '320 kcal' })
  t.equal(r.language, 'fr')
})

t.test('microdata: one element holding the whole list of steps', async t => {
  const html = `<div itemscope itemtype="https://schema.org/Recipe"><h2 itemprop="name">Soup</h2>
    <p itemprop="recipeIngredient">1 leek</p>
    <div itemprop="recipeInstructions"><ol><li>Slice the leek.</li><li>Simmer 20 minutes.</li></ol></div></div>`
  t.same(texts(extract(html)).steps, ['Slice the leek.', 'Simmer 20 minutes.'])
})

t.test('JSON-LD fields missing are filled from microdata and the page', async t => {
  const html = `<html><head><script type="application/ld+json">${JSON.stringify({ '@type': 'Recipe', name: 'Stew', recipeIngredient: ['1 kg beef'] })}</script>
    <meta property="og:image" content="https://cook.example.com/stew.jpg"></head><body>
    <h2>Instructions</h2><ol><li>Brown the beef in batches.</li><li>Simmer for two hours.</li></ol></body></html>`
  const r = extract(html)
  t.same(texts(r), { ingredients: ['1 kg beef'], steps: ['Brown the beef in batches.', 'Simmer for two hours.'] })
  t.equal(r.imageUrl, 'https://cook.example.com/stew.jpg')
})

t.test('heuristics: headings and lists, groups, title and meta', async t => {
  const html = `<html lang="en-GB"><head><title>Lemon Tart | Kitchen Notes</title>
    <meta property="og:site_name" content="Kitchen Notes"><meta property="og:image" content="/tart.jpg">
    <meta name="description" content="A sharp tart."></head><body>
    <nav><ul><li>Home</li><li>Ingredients</li><li>Recipes</li></ul></nav>
    <article><h1>Lemon Tart</h1><p>We love this tart. Everyone does.</p>
    <div class="box"><h2>Ingredients</h2>
      <h3>For the pastry</h3><ul><li>200 g flour</li><li>100 g butter</li></ul>
      <h3>For the filling</h3><ul><li>3 lemons</li><li>4 eggs</li></ul></div>
    <p>Prep time: 30 minutes</p><p>Cook time: 1 hr 5 mins</p><p>Serves 8</p>
    <div><h2>Method</h2><ol><li>Make the pastry and chill it.</li><li>Bake blind for 15 minutes.</li></ol>
    <h2>Notes</h2><p>Keeps two days.</p></div></article>
    <footer><h2>Ingredients</h2><ul><li>Newsletter</li></ul></footer></body></html>`
  const r = extract(html, 'https://kitchen.example.org/lemon-tart')
  t.equal(r.title, 'Lemon Tart', 'site name stripped from <title>')
  t.same(r.ingredients.map(i => [i.text, i.group]), [['200 g flour', 'pastry'], ['100 g butter', 'pastry'], ['3 lemons', 'filling'], ['4 eggs', 'filling']])
  t.same(texts(r).steps, ['Make the pastry and chill it.', 'Bake blind for 15 minutes.'])
  t.equal(r.prepTime, 30)
  t.equal(r.cookTime, 65)
  t.equal(r.totalTime, 95)
  t.equal(r.servings, 8)
  t.equal(r.imageUrl, 'https://kitchen.example.org/tart.jpg')
  t.equal(r.description, 'A sharp tart.')
  t.equal(r.language, 'en-GB')
})

t.test('heuristics: other languages, paragraphs with <br>, headings written in bold', async t => {
  const de = `<html lang="de"><head><title>Pfannkuchen</title></head><body><div class="entry">
    <p><strong>Zutaten:</strong></p><p>250 g Mehl<br>3 Eier<br>500 ml Milch</p>
    <p><strong>Zubereitung:</strong><br>Alles verrühren und 30 Minuten ruhen lassen.</p>
    <p>In der Pfanne goldbraun backen.</p></div><div class="sidebar"><p>Mehr lesen</p></div></body></html>`
  const r = extract(de)
  t.same(texts(r), {
    ingredients: ['250 g Mehl', '3 Eier', '500 ml Milch'],
    steps: ['Alles verrühren und 30 Minuten ruhen lassen.', 'In der Pfanne goldbraun backen.']
  })
  t.equal(r.title, 'Pfannkuchen')
})

t.test('heuristics: recipe-plugin class names without headings', async t => {
  const html = `<html><head><title>Chili</title></head><body><div class="wprm-recipe-container">
    <ul class="wprm-recipe-ingredients"><li class="wprm-recipe-ingredient">1 lb beef</li><li class="wprm-recipe-ingredient">2 tbsp chili powder</li></ul>
    <div class="wprm-recipe-instructions"><div class="wprm-recipe-instruction-text">Brown the beef well.</div><div class="wprm-recipe-instruction-text">Add the chili powder and simmer.</div></div>
    </div></body></html>`
  t.same(texts(extract(html)), { ingredients: ['1 lb beef', '2 tbsp chili powder'], steps: ['Brown the beef well.', 'Add the chili powder and simmer.'] })
})

t.test('embedded application state (a page rendered by JavaScript)', async t => {
  const state = { props: { recipe: { name: 'Udon Bowl', ingredients: [{ name: 'Pak Choi', quantity: 3, unit: 'Stk.' }, { name: 'Sesam' }], preparationSteps: [{ body: 'Wash the pak choi.' }, { body: 'Cook the noodles.' }] } } }
  const html = `<html><head><title>Udon Bowl | Shop</title></head><body><div id="app"></div><script id="__NEXT_DATA__" type="application/json">${JSON.stringify(state)}</script></body></html>`
  const r = extract(html)
  t.same(texts(r), { ingredients: ['3 Stk. Pak Choi', 'Sesam'], steps: ['Wash the pak choi.', 'Cook the noodles.'] })
})

t.test('heuristics: steps after the ingredients without a heading, figure captions and summaries left out', async t => {
  const html = `<html><head><title>Fondant – Rosa Bakes</title></head><body><article><h1>Fondant</h1>
    <div class="left"><em>Ingredients</em><ul><li>1 bag marshmallows</li><li>3 tablespoons water</li></ul></div>
    <div class="right"><h4>Let's get started!</h4><ol><li>Melt the marshmallows with the water.</li><li>Knead in the sugar until smooth.</li></ol></div>
    </article></body></html>`
  const r = extract(html, 'https://rosabakes.example.com/fondant')
  t.same(texts(r), { ingredients: ['1 bag marshmallows', '3 tablespoons water'], steps: ['Melt the marshmallows with the water.', 'Knead in the sugar until smooth.'] })
  t.equal(r.title, 'Fondant', 'the <h1> the <title> contains')

  const card = `<html><body><div class="recipe-card"><h2>Ingredients</h2><ul><li>2 eggs</li></ul>
    <div class="recipe-instructions"><h3>Instructions</h3><ol>
      <li><div class="instruction-text">Whisk the eggs.</div><div class="instruction-ingredients">2 eggs</div></li>
      <li><div class="instruction-text">Cook gently.</div></li></ol>
    <figure><img src="/a.jpg"><figcaption>Whisking, photo by Ann</figcaption></figure>
    <p>Prep Time: 5 mins</p></div></div>
    <div class="recipe-instructions mobile"><ol><li>Whisk the eggs.</li><li>Cook gently.</li></ol></div></body></html>`
  t.same(texts(extract(card)).steps, ['Whisk the eggs.', 'Cook gently.'], 'per-step ingredients, captions, times and copies left out')
})

t.test('heuristics: the page title when the <h1> is not the recipe name', async t => {
  const html = `<html><head><title>Pesto Meatballs in Marinara | Mel's Kitchen</title></head><body>
    <h1>Monday Meal: Meatballs!</h1><h2>Ingredients</h2><ul><li>1 lb chicken</li></ul></body></html>`
  t.equal(extract(html, 'https://mel.example.com/x').title, 'Pesto Meatballs in Marinara')
})

t.test('JSON-LD steps given as a whole article: the page list of those steps is used', async t => {
  const blob = 'We love this stew. It is our favourite.\n\nhttps://example.com/more\n\nThe recipe\nA day before\nCut the beef into large pieces.\nMarinate the beef overnight in vinegar.\nThe next day\nBrown the beef in butter.\nServe with fries, beer and good company.'
  const html = `<html><head><script type="application/ld+json">${JSON.stringify(recipe({ recipeInstructions: blob }))}</script></head><body>
    <p>We love this stew. It is our favourite.</p><h2>The recipe</h2>
    <h3>A day before</h3><ol><li>Cut the beef into large pieces.</li><li>Marinate the beef overnight in vinegar.</li></ol>
    <h3>The next day</h3><ol><li>Brown the beef in butter.</li></ol>
    <h2>More recipes for stews:</h2><ul><li>Serve with fries, beer and good company.</li></ul></body></html>`
  t.same(extract(html).instructions, [
    { step: 1, text: 'Cut the beef into large pieces.', section: 'A day before' },
    { step: 2, text: 'Marinate the beef overnight in vinegar.', section: 'A day before' },
    { step: 3, text: 'Brown the beef in butter.', section: 'The next day' }
  ])
})

t.test('JSON-LD ingredients get the groups the page shows them under', async t => {
  const html = `<html><head><script type="application/ld+json">${JSON.stringify(recipe({ recipeIngredient: ['200 g flour', '100 g butter', '3 lemons', '4 eggs'] }))}</script></head><body>
    <div class="ingredients"><h2>Ingredients</h2><h3>Pastry</h3><ul><li>200 g flour</li><li>100 g butter</li></ul>
    <h3>Filling</h3><ul><li>3 lemons</li><li>4 eggs</li></ul></div></body></html>`
  t.same(extract(html).ingredients.map(i => i.group), ['Pastry', 'Pastry', 'Filling', 'Filling'])
})

t.test('embedded state streamed in script strings', async t => {
  const payload = JSON.stringify({ recipe: { name: 'Bowl', ingredients: [{ name: 'Tofu', amount: 200, unit: 'g' }], instructions: ['Fry the tofu.'] } })
  const half = Math.floor(payload.length / 2)
  const push = (part: string) => `<script>self.__stream.push([1,${JSON.stringify(part)}])</script>`
  const html = `<html><head><title>Bowl</title></head><body>${push('7:' + payload.slice(0, half))}${push(payload.slice(half) + '\n8:["$","div"]')}</body></html>`
  t.same(texts(extract(html)), { ingredients: ['200 g Tofu'], steps: ['Fry the tofu.'] })
})

t.test('a page without a recipe gives null', async t => {
  t.equal(extractRecipe('<html><head><title>About us</title></head><body><p>Hello.</p></body></html>', PAGE), null)
  t.equal(extractRecipe('', PAGE), null)
  t.equal(extractRecipe(ld({ '@type': 'Recipe', name: 'Empty' }), PAGE), null)
})

t.test('sizes are bounded', async t => {
  const r = extract(ld(recipe({
    name: 'T'.repeat(5000),
    recipeIngredient: Array.from({ length: 1000 }, (_, i) => `${i + 1} g item ${'x'.repeat(i === 0 ? 5000 : 1)}`),
    recipeInstructions: Array.from({ length: 1000 }, (_, i) => `Step number ${i}.`),
    keywords: Array.from({ length: 500 }, (_, i) => `tag${i}`)
  })))
  t.equal(r.title.length, 200)
  t.equal(r.ingredients.length, 200)
  t.equal(r.ingredients[0].text.length, 1000)
  t.equal(r.instructions.length, 200)
  t.ok(r.tags.length <= 30)
})

t.test('hostile pages give bounded previews', async t => {
  for (const [name, html] of Object.entries(hostilePages(1_000_000))) {
    const result = extractRecipe(html, PAGE)
    if (result != null) {
      t.ok(result.ingredients.length <= 200 && result.instructions.length <= 200, `${name}: bounded`)
      t.ok(result.ingredients.every(i => i.text.length <= 1000) && result.instructions.every(s => s.text.length <= 1000), `${name}: lines bounded`)
    }
  }
  t.equal(boundNesting('<div><p>a</p></div>'), '<div><p>a</p></div>', 'ordinary markup is unchanged')
})

// Linear, counted rather than timed (a clock's verdict depends on what else the machine runs): the work of the built-ins
// extraction calls (test/helpers/work.ts: characters searched, copied or matched, array elements moved or searched, as
// the HTML parser does per open element without guard.ts) must grow about 4x from each page at a quarter of the size
// to the page at that size, not 16x. Counted on pages of 62.5k and 250k characters (the same shapes as above, past
// every cap); `npm run bench:hostile-input` times the 1 MB pages.
t.test('hostile pages stay linear', async t => {
  const [quarter, pages] = [62_500, 250_000].map(hostilePages)
  for (const [name, html] of Object.entries(pages)) {
    const small = workOf(() => extractRecipe(quarter[name], PAGE))
    const full = workOf(() => extractRecipe(html, PAGE))
    const growth = full / small
    t.ok(growth < LINEAR_GROWTH, `${name}: work ${full} for ${html.length} characters, ${growth.toFixed(2)}x a quarter of it`)
  }
})

// ---------------------------------------------------------------------------------------------------------------
// The development corpus, scored as score.py's core criterion: title equal after normalisation, ingredient token F1
// >= 0.9, instruction token F1 >= 0.8.

const here = path.dirname(fileURLToPath(import.meta.url))
const CORPUS = path.resolve(here, '../../../shared/import-corpus')

const QUOTES: Record<string, string> = {
  '\u2018': "'", '\u2019': "'", '\u201c': '"', '\u201d': '"', '\u2013': '-', '\u2014': '-', '\u2044': '/', '\u00a0': ' ', '\u200b': ''
}

/** score.py's norm(): repeated unescape, tags to spaces, NFKC, quotes, whitespace, casefold. */
function norm (value: unknown): string {
  if (value == null) return ''
  let s = typeof value === 'string' ? value : String(value)
  for (let previous = ''; previous !== s;) {
    previous = s
    s = decodeHTML(s)
  }
  s = s.replace(/<[^>]*>/g, ' ').normalize('NFKC').replace(/[\u2018\u2019\u201c\u201d\u2013\u2014\u2044\u00a0\u200b]/g, c => QUOTES[c])
  return s.replace(/\s+/g, ' ').trim().toLowerCase().replace(/ß/g, 'ss')
}

function asList (value: unknown): string[] {
  if (value == null) return []
  if (typeof value === 'string') return value.split('\n').filter(x => x.trim() !== '')
  if (Array.isArray(value)) return value.map(x => typeof x === 'string' ? x : JSON.stringify(x))
  return [String(value)]
}

const TOKEN = /[\p{L}\p{N}_]+(?:[./][\p{L}\p{N}_]+)*/gu

function tokens (lines: string[]): Map<string, number> {
  const out = new Map<string, number>()
  for (const line of lines) for (const token of norm(line).match(TOKEN) ?? []) out.set(token, (out.get(token) ?? 0) + 1)
  return out
}

function f1 (predicted: Map<string, number>, expected: Map<string, number>): number {
  const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0)
  if (predicted.size === 0 && expected.size === 0) return 1
  if (predicted.size === 0 || expected.size === 0) return 0
  let hits = 0
  for (const [token, count] of predicted) hits += Math.min(count, expected.get(token) ?? 0)
  if (hits === 0) return 0
  const precision = hits / total(predicted)
  const recall = hits / total(expected)
  return 2 * precision * recall / (precision + recall)
}

// The corpus grew from 40 to 270 pages (more without structured data); the extractor passed 238 of them, and 252 since
// the heuristics for pages without structured data (issue 43: headings in more wordings and languages, ingredient
// lists found by their shape, steps written as paragraphs, the <h1> og:title names) and the page's lists where the
// structured data gives only part of them (test/lib/recipe-extract-heuristics.test.ts). The floors only rise: raise
// them with the extractor, never lower them, and never drop a page to meet them.
const CORPUS_CASES = 270
const CORE_PASS_FLOOR = 257
// The same pages without their JSON-LD and microdata (scripts/without-structured-data.ts): the heuristics read all 270
// layouts, not only the 36 pages that lack structured data (86% core pass there; 221 of 270 on this reading when it
// was first measured, against 260 with the structured data; 240 after heuristics found on it). Titles are left out: a page's headline often differs from its recipe's name, which the expected
// answers hold; the ingredients and steps a page shows should not.
const WITHOUT_STRUCTURED_DATA_FLOOR = 240

interface CorpusCase { id: string, html: string, expected: string, url: string }
interface CorpusScore { cases: number, passed: number, failures: string[] }

function scoreCorpus (read: (html: string) => string, withTitle: boolean): CorpusScore {
  const manifest = JSON.parse(readFileSync(path.join(CORPUS, 'manifest.json'), 'utf8')) as { cases: CorpusCase[] }
  const failures: string[] = []
  for (const c of manifest.cases) {
    const expected = JSON.parse(readFileSync(path.join(CORPUS, c.expected), 'utf8')) as Record<string, unknown>
    const r = extractRecipe(read(readFileSync(path.join(CORPUS, c.html), 'utf8')), c.url)
    const title = r != null && r.title !== '' && norm(r.title) === norm(expected.title)
    const ingredients = f1(tokens(r?.ingredients.map(i => i.text) ?? []), tokens(asList(expected.ingredients)))
    const steps = f1(tokens(r?.instructions.map(s => s.text) ?? []),
      tokens(asList('instructions_list' in expected ? expected.instructions_list : expected.instructions)))
    if (!((title || !withTitle) && ingredients >= 0.9 && steps >= 0.8)) {
      failures.push(`${c.id} (title ${title ? 1 : 0}, ingredients ${ingredients.toFixed(2)}, steps ${steps.toFixed(2)})`)
    }
  }
  return { cases: manifest.cases.length, passed: manifest.cases.length - failures.length, failures }
}

const noCorpus = !existsSync(path.join(CORPUS, 'manifest.json')) && `corpus not found at ${CORPUS} (../shared/import-corpus next to the repository)`

t.test(`development corpus: core pass at least ${CORE_PASS_FLOOR} of ${CORPUS_CASES}`, { skip: noCorpus }, async t => {
  const { cases, passed, failures } = scoreCorpus(html => html, true)
  t.ok(cases >= CORPUS_CASES, `${cases} cases, none dropped`)
  t.ok(passed >= CORE_PASS_FLOOR, `core pass ${passed}/${cases} (${(100 * passed / cases).toFixed(1)}%); failing: ${failures.join(', ') || 'none'}`)
  if (passed > CORE_PASS_FLOOR) t.comment(`core pass ${passed} is above the floor: raise CORE_PASS_FLOOR to it`)
})

t.test(`development corpus without structured data: ingredients and steps of at least ${WITHOUT_STRUCTURED_DATA_FLOOR} of ${CORPUS_CASES}`, { skip: noCorpus }, async t => {
  const { cases, passed, failures } = scoreCorpus(withoutStructuredData, false)
  t.ok(cases >= CORPUS_CASES, `${cases} cases, none dropped`)
  t.ok(passed >= WITHOUT_STRUCTURED_DATA_FLOOR, `ingredients and steps ${passed}/${cases} (${(100 * passed / cases).toFixed(1)}%); failing: ${failures.join(', ') || 'none'}`)
  if (passed > WITHOUT_STRUCTURED_DATA_FLOOR) t.comment(`${passed} is above the floor: raise WITHOUT_STRUCTURED_DATA_FLOOR to it`)
})
