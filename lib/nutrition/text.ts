// Text normalisation shared by the food descriptions, the synonym list and ingredient names, so all three meet in the
// same form: lower case, no accents or punctuation, no parenthesised asides, singular words.

const FOLDED: Readonly<Record<string, string>> = { ø: 'o', æ: 'ae', œ: 'oe', ß: 'ss', ł: 'l', đ: 'd', ı: 'i' }

const SINGULAR_EXCEPTIONS: Readonly<Record<string, string>> = {
  leaves: 'leaf',
  halves: 'half',
  loaves: 'loaf',
  knives: 'knife',
  cookies: 'cookie',
  pies: 'pie',
  species: 'species',
  molasses: 'molasses',
  grits: 'grits',
  oats: 'oat',
  anchovies: 'anchovy',
  swiss: 'swiss',
  asparagus: 'asparagus',
  hummus: 'hummus',
  couscous: 'couscous',
  citrus: 'citrus',
  lettuce: 'lettuce',
  cheeses: 'cheese',
  sauces: 'sauce',
  mousses: 'mousse'
}

/** One word in its singular form (English rules; other words usually pass unchanged). */
export function singular (word: string): string {
  const known = SINGULAR_EXCEPTIONS[word]
  if (known != null) return known
  if (word.length <= 3) return word
  if (word.endsWith('ies')) return word.slice(0, -3) + 'y'
  if (word.endsWith('oes')) return word.slice(0, -2)
  if (/(ch|sh|x|z|ss)es$/.test(word)) return word.slice(0, -2)
  if (word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1)
  return word
}

/** The text without its parenthesised asides, nested ones included: "potatoes ((2 to 3) peeled)" -> "potatoes ". */
export function withoutAsides (text: string): string {
  let plain = text
  for (let inner = plain.replace(/\([^()]*\)/g, ' '); inner !== plain; inner = plain.replace(/\([^()]*\)/g, ' ')) plain = inner
  return plain
}

/** Lower case, accents and punctuation removed, parenthesised asides dropped: "Crème (35%) fraîche" -> "creme fraiche". */
export function fold (text: string): string {
  return withoutAsides(text.toLowerCase())
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[øæœßłđı]/g, c => FOLDED[c] ?? c)
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9%]+/g, ' ')
    .trim()
}

/** The words of a text, folded and singular. */
export function words (text: string): string[] {
  const folded = fold(text)
  return folded === '' ? [] : folded.split(' ').map(singular)
}
