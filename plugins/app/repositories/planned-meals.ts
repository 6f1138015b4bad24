// Planned meals: in a meal plan (seen by whoever sees the plan, household-access.ts) or, with no plan, on the
// planner's own calendar (seen by them only). Each read carries a small summary of the recipe when the viewer may
// still see it (visibility.ts), else null.
import { createId } from '@paralleldrive/cuid2'
import fp from 'fastify-plugin'
import { MEAL_TYPES, type plannedMeals, type recipes } from '../../../db/schema/index.js'
import type { PlannedMealView } from '../../../schemas/meal-plans.js'
import type { Db } from '../../external/db.js'
import { mealPlanVisibleTo } from './household-access.js'
import { visiblePlanIds } from './meal-plans.js'
import type { Page } from './recipes.js'
import { countUpTo, type Fragment, type Counted } from './sql.js'
import { recipeVisibleTo } from './visibility.js'

declare module 'fastify' {
  interface FastifyInstance {
    plannedMealsRepository: typeof plannedMealsRepository
  }
}

type PlannedMealRow = typeof plannedMeals.$inferSelect
export type NewPlannedMeal = Pick<PlannedMealRow, 'userId' | 'mealPlanId' | 'date' | 'mealType' | 'recipeId' | 'customTitle' | 'servings' | 'notes'>
export type PlannedMealPatch = Partial<Pick<PlannedMealRow, 'date' | 'mealType' | 'recipeId' | 'customTitle' | 'servings' | 'notes'>>
/** What the rules need to know about a planned meal before changing it. */
export type PlannedMealTarget = Pick<PlannedMealRow, 'id' | 'mealPlanId' | 'userId' | 'date' | 'recipeId' | 'customTitle'>

type Recipe = typeof recipes.$inferSelect

/** A planned meal with its recipe's columns, all null when the viewer may not see the recipe. */
interface ViewRow extends PlannedMealRow {
  visibleRecipeId: Recipe['id'] | null
  recipeTitle: Recipe['title'] | null
  recipeImageUrl: Recipe['imageUrl'] | null
  recipeServings: Recipe['servings'] | null
  recipePrepTime: Recipe['prepTime'] | null
  recipeCookTime: Recipe['cookTime'] | null
}

export interface DateRange { from: string, to: string }

/** Breakfast first, dessert last (the order of MEAL_TYPES); constants, not input. */
const mealTypeOrder = (alias: string) => `case ${alias}.meal_type ${MEAL_TYPES.map((type, i) => `when '${type}' then ${i}`).join(' ')} end`
/** Plan order of the planned meals `alias`: date, meal type, then when planned (ids break ties, so pages never overlap). */
const mealOrder = (db: Db, alias = 'pm') => db.unsafe(`${alias}.date, ${mealTypeOrder(alias)}, ${alias}.created_at, ${alias}.id`)

/** Counts past this are not exact (`totalExact: false`), as the recipe listing's filtered totals. */
export const MEAL_COUNT_CAP = 10_000

/** A page of planned meals: `hasNext` from one row past it; `total` capped at MEAL_COUNT_CAP when not `totalExact`. */
export interface MealPage extends Page<PlannedMealView> { hasNext: boolean, totalExact: boolean }

/** The planned meal `pm` with its recipe `r` joined only when the viewer may see it. */
const selectMeals = (db: Db, viewerId: string) => db`select
  pm.id, pm.meal_plan_id, pm.user_id, pm.date::text as date, pm.meal_type, pm.recipe_id, pm.custom_title, pm.servings,
  pm.notes, pm.created_at, pm.updated_at, r.id as visible_recipe_id, r.title as recipe_title, r.image_url as recipe_image_url,
  r.servings as recipe_servings, r.prep_time as recipe_prep_time, r.cook_time as recipe_cook_time
  from planned_meals pm left join recipes r on r.id = pm.recipe_id and ${recipeVisibleTo(db, viewerId)}`

