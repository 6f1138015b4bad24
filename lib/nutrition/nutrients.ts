// The nine reported nutrients, and arithmetic on sets of them where null means unknown (never zero).

export const NUTRIENT_KEYS = ['calories', 'protein', 'fat', 'saturatedFat', 'carbohydrates', 'fiber', 'sugars', 'sodium', 'cholesterol'] as const
export type NutrientKey = typeof NUTRIENT_KEYS[number]

/** How an ingredient line was read: `ok` (matched and weighed) is the only status that counts. */
export const INGREDIENT_STATUSES = ['ok', 'unmatched', 'no-quantity', 'unit-unknown'] as const
export type IngredientStatus = typeof INGREDIENT_STATUSES[number]

/** `author`: the recipe's own nutrition field; `ingredients`: computed from the ingredient lines. */
export const NUTRIENT_SOURCES = ['author', 'ingredients'] as const
export type NutrientSource = typeof NUTRIENT_SOURCES[number]

/** Units: calories in kcal; sodium and cholesterol in mg; the rest in g. */
export type Nutrients = Record<NutrientKey, number | null>

/** Columns of foods.json rows: values per 100 g, then the portions text ("cup:125 tbsp:7.8"). */
export const FOOD_COLUMNS = ['id', 'description', ...NUTRIENT_KEYS, 'portions'] as const

/** Decimal places each nutrient is reported with. */
const DIGITS: Readonly<Record<NutrientKey, number>> = {
  calories: 0, protein: 1, fat: 1, saturatedFat: 1, carbohydrates: 1, fiber: 1, sugars: 1, sodium: 0, cholesterol: 0
}

export function unknownNutrients (): Nutrients {
  return { calories: null, protein: null, fat: null, saturatedFat: null, carbohydrates: null, fiber: null, sugars: null, sodium: null, cholesterol: null }
}

export function zeroNutrients (): Nutrients {
  return { calories: 0, protein: 0, fat: 0, saturatedFat: 0, carbohydrates: 0, fiber: 0, sugars: 0, sodium: 0, cholesterol: 0 }
}

/** Adds `factor` times `values` into `into` (in place): unknown values add nothing, and unknown + known is known. */
export function addInto (into: Nutrients, values: Nutrients, factor = 1): Nutrients {
  for (const key of NUTRIENT_KEYS) {
    const value = values[key]
    if (value == null) continue
    into[key] = (into[key] ?? 0) + value * factor
  }
  return into
}

export function scaled (values: Nutrients, factor: number): Nutrients {
  return addInto(unknownNutrients(), values, factor)
}

/** Rounded for display: kcal and mg to whole units, grams to 0.1 g. */
export function rounded (values: Nutrients): Nutrients {
  const out = unknownNutrients()
  for (const key of NUTRIENT_KEYS) {
    const value = values[key]
    if (value == null) continue
    const f = 10 ** DIGITS[key]
    out[key] = Math.round(value * f) / f
  }
  return out
}
