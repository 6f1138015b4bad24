// Meal plan rules: a plan is its owner's to change, delete and share (a recipient who can see it gets 403, anyone
// else 404); recipients see it with their access (`edit` or `view`). Dates are real calendar dates, the end not before
// the start and at most 366 days after it; a plan's planned meals always lie within its dates, so changing the dates
// locks the plan and refuses (409) dates that would leave meals outside. A user owns at most 1,000 plans.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import {
  HttpError, MealPlanLimitReached, MealPlanNotFound, MealPlanReadOnly, mealsOutsidePlanDates, NotMealPlanOwner, validationError
} from '../../../lib/errors.js'
import {
  MEAL_PLAN_LIMITS, type MealPlanChanges, type MealPlanDetailView, type MealPlanInput, type MealPlanScope, type MealPlanView
} from '../../../schemas/meal-plans.js'
import type { Db } from '../../external/db.js'
import type { MealPlanAccessRow } from '../repositories/meal-plans.js'
import type { Page } from '../repositories/recipes.js'

declare module 'fastify' {
  interface FastifyInstance {
    mealPlanService: ReturnType<typeof createMealPlanService>
  }
}

const DAY_MS = 24 * 60 * 60 * 1000

/** The day number (days since 1970-01-01) of a real `YYYY-MM-DD` date (years 1000 to 2999), else null. */
function parseDay (value: string): number | null {
  const match = /^([12]\d{3})-(\d{2})-(\d{2})$/.exec(value)
  if (match == null) return null
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null
  return date.getTime() / DAY_MS
}

const NOT_A_DATE = 'must be a calendar date (YYYY-MM-DD)'

/** The day number of a real `YYYY-MM-DD` date; 400 naming `field` otherwise. */
export function dayOf (field: string, value: string): number {
  const day = parseDay(value)
  if (day == null) throw validationError([`${field}: ${NOT_A_DATE}`])
  return day
}

/** The `YYYY-MM-DD` date of a day number. */
export const dateOf = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10)

/** A plan's dates, checked: real dates, end not before start, at most MEAL_PLAN_LIMITS.spanDays apart. */
function checkDates (startDate: string, endDate: string): void {
  const start = parseDay(startDate)
  const end = parseDay(endDate)
  const details: string[] = []
  if (start == null) details.push(`startDate: ${NOT_A_DATE}`)
  if (end == null) details.push(`endDate: ${NOT_A_DATE}`)
  if (start != null && end != null) {
    if (end < start) details.push('endDate: must not be before startDate')
    else if (end - start > MEAL_PLAN_LIMITS.spanDays) details.push(`endDate: must be at most ${MEAL_PLAN_LIMITS.spanDays} days after startDate`)
  }
  if (details.length > 0) throw validationError(details)
}

function nameOf (name: string): string {
  const trimmed = name.trim()
  if (trimmed === '') throw validationError(['name: must not be blank'])
  return trimmed
}

/** Trimmed; blank is no description (undefined stays undefined: not changed). */
function descriptionOf (description: string | null | undefined): string | null | undefined {
  if (description == null) return description
  const trimmed = description.trim()
  return trimmed === '' ? null : trimmed
}

export function createMealPlanService (fastify: FastifyInstance) {
  const { mealPlansRepository: plans, plannedMealsRepository: meals } = fastify

  /** The plan with its planned meals, as the viewer sees it; MealPlanNotFound when they may not. */
  async function get (id: string, viewerId: string, db: Db = fastify.db): Promise<MealPlanDetailView> {
    const plan = await plans.find(db, id, viewerId)
    if (plan == null) throw new MealPlanNotFound()
    return { ...plan, plannedMeals: await meals.ofPlan(db, id, viewerId, MEAL_PLAN_LIMITS.mealsPerPlan) }
  }

  /** The plan's owner, dates and the user's access; `notFound` (MealPlanNotFound by default) when they may not see it. */
  async function access (db: Db, id: string, userId: string, notFound: () => HttpError = () => new MealPlanNotFound()): Promise<MealPlanAccessRow> {
    const plan = await plans.access(db, id, userId)
    if (plan == null) throw notFound()
    return plan
  }

  /** The plan if the user owns it: 404 when they cannot see it, 403 when they can but it is not theirs. */
  async function owned (db: Db, id: string, userId: string): Promise<MealPlanAccessRow> {
    const plan = await access(db, id, userId)
    if (plan.access !== 'owner') throw new NotMealPlanOwner()
    return plan
  }

  return {
    get,
    access,
    owned,

    /** The plan if the user may change its planned meals (owner or `edit` recipient): 404 unseen, 403 view only. */
    async editable (db: Db, id: string, userId: string, notFound?: () => HttpError): Promise<MealPlanAccessRow> {
      const plan = await access(db, id, userId, notFound)
      if (plan.access === 'view') throw new MealPlanReadOnly()
      return plan
    },

    async list (userId: string, scope: MealPlanScope, page: number, limit: number): Promise<Page<MealPlanView>> {
      return await plans.list(fastify.db, userId, scope, page, limit)
    },

    async create (userId: string, input: MealPlanInput): Promise<MealPlanDetailView> {
      const name = nameOf(input.name)
      checkDates(input.startDate, input.endDate)
      return await fastify.transaction(async tx => {
        // One creation of the user's at a time passes the count: the limit is exact under concurrency.
        await fastify.usersRepository.lock(tx, userId)
        const used = await plans.countOwned(tx, userId)
        if (used >= MEAL_PLAN_LIMITS.plansPerUser) throw new MealPlanLimitReached({ limit: MEAL_PLAN_LIMITS.plansPerUser, used })
        const id = await plans.insert(tx, {
          userId,
          name,
          description: descriptionOf(input.description) ?? null,
          startDate: input.startDate,
          endDate: input.endDate
        })
        return await get(id, userId, tx)
      })
    },

    /** Renames, describes or moves the plan (owner only); new dates must keep every planned meal inside them. */
    async update (userId: string, id: string, input: MealPlanChanges): Promise<MealPlanDetailView> {
      const name = input.name === undefined ? undefined : nameOf(input.name)
      return await fastify.transaction(async tx => {
        await plans.lock(tx, id)
        const plan = await owned(tx, id, userId)
        const startDate = input.startDate ?? plan.startDate
        const endDate = input.endDate ?? plan.endDate
        if (startDate !== plan.startDate || endDate !== plan.endDate) {
          checkDates(startDate, endDate)
          const outside = await plans.mealsOutside(tx, id, startDate, endDate)
          if (outside > 0) throw mealsOutsidePlanDates(outside, startDate, endDate)
        }
        await plans.update(tx, id, { name, description: descriptionOf(input.description), startDate: input.startDate, endDate: input.endDate })
        return await get(id, userId, tx)
      })
    },

    /** Deletes the plan (owner only) with its planned meals and shares. */
    async remove (userId: string, id: string): Promise<void> {
      await fastify.transaction(async tx => {
        await plans.lock(tx, id)
        await owned(tx, id, userId)
        await plans.remove(tx, id)
      })
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('mealPlanService', createMealPlanService(fastify))
}, { name: 'meal-plan-service', dependencies: ['meal-plans-repository', 'planned-meals-repository', 'users-repository'] })
