// Nutrition rules: who may see what (a recipe or plan the caller may not see is 404), how a recipe's figures are
// computed (lib/nutrition: ingredient lines matched to USDA SR28 foods, the author's figures first), and how a meal
// plan adds up (each planned meal is its recipe's total times planned servings over the recipe's servings; no planned
// servings is one serving; custom meals add nothing; recipes the caller can no longer see are skipped). What a recipe
// computes to is kept in memory per recipe version, so a plan reuses it and a request never re-reads the food data.
import { setImmediate as setImmediatePromise } from 'node:timers/promises'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { LRUCache } from 'lru-cache'
import { MEAL_TYPES } from '../../../db/schema/index.js'
import { MealPlanNotFound, RecipeNotFound } from '../../../lib/errors.js'
import { addInto, rounded, unknownNutrients, zeroNutrients, type Nutrients } from '../../../lib/nutrition/nutrients.js'
import { mealNutrients, recipeNutrition, type RecipeNutrition } from '../../../lib/nutrition/recipe.js'
import type {
  DayNutritionView, MealPlanNutritionView, PlannedMealNutritionView, RecipeNutritionView
} from '../../../schemas/nutrition.js'
import type { NutritionMealRow, NutritionRecipeHead, NutritionRecipeRow } from '../repositories/nutrition.js'

declare module 'fastify' {
  interface FastifyInstance {
    nutritionService: ReturnType<typeof createNutritionService>
  }
}

/** Computed recipes kept in memory (keyed by id and version: an edited recipe is computed again). */
const CACHED_RECIPES = 2000

const DAY_MS = 24 * 60 * 60 * 1000

/** Every date from `start` to `end` (YYYY-MM-DD, inclusive). */
function datesBetween (start: string, end: string): string[] {
  const out: string[] = []
  for (let t = Date.parse(`${start}T00:00:00Z`), last = Date.parse(`${end}T00:00:00Z`); t <= last; t += DAY_MS) {
    out.push(new Date(t).toISOString().slice(0, 10))
  }
  return out
}

const mealOrder = (meal: NutritionMealRow) => MEAL_TYPES.indexOf(meal.mealType)

/** A sum of meals: unknown where no counted meal knows the nutrient, zero when nothing was counted. */
function summed (meals: Nutrients[]): Nutrients {
  if (meals.length === 0) return zeroNutrients()
  const total = unknownNutrients()
  for (const meal of meals) addInto(total, meal)
  return rounded(total)
}

const roundGrams = (grams: number | null) => grams == null ? null : Math.round(grams * 10) / 10

function recipeView (row: Pick<NutritionRecipeRow, 'id' | 'title'>, computed: RecipeNutrition): RecipeNutritionView {
  return {
    recipeId: row.id,
    title: row.title,
    servings: computed.servings,
    perServingIsWholeRecipe: computed.perServingIsWholeRecipe,
    perServing: rounded(computed.perServing),
    total: rounded(computed.total),
    sources: computed.sources,
    coverage: computed.coverage,
    ingredients: computed.ingredients.map(({ text, matched, grams, status }) => ({ text, matched, grams: roundGrams(grams), status }))
  }
}

/** Recipes computed between two turns of the event loop (each takes well under a millisecond once matched). */
const YIELD_EVERY = 20

