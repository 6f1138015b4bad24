// Hostile inputs shared by the tests that hold the parsers to linear work (test/lib/sanitize.test.ts,
// test/app/sanitizer.test.ts, test/lib/recipe-text.test.ts, test/lib/recipe-extract.test.ts,
// test/lib/nutrition.test.ts) and by `npm run bench:hostile-input`, which times the same inputs.

/** Deterministic pseudo-random numbers (mulberry32), so a failure can be replayed. */
export function random (seed: number): () => number {
  return () => {
    seed = (seed + 0x6D2B79F5) | 0
    let x = Math.imul(seed ^ (seed >>> 15), seed | 1)
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61)
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

/** Pieces of markup, of attacks on it and of the tokenizer's corner cases. */
export const FRAGMENTS = [
  '<', '>', '/', '"', "'", '=', ' ', '\n', '-', '--', '-->', '--!>', '<!--', '<!', '<?', '</', ']]>', '<![CDATA[', 'x', '&',
  '&#106;', '&colon;', 'javascript:', 'java\tscript:', 'alert(1)', '<script>', '</script>', '<script', '<scr', 'ipt>',
  '<img src=x', ' onerror=alert(1)', ' ONLOAD="alert(1)"', ' onclick', '<a href="', '<a href=', '<title>', '</title>',
  '<textarea>', '</textarea>', '<style>', '</style>', '<noscript>', '</noscript>', '<xmp>', '</xmp>', '<plaintext>',
  '<svg>', '</svg>', '<math>', '<iframe>', '</iframe>', '<embed>', 'embed>', '<b>', '</b>', ' srcdoc=', ' style="x:expression(1)"'
]

export function soup (next: () => number, pieces: number, fragments = FRAGMENTS): string {
  let s = ''
  for (let i = 0; i < pieces; i++) s += fragments[Math.floor(next() * fragments.length)]
  return s
}

// Fragments that never swallow the rest of the input, so a long soup stays busy to its end.
const TAG_SOUP = FRAGMENTS.filter(f => !/^<(?:script|iframe|plaintext|title|textarea|style|noscript|xmp|!)|^<\/?$/i.test(f))

const MB = 1024 * 1024
const oneMegabyte = (unit: string): string => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB)

/**
 * 1 MB inputs for lib/sanitize.ts. Each of these once took seconds to minutes (a quadratic regex on `<script ` held the
 * event loop for 167 s).
 */
export const PATHOLOGICAL_MARKUP: Readonly<Record<string, string>> = {
  'script start tags': oneMegabyte('<script '),
  'unclosed tags': oneMegabyte('<a '),
  'comment openings': oneMegabyte('<!--'),
  'empty comments': oneMegabyte('<!---->'),
  'less-than signs': oneMegabyte('<'),
  'end-tag openings': oneMegabyte('</'),
  'bogus comments': oneMegabyte('<!x <?'),
  'CDATA openings': oneMegabyte('<![CDATA['),
  'unclosed quotes': oneMegabyte('<a href="'),
  'unclosed single quotes': oneMegabyte("<a href='"),
  'quote after quote': '<a ' + oneMegabyte('"'),
  'equals signs': '<a ' + oneMegabyte('='),
  'event handlers': '<a' + oneMegabyte(' onclick=x'),
  'nested tags': oneMegabyte('<div>'),
  'nested tags with attributes': oneMegabyte('<b title="x">'),
  'character references': oneMegabyte('&#'),
  'character references in a value': '<a href="' + oneMegabyte('&#'),
  'encoded scheme in a value': '<a href="' + oneMegabyte('&#x6A;&colon;'),
  'raw-text openings': oneMegabyte('<title>'),
  'raw-text hiding': oneMegabyte('<title><img src="</title>'),
  'unclosed raw text': oneMegabyte('<style><b>'),
  'raw-text end tags': oneMegabyte('</script'),
  'comment hiding': oneMegabyte('<!--<img src="--><img src=x onerror=alert(1)//">'),
  'assembling pieces': oneMegabyte('<scr<script></script>ipt>'),
  'nested assembly': oneMegabyte('<<<<<<<<<embed>embed>embed>embed>embed>embed>embed>embed>embed>'),
  'comment assembly': oneMegabyte('<!----<embed>>-->'),
  'script elements': oneMegabyte('<script></script>'),
  'letters after less-than': oneMegabyte('<a<a<a<a'),
  'random tag soup': soup(random(7), 200_000, TAG_SOUP).slice(0, MB)
}

/** Units of the ~1 MB adversarial request bodies (test/app/sanitizer.test.ts). */
export const ADVERSARIAL_BODY_UNITS = ['<script ', '<a href="', '<!--', '<title><img src="</title>', '<scr<script></script>ipt>']

/** A title of `unit` repeated to just under the 1 MiB body limit once JSON-escaped. */
export const adversarialTitle = (unit: string): string =>
  unit.repeat(Math.floor(1_000_000 / (JSON.stringify(unit).length - 2)))

