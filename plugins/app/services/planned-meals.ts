// Planned meal rules: a meal in a plan is read by whoever sees the plan and added, changed or removed by its owner
// and `edit` recipients (a `view` recipient gets 403, anyone else 404); a meal outside any plan is its planner's own
// calendar entry. A meal has a recipe the planner can see (else 404 for the recipe), a custom title, or both; its
// date lies within its plan's dates. Writes to a plan's meals lock the plan, so its 1,000-meal cap and its dates hold
// under concurrency; a calendar holds at most 10,000 entries (the user's row is locked).
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { MealCalendarFull, MealPlanFull, PlannedMealNotFound, validationError } from '../../../lib/errors.js'
import { MEAL_PLAN_LIMITS, type PlannedMealChanges, type PlannedMealFilters, type PlannedMealInput, type PlannedMealView } from '../../../schemas/meal-plans.js'
import type { Db } from '../../external/db.js'
import type { MealPlanAccessRow } from '../repositories/meal-plans.js'
import type { DateRange, MealPage, PlannedMealTarget } from '../repositories/planned-meals.js'
import { dateOf, dayOf } from './meal-plans.js'

declare module 'fastify' {
  interface FastifyInstance {
    plannedMealService: ReturnType<typeof createPlannedMealService>
  }
}

/** Trimmed; blank is no title (undefined stays undefined: not changed). */
function titleOf (title: string | null | undefined): string | null | undefined {
  if (title == null) return title
  const trimmed = title.trim()
  return trimmed === '' ? null : trimmed
}

const NOTHING_PLANNED = 'customTitle: is required when there is no recipeId'

function checkWithinPlan (date: string, plan: MealPlanAccessRow): void {
  const day = dayOf('date', date)
  if (day < dayOf('startDate', plan.startDate) || day > dayOf('endDate', plan.endDate)) {
    throw validationError([`date: must lie within the meal plan's dates (${plan.startDate} to ${plan.endDate})`])
  }
}

/** The range of a list query: both ends, or one end and up to MEAL_PLAN_LIMITS.rangeDays from it; null for none. */
function rangeOf (filters: PlannedMealFilters): DateRange | null {
  if (filters.from == null && filters.to == null) return null
  const span = MEAL_PLAN_LIMITS.rangeDays
  const from = filters.from == null ? null : dayOf('from', filters.from)
  const to = filters.to == null ? null : dayOf('to', filters.to)
  if (from != null && to != null) {
    if (to < from) throw validationError(['to: must not be before from'])
    if (to - from > span) throw validationError([`to: must be at most ${span} days after from`])
    return { from: dateOf(from), to: dateOf(to) }
  }
  return from != null ? { from: dateOf(from), to: dateOf(from + span) } : { from: dateOf(to! - span), to: dateOf(to!) }
}

export function createPlannedMealService (fastify: FastifyInstance) {
  const { plannedMealsRepository: meals, mealPlansRepository: plans } = fastify
  const planService = fastify.mealPlanService

  async function get (id: string, viewerId: string, db: Db = fastify.db): Promise<PlannedMealView> {
    const meal = await meals.find(db, id, viewerId)
    if (meal == null) throw new PlannedMealNotFound()
    return meal
  }

  /**
   * The planned meal if the user may change it: their own calendar entry, or a meal of a plan they may edit (the
   * plan is locked first). 404 when they cannot see it, 403 when they only view its plan.
   */
  async function changeable (tx: Db, id: string, userId: string): Promise<{ meal: PlannedMealTarget, plan: MealPlanAccessRow | null }> {
    const meal = await meals.target(tx, id)
    if (meal == null) throw new PlannedMealNotFound()
    if (meal.mealPlanId == null) {
      if (meal.userId !== userId) throw new PlannedMealNotFound()
      return { meal, plan: null }
    }
    await plans.lock(tx, meal.mealPlanId)
    return { meal, plan: await planService.editable(tx, meal.mealPlanId, userId, () => new PlannedMealNotFound()) }
  }

  return {
    get,

    /** A page of meals: of one plan the user may see (404 otherwise), or their calendar and every plan they see. */
    async list (userId: string, filters: PlannedMealFilters, page: number, limit: number): Promise<MealPage> {
      const range = rangeOf(filters)
      if (filters.mealPlanId != null) await planService.access(fastify.db, filters.mealPlanId, userId)
      return await meals.list(fastify.db, userId, { mealPlanId: filters.mealPlanId, range }, page, limit)
    },

    async create (userId: string, input: PlannedMealInput): Promise<PlannedMealView> {
      const customTitle = titleOf(input.customTitle) ?? null
      if (input.recipeId == null && customTitle == null) throw validationError([NOTHING_PLANNED])
      dayOf('date', input.date)
      return await fastify.transaction(async tx => {
        const mealPlanId = input.mealPlanId ?? null
        if (mealPlanId != null) {
          await plans.lock(tx, mealPlanId)
          checkWithinPlan(input.date, await planService.editable(tx, mealPlanId, userId))
          const used = await meals.countInPlan(tx, mealPlanId)
          if (used >= MEAL_PLAN_LIMITS.mealsPerPlan) throw new MealPlanFull({ limit: MEAL_PLAN_LIMITS.mealsPerPlan, used })
        } else {
          await fastify.usersRepository.lock(tx, userId)
          const used = await meals.countCalendar(tx, userId)
          if (used >= MEAL_PLAN_LIMITS.calendarMeals) throw new MealCalendarFull({ limit: MEAL_PLAN_LIMITS.calendarMeals, used })
        }
        if (input.recipeId != null) await fastify.recipeService.get(input.recipeId, userId, tx)
        const id = await meals.insert(tx, {
          userId,
          mealPlanId,
          date: input.date,
          mealType: input.mealType,
          recipeId: input.recipeId ?? null,
          customTitle,
          servings: input.servings ?? null,
          notes: input.notes ?? null
        })
        return await get(id, userId, tx)
      })
    },

    /** Changes some fields; a new recipe must be one the user can see, a new date within the plan's dates. */
    async update (userId: string, id: string, changes: PlannedMealChanges): Promise<PlannedMealView> {
      const customTitle = titleOf(changes.customTitle)
      if (changes.date !== undefined) dayOf('date', changes.date)
      return await fastify.transaction(async tx => {
        const { meal, plan } = await changeable(tx, id, userId)
        if (changes.date !== undefined && plan != null) checkWithinPlan(changes.date, plan)
        const recipeId = changes.recipeId === undefined ? meal.recipeId : changes.recipeId
        if ((recipeId ?? (customTitle === undefined ? meal.customTitle : customTitle)) == null) throw validationError([NOTHING_PLANNED])
        if (recipeId != null && recipeId !== meal.recipeId) await fastify.recipeService.get(recipeId, userId, tx)
        const updated = await meals.update(tx, id, {
          date: changes.date,
          mealType: changes.mealType,
          recipeId: changes.recipeId,
          customTitle,
          servings: changes.servings,
          notes: changes.notes
        })
        if (!updated) throw new PlannedMealNotFound()
        return await get(id, userId, tx)
      })
    },

    async remove (userId: string, id: string): Promise<void> {
      await fastify.transaction(async tx => {
        await changeable(tx, id, userId)
        if (!(await meals.remove(tx, id))) throw new PlannedMealNotFound()
      })
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('plannedMealService', createPlannedMealService(fastify))
}, { name: 'planned-meal-service', dependencies: ['planned-meals-repository', 'meal-plans-repository', 'meal-plan-service', 'recipe-service', 'users-repository'] })
