// Nutrition (/api/nutrition): a recipe's nutrients per serving and in total, and a meal plan's per day, computed from
// the parsed ingredient lines against USDA SR28 (lib/nutrition), with the author's own figures taking precedence.
import { Type, type Static } from 'typebox'
import { MEAL_TYPES } from '../db/schema/households.js'
import { INGREDIENT_STATUSES, NUTRIENT_SOURCES } from '../lib/nutrition/nutrients.js'
import { Id, Nullable, ref, StringEnum } from './common.js'

const amount = (unit: string) => Nullable(Type.Number({ minimum: 0, description: unit }))

export const NutritionValues = Type.Object({
  calories: amount('kcal'),
  protein: amount('g'),
  fat: amount('g'),
  saturatedFat: amount('g'),
  carbohydrates: amount('g'),
  fiber: amount('g'),
  sugars: amount('g'),
  sodium: amount('mg'),
  cholesterol: amount('mg')
}, {
  $id: 'NutritionValues',
  description: 'Energy in kcal, sodium and cholesterol in mg, the rest in grams (kcal and mg rounded to whole units, ' +
    'grams to 0.1). null: unknown (neither the author nor any weighed ingredient gives it).'
})
export type NutritionValuesView = Static<typeof NutritionValues>

const source = Nullable(StringEnum(NUTRIENT_SOURCES))

export const NutritionSources = Type.Object({
  calories: source,
  protein: source,
  fat: source,
  saturatedFat: source,
  carbohydrates: source,
  fiber: source,
  sugars: source,
  sodium: source,
  cholesterol: source
}, {
  $id: 'NutritionSources',
  description: 'Where each figure comes from: `author` (the recipe\'s own `nutrition` field, read as per serving; it ' +
    'takes precedence), `ingredients` (computed from the ingredient lines), or null (unknown)'
})

export const IngredientNutrition = Type.Object({
  text: Type.String({ description: 'The ingredient line as written' }),
  matched: Nullable(Type.Object({
    foodId: Type.String({ description: 'USDA SR28 NDB number, 5 digits' }),
    description: Type.String({ description: 'The USDA food description' })
  }), { description: 'The food the line was matched to; null when none was found' }),
  grams: Nullable(Type.Number({ minimum: 0, description: 'The line\'s weight in grams (0.1 g), when its quantity and unit convert' })),
  status: StringEnum(INGREDIENT_STATUSES, {
    description: '`ok`: matched and weighed, counted in the totals; `unmatched`: no food found; `no-quantity`: no ' +
      'amount ("salt to taste"); `unit-unknown`: a unit with no known weight for that food ("1 bunch", "1 can" of ' +
      'something sold in many sizes). Only `ok` lines count.'
  })
}, { $id: 'IngredientNutrition', description: 'How one ingredient line was read' })

export const RecipeNutrition = Type.Object({
  recipeId: Id,
  title: Type.String(),
  servings: Nullable(Type.Integer({ description: 'The recipe\'s servings; null when it gives none' })),
  perServingIsWholeRecipe: Type.Boolean({ description: 'true when the recipe gives no servings: `perServing` is then the whole recipe' }),
  perServing: ref(NutritionValues),
  total: ref(NutritionValues),
  sources: ref(NutritionSources),
  coverage: Type.Object({
    lines: Type.Integer({ minimum: 0, description: 'Ingredient lines' }),
    matched: Type.Integer({ minimum: 0, description: 'Lines matched to a food' }),
    converted: Type.Integer({ minimum: 0, description: 'Lines matched and weighed (status `ok`): what the computed figures add up' })
  }, { description: 'How much of the ingredient list the computed figures cover' }),
  ingredients: Type.Array(ref(IngredientNutrition))
}, {
  $id: 'RecipeNutrition',
  description: 'A recipe\'s nutrition. Computed figures are the sum of the weighed ingredient lines (USDA SR28 values ' +
    'per 100 g), divided by servings for `perServing`; the author\'s figures, per serving, are multiplied by servings ' +
    'for `total`.'
})
export type RecipeNutritionView = Static<typeof RecipeNutrition>

export const PLANNED_MEAL_STATUSES = ['counted', 'custom', 'not-visible'] as const

export const PlannedMealNutrition = Type.Object({
  plannedMealId: Id,
  mealType: StringEnum(MEAL_TYPES),
  recipeId: Nullable(Id),
  title: Nullable(Type.String({ description: 'The recipe\'s title, else the meal\'s custom title' })),
  servings: Nullable(Type.Integer({ description: 'Planned servings; null counts as one serving' })),
  status: StringEnum(PLANNED_MEAL_STATUSES, {
    description: '`counted`: its recipe\'s nutrition times planned servings over the recipe\'s servings; `custom`: a ' +
      'custom title without a recipe, which adds nothing; `not-visible`: a recipe you can no longer see, skipped'
  }),
  nutrients: Nullable(ref(NutritionValues), { description: 'What the meal adds; null unless `counted`' })
}, { $id: 'PlannedMealNutrition', description: 'One planned meal of the day' })
export type PlannedMealNutritionView = Static<typeof PlannedMealNutrition>

export const DayNutrition = Type.Object({
  date: Type.String({ format: 'date', description: 'YYYY-MM-DD' }),
  meals: Type.Array(ref(PlannedMealNutrition), { description: `By meal type (${MEAL_TYPES.join(', ')}), then as planned` }),
  total: ref(NutritionValues)
}, { $id: 'DayNutrition', description: 'One day of the plan: its meals and what the counted ones add up to (zero for a day without any)' })
export type DayNutritionView = Static<typeof DayNutrition>

export const MealPlanNutrition = Type.Object({
  mealPlanId: Id,
  name: Type.String(),
  startDate: Type.String({ format: 'date' }),
  endDate: Type.String({ format: 'date' }),
  days: Type.Array(ref(DayNutrition), { description: 'Every date of the plan, startDate to endDate' }),
  total: ref(NutritionValues),
  meals: Type.Object({
    planned: Type.Integer({ minimum: 0 }),
    counted: Type.Integer({ minimum: 0 }),
    custom: Type.Integer({ minimum: 0 }),
    notVisible: Type.Integer({ minimum: 0 })
  }, { description: 'Planned meals by status' })
}, { $id: 'MealPlanNutrition', description: 'A meal plan\'s nutrition per day and in total' })
export type MealPlanNutritionView = Static<typeof MealPlanNutrition>

export const MealPlanParams = Type.Object({ mealPlanId: Id })
