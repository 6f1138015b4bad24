// URL slugs that keep every script: "Crème Brûlée" -> "creme-brulee", "寿司" -> "寿司", "🍕" -> "🍕".
import { createHash } from 'node:crypto'

const MAX_LENGTH = 80
// Letters, marks, numbers and emoji stay; every other run of characters becomes one hyphen.
const SEPARATORS = /[^\p{L}\p{M}\p{N}\p{Extended_Pictographic}\u200d]+/gu

/**
 * Latin accents fold to ASCII ("é" -> "e"), other scripts are kept. `fallback` is used when nothing is left; without
 * one, a short hash of the text keeps different texts on different slugs.
 */
export function slugOf (text: string, fallback?: string): string {
  const folded = text.normalize('NFKD').replace(/(\p{Script=Latin})\p{M}+/gu, '$1').normalize('NFC').toLowerCase()
  const slug = [...folded.replace(SEPARATORS, '-').replace(/^-+|-+$/g, '')].slice(0, MAX_LENGTH).join('').replace(/-+$/, '')
  if (slug !== '') return slug
  return fallback ?? `x-${createHash('sha256').update(text).digest('hex').slice(0, 10)}`
}