export function createNutritionService (fastify: FastifyInstance) {
  const { nutritionRepository: repository } = fastify
  const computedRecipes = new LRUCache<string, RecipeNutrition>({ max: CACHED_RECIPES })

  const cacheKey = (recipe: NutritionRecipeHead) => `${recipe.id}@${recipe.version}`

  function computed (recipe: NutritionRecipeRow): RecipeNutrition {
    const key = cacheKey(recipe)
    let found = computedRecipes.get(key)
    if (found == null) {
      found = recipeNutrition({ ingredients: recipe.ingredients, servings: recipe.servings, nutrition: recipe.nutrition })
      computedRecipes.set(key, found)
    }
    return found
  }

  /** The computed nutrition of each recipe, reading the ingredients only of those not computed at their version. */
  async function computedAll (recipes: NutritionRecipeHead[]): Promise<Map<string, RecipeNutrition>> {
    const out = new Map<string, RecipeNutrition>()
    const missing: string[] = []
    for (const recipe of recipes) {
      const found = computedRecipes.get(cacheKey(recipe))
      if (found == null) missing.push(recipe.id)
      else out.set(recipe.id, found)
    }
    for (const [i, row] of (await repository.recipeBodies(fastify.db, missing)).entries()) {
      // A plan of many recipes not yet computed: let other requests through between batches.
      if (i > 0 && i % YIELD_EVERY === 0) await setImmediatePromise()
      out.set(row.id, computed(row))
    }
    return out
  }

  function mealView (meal: NutritionMealRow, recipe: NutritionRecipeHead | undefined, nutrients: Nutrients | null): PlannedMealNutritionView {
    const base = { plannedMealId: meal.id, mealType: meal.mealType, recipeId: meal.recipeId, servings: meal.servings }
    if (meal.recipeId == null) return { ...base, title: meal.customTitle, status: 'custom', nutrients: null }
    if (recipe == null || nutrients == null) return { ...base, title: meal.customTitle, status: 'not-visible', nutrients: null }
    return { ...base, title: recipe.title, status: 'counted', nutrients: rounded(nutrients) }
  }

  return {
    /** A recipe's nutrition per serving and in total, as `viewerId` (null: anonymous) may see it. */
    async recipe (recipeId: string, viewerId: string | null): Promise<RecipeNutritionView> {
      const row = await repository.recipe(fastify.db, recipeId, viewerId)
      if (row == null) throw new RecipeNotFound()
      return recipeView(row, computed(row))
    },

    /** A meal plan's nutrition per day and in total, for a user who may see the plan. */
    async mealPlan (mealPlanId: string, userId: string): Promise<MealPlanNutritionView> {
      const plan = await repository.mealPlan(fastify.db, mealPlanId, userId)
      if (plan == null) throw new MealPlanNotFound()
      const meals = await repository.plannedMeals(fastify.db, plan.id)
      const recipeIds = [...new Set(meals.flatMap(meal => meal.recipeId == null ? [] : [meal.recipeId]))]
      const visible = new Map((await repository.visibleRecipes(fastify.db, recipeIds, userId)).map(r => [r.id, r]))
      const nutrition = await computedAll([...visible.values()])

      // Every date of the plan; a meal dated outside it (possible only if the dates were changed around it) gets its own day.
      const days = new Map<string, { meals: PlannedMealNutritionView[], counted: Nutrients[] }>()
      for (const date of datesBetween(plan.startDate, plan.endDate)) days.set(date, { meals: [], counted: [] })
      const counted: Nutrients[] = []
      const sorted = meals.map((meal, i) => ({ meal, i }))
        .sort((a, b) => a.meal.date.localeCompare(b.meal.date) || mealOrder(a.meal) - mealOrder(b.meal) || a.i - b.i)
      for (const { meal } of sorted) {
        let day = days.get(meal.date)
        if (day == null) days.set(meal.date, day = { meals: [], counted: [] })
        const recipe = meal.recipeId == null ? undefined : visible.get(meal.recipeId)
        const computedRecipe = recipe == null ? undefined : nutrition.get(recipe.id)
        const nutrients = computedRecipe == null ? null : mealNutrients(computedRecipe, meal.servings)
        const view = mealView(meal, computedRecipe == null ? undefined : recipe, nutrients)
        day.meals.push(view)
        if (view.status === 'counted' && nutrients != null) {
          day.counted.push(nutrients)
          counted.push(nutrients)
        }
      }
      const dayViews: DayNutritionView[] = [...days]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([date, day]) => ({ date, meals: day.meals, total: summed(day.counted) }))
      const count = (status: PlannedMealNutritionView['status']) => dayViews.reduce((n, d) => n + d.meals.filter(m => m.status === status).length, 0)
      return {
        mealPlanId: plan.id,
        name: plan.name,
        startDate: plan.startDate,
        endDate: plan.endDate,
        days: dayViews,
        total: summed(counted),
        meals: { planned: meals.length, counted: count('counted'), custom: count('custom'), notVisible: count('not-visible') }
      }
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('nutritionService', createNutritionService(fastify))
}, {
  name: 'nutrition-service',
  dependencies: ['nutrition-repository']
})
