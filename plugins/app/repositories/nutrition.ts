// What nutrition reads: a recipe's ingredients and nutrition field, a meal plan and its planned meals. Visibility is
// applied in the queries (recipeVisibleTo, mealPlanVisibleTo); rows are versioned by `updated_at` so the service can
// reuse what it computed for an unchanged recipe.
import fp from 'fastify-plugin'
import type { mealPlans, plannedMeals, recipes } from '../../../db/schema/index.js'
import type { Db } from '../../external/db.js'
import { mealPlanVisibleTo } from './household-access.js'
import { recipeVisibleTo } from './visibility.js'

declare module 'fastify' {
  interface FastifyInstance {
    nutritionRepository: typeof nutritionRepository
  }
}

type Recipe = typeof recipes.$inferSelect

export interface NutritionRecipeHead extends Pick<Recipe, 'id' | 'title' | 'servings'> {
  /** Changes whenever the recipe does (its `updated_at` as text, to the microsecond). */
  version: string
}

export type NutritionRecipeRow = NutritionRecipeHead & Pick<Recipe, 'ingredients' | 'nutrition'>

export type NutritionPlanRow = Pick<typeof mealPlans.$inferSelect, 'id' | 'name' | 'startDate' | 'endDate'>

export type NutritionMealRow = Pick<typeof plannedMeals.$inferSelect, 'id' | 'date' | 'mealType' | 'recipeId' | 'customTitle' | 'servings'>

export const nutritionRepository = {
  /** The recipe if the viewer may see it (anonymous: listed recipes only). */
  async recipe (db: Db, id: string, viewerId: string | null): Promise<NutritionRecipeRow | null> {
    const [row] = await db<NutritionRecipeRow[]>`
      select r.id, r.title, r.servings, r.ingredients, r.nutrition, r.updated_at::text as version
      from recipes r where r.id = ${id} and ${recipeVisibleTo(db, viewerId)}`
    return row ?? null
  },

  /** Of `ids`, the recipes the viewer may see, without their ingredients. */
  async visibleRecipes (db: Db, ids: string[], viewerId: string): Promise<NutritionRecipeHead[]> {
    if (ids.length === 0) return []
    return await db<NutritionRecipeHead[]>`
      select r.id, r.title, r.servings, r.updated_at::text as version
      from recipes r where r.id = any(${ids}::text[]) and ${recipeVisibleTo(db, viewerId)}`
  },

  /** The recipes `ids` with their ingredients (call with ids whose visibility was checked). */
  async recipeBodies (db: Db, ids: string[]): Promise<NutritionRecipeRow[]> {
    if (ids.length === 0) return []
    return await db<NutritionRecipeRow[]>`
      select r.id, r.title, r.servings, r.ingredients, r.nutrition, r.updated_at::text as version
      from recipes r where r.id = any(${ids}::text[])`
  },

  /** The meal plan if the user may see it (owner, or shared with them directly or through a family). */
  async mealPlan (db: Db, id: string, userId: string): Promise<NutritionPlanRow | null> {
    const [row] = await db<NutritionPlanRow[]>`
      select mp.id, mp.name, mp.start_date::text as start_date, mp.end_date::text as end_date
      from meal_plans mp where mp.id = ${id} and ${mealPlanVisibleTo(db, userId)}`
    return row ?? null
  },

  /** Every planned meal of the plan, by date, then as planned. */
  async plannedMeals (db: Db, mealPlanId: string): Promise<NutritionMealRow[]> {
    return await db<NutritionMealRow[]>`
      select pm.id, pm.date::text as date, pm.meal_type, pm.recipe_id, pm.custom_title, pm.servings
      from planned_meals pm where pm.meal_plan_id = ${mealPlanId}
      order by pm.date, pm.created_at, pm.id`
  }
}

export default fp(async fastify => {
  fastify.decorate('nutritionRepository', nutritionRepository)
}, { name: 'nutrition-repository' })
