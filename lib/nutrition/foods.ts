// The food table (lib/nutrition/foods.json, derived from USDA SR28 by scripts/nutrition-data.ts), read and decoded once,
// on first use (start-up does not pay for it; no request after the first reads a file). The type import below makes
// the JSON part of the program, so tsc copies it into dist beside this module.
import { createRequire } from 'node:module'
import { MEASURE_OVERRIDES } from './measures.js'
import { NUTRIENT_KEYS, unknownNutrients, type Nutrients } from './nutrients.js'

export interface Food {
  /** SR NDB number, 5 characters (`01123`). */
  id: string
  description: string
  /** Per 100 g of edible portion; null where SR28 has no value. */
  per100g: Nutrients
  /** Grams in one household measure, by portion key (`cup`, `tbsp`, `large`, `clove`...), measures.ts's included. */
  portions: ReadonlyMap<string, number>
}

type FoodsJson = typeof import('./foods.json', { with: { type: 'json' } })

let decoded: { list: readonly Food[], byId: ReadonlyMap<string, Food> } | null = null

function decodeRow (row: ReadonlyArray<string | number | null>): Food {
  const [id, description] = row
  const portionsText = row[2 + NUTRIENT_KEYS.length]
  if (typeof id !== 'string' || typeof description !== 'string' || typeof portionsText !== 'string') throw new Error(`foods.json: bad row ${JSON.stringify(row)}`)
  const per100g = unknownNutrients()
  NUTRIENT_KEYS.forEach((key, i) => {
    const value = row[2 + i]
    if (typeof value === 'number') per100g[key] = value
  })
  const portions = new Map<string, number>()
  for (const entry of portionsText.split(' ')) {
    const [key, grams] = entry.split(':')
    if (grams != null) portions.set(key, Number(grams))
  }
  for (const [key, grams] of Object.entries(MEASURE_OVERRIDES.get(id) ?? {})) portions.set(key, grams)
  return { id, description, per100g, portions }
}

function table () {
  if (decoded == null) {
    const data: FoodsJson = createRequire(import.meta.url)('./foods.json')
    const list = data.foods.map(decodeRow)
    decoded = { list, byId: new Map(list.map(food => [food.id, food])) }
  }
  return decoded
}

export function allFoods (): readonly Food[] {
  return table().list
}

export function foodById (id: string): Food | undefined {
  return table().byId.get(id)
}
