// The page the `import-preview` scenario sends as captured HTML (nothing is fetched): a typical recipe blog page of
// about 90 kB (navigation, a long story, comments and scripts around a schema.org Recipe in JSON-LD), the same bytes
// every time so runs compare.
export const IMPORT_PAGE_URL = 'https://blog.example.com/2024/05/weeknight-chicken-curry/?utm_source=bench'
export const IMPORT_PAGE_TITLE = 'Weeknight Chicken Curry'
export const IMPORT_PAGE_INGREDIENTS = 14

const recipe = {
  '@context': 'https://schema.org',
  '@graph': [
    { '@type': 'WebSite', name: 'Example Kitchen', url: 'https://blog.example.com/' },
    { '@type': 'BreadcrumbList', itemListElement: [{ '@type': 'ListItem', position: 1, name: 'Curries' }] },
    {
      '@type': 'Recipe',
      name: IMPORT_PAGE_TITLE,
      description: 'A fragrant curry on the table in 40 minutes, with pantry spices and &amp; a splash of cream.',
      image: ['https://blog.example.com/img/curry-1x1.jpg', 'https://blog.example.com/img/curry-16x9.jpg'],
      author: { '@type': 'Person', name: 'Sam Cook' },
      recipeYield: ['4', '4 servings'],
      prepTime: 'PT15M',
      cookTime: 'PT25M',
      recipeCuisine: 'Indian',
      recipeCategory: 'Dinner',
      keywords: 'curry, chicken, weeknight',
      nutrition: { '@type': 'NutritionInformation', calories: '420 kcal', proteinContent: '32 g' },
      recipeIngredient: [
        '2 tbsp vegetable oil', '1 large onion, finely chopped', '3 cloves garlic, minced', '1 tbsp grated ginger',
        '2 tsp ground cumin', '2 tsp ground coriander', '1 tsp turmeric', '1/2 tsp chili powder',
        '600 g boneless chicken thighs, cut into pieces', '400 g canned chopped tomatoes', '200 ml coconut milk',
        '1 tsp salt', '1 handful fresh coriander, chopped', '2 cups cooked basmati rice, to serve'
      ],
      recipeInstructions: [
        {
          '@type': 'HowToSection',
          name: 'Base',
          itemListElement: [
            { '@type': 'HowToStep', text: 'Heat the oil in a large pan and fry the onion for 8 minutes until golden.' },
            { '@type': 'HowToStep', text: 'Add the garlic and ginger and cook for 1 minute.' },
            { '@type': 'HowToStep', text: 'Stir in the spices and cook for 30 seconds until fragrant.' }
          ]
        },
        {
          '@type': 'HowToSection',
          name: 'Curry',
          itemListElement: [
            { '@type': 'HowToStep', text: 'Add the chicken and brown it on all sides.' },
            { '@type': 'HowToStep', text: 'Pour in the tomatoes and simmer for 15 minutes.' },
            { '@type': 'HowToStep', text: 'Stir in the coconut milk and salt and simmer 5 minutes more.' },
            { '@type': 'HowToStep', text: 'Scatter with coriander and serve with the rice.' }
          ]
        }
      ]
    }
  ]
}

const paragraph = (i: number) => `<p>Story paragraph ${i}: the evenings got busy, so this curry became our standby &mdash; ` +
  'quick, forgiving, and better the next day. Toast the spices, do not rush the onions, and taste as you go.</p>'
const comment = (i: number) => `<li class="comment"><div class="author">Reader ${i}</div><div class="body">Made this ${i % 5 + 1} times, ` +
  `we add spinach at the end. <a href="/comments/${i}">Reply</a></div></li>`

export function importPage (): string {
  return '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Weeknight Chicken Curry | Example Kitchen</title>' +
    '<meta property="og:title" content="Weeknight Chicken Curry"><meta property="og:image" content="https://blog.example.com/img/curry-16x9.jpg">' +
    `<script>window.__analytics = ${JSON.stringify({ events: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `evt${i}` })) })}</script>` +
    `<script type="application/ld+json">${JSON.stringify(recipe)}</script></head><body>` +
    `<nav><ul>${Array.from({ length: 60 }, (_, i) => `<li><a href="/category/${i}">Category ${i}</a></li>`).join('')}</ul></nav>` +
    `<article><h1>${IMPORT_PAGE_TITLE}</h1>${Array.from({ length: 120 }, (_, i) => paragraph(i)).join('')}` +
    '<div class="recipe-card"><h2>Ingredients</h2><ul>' +
    recipe['@graph'][2].recipeIngredient!.map(line => `<li>${line}</li>`).join('') + '</ul></div></article>' +
    `<section id="comments"><ol>${Array.from({ length: 150 }, (_, i) => comment(i)).join('')}</ol></section>` +
    `<footer>${Array.from({ length: 40 }, (_, i) => `<a href="/page/${i}">Footer link ${i}</a>`).join(' ')}</footer></body></html>`
}