function view (row: ViewRow): PlannedMealView {
  return {
    id: row.id,
    mealPlanId: row.mealPlanId,
    userId: row.userId,
    date: row.date,
    mealType: row.mealType,
    // A recipe the viewer can no longer see is not named either (its id would say it still exists).
    recipeId: row.visibleRecipeId,
    recipe: row.visibleRecipeId == null
      ? null
      : {
          id: row.visibleRecipeId,
          title: row.recipeTitle ?? '',
          imageUrl: row.recipeImageUrl,
          servings: row.recipeServings,
          prepTime: row.recipePrepTime,
          cookTime: row.recipeCookTime
        },
    customTitle: row.customTitle,
    servings: row.servings,
    notes: row.notes,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString()
  }
}

/** `<alias>.date` within the range, if any. */
const inRange = (db: Db, range: DateRange | null, alias = 'c') =>
  range == null ? db`` : db`and ${db.unsafe(alias)}.date between ${range.from}::date and ${range.to}::date`

export const plannedMealsRepository = {
  /** The planned meal if the viewer may see it: their own calendar entry, or a meal of a plan they may see. */
  async find (db: Db, id: string, viewerId: string): Promise<PlannedMealView | null> {
    const [row] = await db<ViewRow[]>`${selectMeals(db, viewerId)} where pm.id = ${id} and (
      (pm.meal_plan_id is null and pm.user_id = ${viewerId})
      or exists (select 1 from meal_plans mp where mp.id = pm.meal_plan_id and ${mealPlanVisibleTo(db, viewerId)}))`
    return row == null ? null : view(row)
  },

  /** The planned meal as it is stored (no visibility: the service decides from its plan). */
  async target (db: Db, id: string): Promise<PlannedMealTarget | null> {
    const [row] = await db<PlannedMealTarget[]>`select id, meal_plan_id, user_id, date::text as date, recipe_id, custom_title
      from planned_meals where id = ${id}`
    return row ?? null
  },

  /** Every planned meal of a plan (the caller has checked the viewer may see it), in plan order, at most `max`. */
  async ofPlan (db: Db, mealPlanId: string, viewerId: string, max: number): Promise<PlannedMealView[]> {
    const rows = await db<ViewRow[]>`${selectMeals(db, viewerId)} where pm.meal_plan_id = ${mealPlanId}
      order by ${mealOrder(db)} limit ${max}`
    return rows.map(view)
  },

  /**
   * A page of planned meals in plan order: those of one plan (the caller has checked the viewer may see it), or
   * else the viewer's calendar entries and the meals of every plan they may see; within `range` when given. Without
   * a plan or a range the work is bounded by the page, not by every meal the viewer may see: each source (the
   * calendar, each plan) gives at most its first `offset + limit + 1` meals in order (an index walk by date), and only
   * those are merged; the total is counted up to MEAL_COUNT_CAP.
   */
  async list (db: Db, viewerId: string, filter: { mealPlanId?: string, range: DateRange | null }, pageNo: number, limit: number): Promise<MealPage> {
    const offset = (pageNo - 1) * limit
    if (filter.mealPlanId != null) {
      // One plan holds at most MEAL_PLAN_LIMITS.mealsPerPlan meals: its index range is the bound.
      const where = db`pm.meal_plan_id = ${filter.mealPlanId} ${inRange(db, filter.range, 'pm')}`
      const [rows, [{ total }]] = await Promise.all([
        db<ViewRow[]>`${selectMeals(db, viewerId)} where ${where} order by ${mealOrder(db)} limit ${limit} offset ${offset}`,
        db<Array<Counted<'total'>>>`select count(*)::int as total from planned_meals pm where ${where}`
      ])
      return { items: rows.map(view), total, hasNext: offset + rows.length < total, totalExact: true }
    }
    if (filter.range != null) {
      // A range (at most MEAL_PLAN_LIMITS.rangeDays) bounds the rows: one statement over every source's index range
      // was measured faster for the common week view (bench planned-week) than a walk per source.
      const inRangeIds = db`(select c.id from planned_meals c where c.user_id = ${viewerId} and c.meal_plan_id is null ${inRange(db, filter.range)}
          union all
          select c.id from planned_meals c where c.meal_plan_id in ${visiblePlanIds(db, viewerId)} ${inRange(db, filter.range)})`
      const [rows, [{ total }]] = await Promise.all([
        db<ViewRow[]>`${selectMeals(db, viewerId)} where pm.id in ${inRangeIds} order by ${mealOrder(db)} limit ${limit} offset ${offset}`,
        db<Array<Counted<'total'>>>`select count(*)::int as total from ${inRangeIds} as x`
      ])
      return { items: rows.map(view), total, hasNext: offset + rows.length < total, totalExact: true }
    }
    const take = offset + limit + 1
    const firstOf = (where: Fragment) => db`(select c.id, c.date, ${db.unsafe(mealTypeOrder('c'))} as meal_order, c.created_at
      from planned_meals c where ${where} order by ${mealOrder(db, 'c')} limit ${take})`
    const candidates = db`${firstOf(db`c.user_id = ${viewerId} and c.meal_plan_id is null`)}
      union all
      select m.* from ${visiblePlanIds(db, viewerId)} v cross join lateral ${firstOf(db`c.meal_plan_id = v.id`)} m`
    const counted = db`(select c.id from planned_meals c where c.user_id = ${viewerId} and c.meal_plan_id is null
      union all
      select c.id from planned_meals c where c.meal_plan_id in ${visiblePlanIds(db, viewerId)})`
    const [rows, total] = await Promise.all([
      db<ViewRow[]>`with page as (
          select x.id, x.date, x.meal_order, x.created_at from (${candidates}) x
          order by x.date, x.meal_order, x.created_at, x.id limit ${limit + 1} offset ${offset})
        ${selectMeals(db, viewerId)} join page on page.id = pm.id order by page.date, page.meal_order, page.created_at, page.id`,
      countUpTo(db, db`${counted} as x`, db`true`, MEAL_COUNT_CAP)
    ])
    return {
      items: rows.slice(0, limit).map(view),
      total: Math.max(total, offset + rows.length),
      hasNext: rows.length > limit,
      totalExact: total < MEAL_COUNT_CAP
    }
  },

  async countInPlan (db: Db, mealPlanId: string): Promise<number> {
    const [{ count }] = await db<Array<Counted<'count'>>>`select count(*)::int as count from planned_meals where meal_plan_id = ${mealPlanId}`
    return count
  },

  /** The user's calendar entries (planned meals outside any plan). */
  async countCalendar (db: Db, userId: string): Promise<number> {
    const [{ count }] = await db<Array<Counted<'count'>>>`select count(*)::int as count from planned_meals
      where user_id = ${userId} and meal_plan_id is null`
    return count
  },

  async insert (db: Db, meal: NewPlannedMeal): Promise<string> {
    const id = createId()
    await db`insert into planned_meals ${db({ id, ...meal })}`
    return id
  },

  /** false when the planned meal is gone. */
  async update (db: Db, id: string, changes: PlannedMealPatch): Promise<boolean> {
    const set = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined))
    const rows = Object.keys(set).length === 0
      ? await db`select 1 from planned_meals where id = ${id}`
      : await db`update planned_meals set ${db(set)}, updated_at = now() where id = ${id} returning 1`
    return rows.length > 0
  },

  async remove (db: Db, id: string): Promise<boolean> {
    const rows = await db`delete from planned_meals where id = ${id} returning 1`
    return rows.length > 0
  }
}

export default fp(async fastify => {
  fastify.decorate('plannedMealsRepository', plannedMealsRepository)
}, { name: 'planned-meals-repository' })
