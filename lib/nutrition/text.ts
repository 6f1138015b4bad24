// Text normalisation shared by the food descriptions, the synonym list and ingredient names, so all three meet in the
// same form: lower case, no accents or punctuation, no parenthesised asides, singular words (lib/ingredient-vocabulary.ts's
// rule, the one grocery lists and search use).
import { singular } from '../ingredient-vocabulary.js'

const FOLDED: Readonly<Record<string, string>> = { ø: 'o', æ: 'ae', œ: 'oe', ß: 'ss', ł: 'l', đ: 'd', ı: 'i' }

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
