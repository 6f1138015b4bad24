// A recipe's nutrition: the sum of its ingredient lines, per serving and in total, with the author's own figures
// (recipes.nutrition, per serving as schema.org NutritionInformation and recipe sites give them) taking precedence
// nutrient by nutrient.
import { ingredientLine, ingredientNutrition, type IngredientNutrition } from './ingredient.js'
import { addInto, NUTRIENT_KEYS, scaled, unknownNutrients, type NutrientKey, type Nutrients, type NutrientSource } from './nutrients.js'

/** Where each figure comes from; null: unknown. */
export type NutrientSources = Record<NutrientKey, NutrientSource | null>

export interface RecipeNutritionInput {
  ingredients: readonly unknown[]
  servings: number | null
  nutrition: Readonly<Record<string, unknown>> | null
}

export interface RecipeNutrition {
  servings: number | null
  /** The recipe gives no servings: a serving is the whole recipe. */
  perServingIsWholeRecipe: boolean
  total: Nutrients
  perServing: Nutrients
  sources: NutrientSources
  ingredients: IngredientNutrition[]
  coverage: { lines: number, matched: number, converted: number }
}

/** Spellings of the author's keys (ours, schema.org's `fatContent`..., common label words), folded to letters. */
const AUTHOR_KEYS: Readonly<Record<string, NutrientKey>> = (() => {
  const table: Record<NutrientKey, string[]> = {
    calories: ['calories', 'calorie', 'kcal', 'energy', 'energykcal', 'cal'],
    protein: ['protein', 'proteins', 'proteincontent'],
    fat: ['fat', 'fatcontent', 'totalfat', 'totalfatcontent'],
    saturatedFat: ['saturatedfat', 'saturatedfatcontent', 'satfat', 'saturates'],
    carbohydrates: ['carbohydrates', 'carbohydrate', 'carbohydratecontent', 'carbs', 'carb', 'totalcarbohydrate', 'totalcarbohydrates'],
    fiber: ['fiber', 'fibre', 'fibercontent', 'fibrecontent', 'dietaryfiber', 'dietaryfibre'],
    sugars: ['sugar', 'sugars', 'sugarcontent', 'sugarscontent', 'totalsugars'],
    sodium: ['sodium', 'sodiumcontent'],
    cholesterol: ['cholesterol', 'cholesterolcontent']
  }
  const out: Record<string, NutrientKey> = {}
  for (const key of NUTRIENT_KEYS) for (const spelling of table[key]) out[spelling] = key
  return out
})()

const MILLIGRAM_KEYS = new Set<NutrientKey>(['sodium', 'cholesterol'])

/** One author figure in our unit: 420, "420 kcal", "1,5 g", "120 mg", "1760 kJ"; null when it is not a number. */
function authorValue (key: NutrientKey, value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : null
  if (typeof value !== 'string') return null
  const found = /(\d+(?:[.,]\d+)?)\s*(kcal|kj|mg|g|cal|calories)?\b/i.exec(value)
  if (found == null) return null
  const n = Number(found[1].replace(',', '.'))
  const unit = found[2]?.toLowerCase()
  if (key === 'calories') return unit === 'kj' ? n / 4.184 : n
  if (MILLIGRAM_KEYS.has(key)) return unit === 'g' ? n * 1000 : n
  return unit === 'mg' ? n / 1000 : n
}

/** The author's per-serving figures, by nutrient (unknown keys and values that are not numbers are ignored). */
export function authorNutrition (nutrition: Readonly<Record<string, unknown>> | null): Nutrients {
  const out = unknownNutrients()
  if (nutrition == null) return out
  for (const [name, value] of Object.entries(nutrition)) {
    const key = AUTHOR_KEYS[name.toLowerCase().replace(/[^a-z]/g, '')]
    if (key == null || out[key] != null) continue
    out[key] = authorValue(key, value)
  }
  return out
}

/** Exact (unrounded) figures; round them for display with `rounded` (nutrients.ts). */
export function recipeNutrition (recipe: RecipeNutritionInput): RecipeNutrition {
  const ingredients = recipe.ingredients.flatMap(value => {
    const line = ingredientLine(value)
    return line == null ? [] : [ingredientNutrition(line)]
  })
  const computed = unknownNutrients()
  for (const item of ingredients) if (item.nutrients != null) addInto(computed, item.nutrients)
  const servings = recipe.servings != null && recipe.servings > 0 ? recipe.servings : null
  const divisor = servings ?? 1
  const author = authorNutrition(recipe.nutrition)
  const total = unknownNutrients()
  const perServing = unknownNutrients()
  const sources: NutrientSources = { calories: null, protein: null, fat: null, saturatedFat: null, carbohydrates: null, fiber: null, sugars: null, sodium: null, cholesterol: null }
  for (const key of NUTRIENT_KEYS) {
    const own = author[key]
    const sum = computed[key]
    if (own != null) {
      perServing[key] = own
      total[key] = own * divisor
      sources[key] = 'author'
    } else if (sum != null) {
      total[key] = sum
      perServing[key] = sum / divisor
      sources[key] = 'ingredients'
    }
  }
  return {
    servings,
    perServingIsWholeRecipe: servings == null,
    total,
    perServing,
    sources,
    ingredients,
    coverage: {
      lines: ingredients.length,
      matched: ingredients.filter(i => i.matched != null).length,
      converted: ingredients.filter(i => i.status === 'ok').length
    }
  }
}

/**
 * How much of a recipe a planned meal is: its planned servings over the recipe's servings. No planned servings: one
 * serving. A recipe without servings is one serving in all.
 */
export function mealShare (plannedServings: number | null, recipeServings: number | null): number {
  return (plannedServings ?? 1) / (recipeServings != null && recipeServings > 0 ? recipeServings : 1)
}

/** A planned meal's nutrients: the recipe's total times its share. */
export function mealNutrients (recipe: Pick<RecipeNutrition, 'total' | 'servings'>, plannedServings: number | null): Nutrients {
  return scaled(recipe.total, mealShare(plannedServings, recipe.servings))
}
