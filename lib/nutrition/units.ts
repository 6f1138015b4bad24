// The household measures the food data keeps (portion keys) with their gram weights. What a recipe line's unit means
// (mass, volume, count or container, and its size) is lib/ingredient-vocabulary.ts's, shared with grocery lists.
import { singular } from '../ingredient-vocabulary.js'

/** Household measures kept per food in foods.json, in the order they are written. */
export const PORTION_KEYS = [
  'cup', 'tbsp', 'tsp', 'floz', 'pint', 'quart', 'gallon',
  'medium', 'large', 'small', 'xlarge', 'jumbo',
  'piece', 'block', 'chop', 'slice', 'clove', 'stick', 'pat', 'can', 'head', 'bunch', 'ear', 'sprig', 'leaf', 'stalk', 'spear', 'pod',
  'bulb', 'fillet', 'breast', 'thigh', 'drumstick', 'wing', 'link', 'strip', 'wedge', 'fruit', 'each', 'item', 'unit',
  'sheet', 'tortilla', 'packet'
] as const
const PORTION_KEY_SET = new Set<string>(PORTION_KEYS)

/** SR28 measure words that are not their portion key once singular. */
const PORTION_WORDS: Readonly<Record<string, string>> = { tablespoon: 'tbsp', teaspoon: 'tsp' }

/**
 * The portion key of an SR28 measure (`unit` column of portions.csv): `cup`, `tablespoon` -> `tbsp`, `fl oz` -> `floz`,
 * `large whole` -> `large`, `potato medium` -> `medium`, `cloves` -> `clove`; null for measures not kept (oz, lb,
 * serving, package...).
 */
export function portionKey (srUnit: string): string | null {
  const unit = srUnit.trim().toLowerCase()
  if (unit.startsWith('fl oz')) return 'floz'
  if (unit.startsWith('extra large')) return 'xlarge'
  if (unit.startsWith('extra small')) return null
  const words = unit.split(/\s+/)
  const word = singular(words[0])
  const first = Object.hasOwn(PORTION_WORDS, word) ? PORTION_WORDS[word] : word
  if (PORTION_KEY_SET.has(first)) return first
  const size = words.find(w => w === 'large' || w === 'medium' || w === 'small')
  return size ?? null
}