/** Huge and hostile texts of `size` characters (a few with a short prefix) for lib/recipe-import/text.ts. */
export function hostileTexts (size: number): Record<string, string> {
  const fill = (unit: string) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size)
  const recipe = 'Soup\nIngredients\n- 2 carrots\n- 1 onion, chopped\nMethod\n1. Chop everything and simmer for 20 minutes.\n'
  return {
    letters: fill('a'),
    digits: fill('1'),
    words: fill('lorem ipsum '),
    'one long sentence line': fill('Stir the soup. '),
    pipes: fill('|'),
    parentheses: fill('('),
    'open parentheses with words': `1 cup ${fill('(flour ')}`,
    colons: fill(':'),
    'hostile ingredient lines': `Ingredients\n${fill(`1 cup ${'('.repeat(490)}\n`)}`,
    'hostile ingredient words': `Ingredients\n${fill(`1 ${'cup of ( '.repeat(60)}\n`)}`,
    'hostile ingredient commas': `Ingredients\n${fill(`½ ${'1/2, '.repeat(120)}\n`)}`,
    'hyphenated lines': fill('ab-\n'),
    'short lines': fill('a\n'),
    'blank lines': fill(' \n'),
    bullets: fill('- '),
    'bullet lines': fill('- 1 cup flour\n'),
    fractions: fill('½'),
    'numbered lines': fill('1. a\n'),
    'lone numbers': fill('1\n'),
    headings: fill('Ingredients\n'),
    'time labels': fill('Prep time: 1 hour 1 hour '),
    'serves labels': fill('Serves 4 people '),
    'makes words': `Makes 1${fill(' cookies')}`,
    'all caps': fill('FOR THE SAUCE '),
    'caps lines': fill('FOR THE SAUCE\n'),
    'metadata lines': fill('Prep: 5 min | Cook: 10 min\n'),
    'nutrition lines': fill('Calories: 100 kcal | Fat: 5 g\n'),
    'continued steps': `Soup\n1 leek\n1. Stir${fill(' and\nstir')}`,
    'markdown bold': fill('**'),
    'mixed unicode': fill('ﬁ\u00a0\u200b—•½'),
    'repeated recipes': fill(recipe)
  }
}

/** A page whose only content is `data` as JSON-LD (a string is put in as it is), with `extra` markup in its head. */
export const ld = (data: unknown, extra = ''): string =>
  `<html lang="en"><head><script type="application/ld+json">${typeof data === 'string' ? data : JSON.stringify(data)}</script>${extra}</head><body></body></html>`

/** A small schema.org Recipe, with `over` replacing or adding fields. */
export const recipe = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  '@context': 'https://schema.org',
  '@type': 'Recipe',
  name: 'Fluffy Pancakes',
  recipeIngredient: ['2 cups flour', '1 egg'],
  recipeInstructions: [{ '@type': 'HowToStep', text: 'Mix.' }, { '@type': 'HowToStep', text: 'Fry.' }],
  ...over
})

/**
 * Hostile pages of about `size` characters for lib/recipe-import/extract, each the shape of a page that once took
 * minutes (at 1,000,000: the pages the extraction tests have always used).
 */
export function hostilePages (size: number): Record<string, string> {
  return {
    'deep nesting': '<html><body>' + '<div>'.repeat(size / 5) + '<h2>Ingredients</h2><ul><li>1 egg</li></ul>' + '</div>'.repeat(size / 5),
    'closing tags that close nothing': '<div>'.repeat(size / 20) + '</span>'.repeat(size * 3 / 10),
    'unclosed tags': '<p>' + '<p<a<b '.repeat(size / 2),
    'tag-like text': ld(recipe({ recipeInstructions: '<' + ' '.repeat(2 * size) + 'x' })),
    'many list items': '<h2>Ingredients</h2><ul>' + '<li>1 cup flour</li>'.repeat(size / 8) + '</ul>',
    'many headings': '<h2>Ingredients</h2><p>1 cup</p>'.repeat(size / 10),
    'prose-like lines': '<h2>Ingredients</h2><ul>' + `<li>${'A. '.repeat(2000)}</li>`.repeat(size / 5000) + '</ul>',
    entities: '<h2>Ingredients</h2><ul><li>' + '&amp;amp;'.repeat(size / 3) + '</li></ul>',
    'huge JSON-LD string': ld(recipe({ recipeIngredient: ['a'.repeat(4 * size)] })),
    'unterminated JSON-LD': '<script type="application/ld+json">' + '{"a":['.repeat(size / 3) + '</script>',
    'long duration': ld(recipe({ totalTime: '1 h '.repeat(size) })),
    'lines slow to parse': ld(recipe({ recipeIngredient: Array.from({ length: size / 5000 }, () => '½'.repeat(1000)) })),
    // The same lines longer (the ingredient parser's own time grows with the square of a line's length).
    'long lines slow to parse': ld(recipe({ recipeIngredient: Array.from({ length: 20 }, () => '½'.repeat(size / 250)) }))
  }
}

/** Ingredient names no synonym covers, each new to the matcher's memo (`prefix` tells runs apart). */
export const newFoodNames = (count: number, prefix = 'brand'): string[] =>
  Array.from({ length: count }, (_, i) => `${prefix}${i} roasted ${['red pepper', 'chicken', 'carrot', 'almond'][i % 4]} extra${i}`)
