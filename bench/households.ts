// The households' bench material: the reader's week, set up through the API at the start of a run (a family, a meal
// plan of 21 planned meals, a grocery list of about 40 items gathered from it, the plan shared with the storm users for
// `grocery-from-plan`), the checks every household answer must pass (service and ceiling alike), and putting the
// database back as seeded (the reader's and the storm users' household rows removed) before and after a run.
import type postgres from 'postgres'
import { isListed, READER_ID, recipeId, type Shape } from './seed.js'

/** The week the plan covers (Monday to Sunday): far from today, so no real date ever collides with it. */
export const WEEK = { from: '2031-03-03', to: '2031-03-09' } as const
export const PLAN_NAME = 'Bench week'
/** Three a day for the seven days of WEEK. */
export const MEAL_TYPES = ['breakfast', 'lunch', 'dinner'] as const
export const PLANNED_MEALS = 7 * MEAL_TYPES.length
/** The grocery list `grocery-detail` reads: gathered from the plan, topped up with added items when shorter. */
export const GROCERY_ITEMS = 40
/** Distinct recipes the 21 meals cycle through: a week repeats dishes (with the seeded ingredients, about 40 lines). */
const RECIPES_IN_PLAN = 10
/** What the `from-plan` ceiling names its lists (the service names them "Groceries: <plan name>"). */
export const CEILING_LIST_NAME = 'Bench ceiling'

/** What the household scenarios read, made by `setUpHousehold`. */
export interface Household {
  familyId: string
  mealPlanId: string
  groceryListId: string
  /** The recipe of each planned meal, in plan order (date, then breakfast, lunch, dinner). */
  recipeIds: string[]
  /** Items of a list gathered from the plan (what `grocery-from-plan` must answer every time). */
  fromPlanItems: number
  /** Items of the list `grocery-detail` reads. */
  items: number
  /** The storm users the plan is shared with (view), when `grocery-from-plan` runs. */
  sharedWith: string[]
}

/** Listed recipes from r1000 on (every dataset has them), RECIPES_IN_PLAN of them. */
export function planRecipes (shape: Shape): string[] {
  const ids: string[] = []
  for (let i = Math.min(1000, shape.recipes - 1); ids.length < RECIPES_IN_PLAN && i < shape.recipes; i++) if (isListed(i)) ids.push(recipeId(i))
  return ids
}

const DAY_MS = 24 * 60 * 60 * 1000
/** The n-th date of WEEK. */
export const weekDate = (n: number) => new Date(Date.parse(`${WEEK.from}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10)

type Body = any

/** One API call as `token`: the parsed body when the status is `expected`, else a thrown error naming the call. */
async function api (base: string, token: string, method: string, path: string, body: unknown, expected: number): Promise<Body> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  const answer = await response.json().catch(() => null) as Body
  if (response.status !== expected) throw new Error(`household setup: ${method} ${path}: ${response.status} (expected ${expected}) ${JSON.stringify(answer).slice(0, 300)}`)
  return answer
}

/** Extra lines for the list `grocery-detail` reads when the plan gives fewer than GROCERY_ITEMS. */
const EXTRAS = ['milk', 'eggs', 'bread', 'bananas', 'apples', 'coffee', 'yogurt', 'cheddar', 'spinach', 'carrots', 'oats', 'pasta',
  'frozen peas', 'orange juice', 'paper towels', 'dish soap', 'tea', 'butter', 'tortillas', 'cucumber']

/**
 * Through the service, as the reader: a family (the household), the week's plan with its 21 meals (shared with the
 * family, and with `shareWith` when given), the plan's grocery list (shared with the family) topped up to
 * GROCERY_ITEMS; each read back once and checked.
 */
export async function setUpHousehold (base: string, token: string, shape: Shape, shareWith: string[]): Promise<Household> {
  const { family } = await api(base, token, 'POST', '/api/families', { name: 'Bench household' }, 201)
  const { mealPlan } = await api(base, token, 'POST', '/api/mealplans', { name: PLAN_NAME, startDate: WEEK.from, endDate: WEEK.to }, 201)
  const pool = planRecipes(shape)
  const recipeIds: string[] = []
  // One at a time: every planned meal locks the plan (its meal cap), so parallel requests would only queue.
  for (let day = 0; day < 7; day++) {
    for (const [m, mealType] of MEAL_TYPES.entries()) {
      const id = pool[(day * MEAL_TYPES.length + m) % pool.length]
      recipeIds.push(id)
      await api(base, token, 'POST', '/api/planned-meals',
        { mealPlanId: mealPlan.id, date: weekDate(day), mealType, recipeId: id, servings: mealType === 'dinner' ? 4 : 2 }, 201)
    }
  }
  await api(base, token, 'POST', '/api/shared-meal-plans', { mealPlanId: mealPlan.id, familyId: family.id, permission: 'edit' }, 201)
  if (shareWith.length > 0) {
    const { shares } = await api(base, token, 'POST', '/api/shared-meal-plans', { mealPlanId: mealPlan.id, userIds: shareWith, permission: 'view' }, 201)
    if (shares?.length !== shareWith.length) throw new Error(`household setup: ${shares?.length} shares for ${shareWith.length} users`)
  }
  const { groceryList } = await api(base, token, 'POST', '/api/grocerylists/from-mealplan', { mealPlanId: mealPlan.id, familyId: family.id }, 201)
  const fromPlanItems = groceryList.items.length
  if (fromPlanItems === 0) throw new Error('household setup: the plan gave an empty grocery list')
  for (let k = 0; fromPlanItems + k < GROCERY_ITEMS; k++) {
    await api(base, token, 'POST', `/api/grocerylists/${groceryList.id}/items`, { name: EXTRAS[k % EXTRAS.length], quantity: 1 + (k % 3) }, 201)
  }
  const household: Household = {
    familyId: family.id,
    mealPlanId: mealPlan.id,
    groceryListId: groceryList.id,
    recipeIds,
    fromPlanItems,
    items: Math.max(fromPlanItems, GROCERY_ITEMS),
    sharedWith: shareWith
  }
  const problems = [
    mealPlanProblem(await api(base, token, 'GET', `/api/mealplans/${mealPlan.id}`, undefined, 200), household),
    plannedWeekProblem(await api(base, token, 'GET', plannedWeekPath, undefined, 200), household),
    groceryListProblem(await api(base, token, 'GET', `/api/grocerylists/${groceryList.id}`, undefined, 200), household)
  ].filter(p => p != null)
  if (problems.length > 0) throw new Error(`household setup: ${problems.join('; ')}`)
  return household
}

/** The week view: every planned meal of WEEK on one page (a page holds at most 50). */
export const plannedWeekPath = `/api/planned-meals?from=${WEEK.from}&to=${WEEK.to}&limit=50`

/** The meals of the plan in plan order, each with its recipe summary: null, or what is wrong. */
function mealsProblem (meals: Body, household: Household): string | null {
  if (!Array.isArray(meals)) return 'no planned meals array'
  if (meals.length !== PLANNED_MEALS) return `${meals.length} planned meals, expected ${PLANNED_MEALS}`
  for (const [i, meal] of meals.entries()) {
    const date = weekDate(Math.floor(i / MEAL_TYPES.length))
    const mealType = MEAL_TYPES[i % MEAL_TYPES.length]
    if (meal?.date !== date || meal.mealType !== mealType) return `meal ${i}: ${meal?.date} ${meal?.mealType}, expected ${date} ${mealType}`
    if (meal.mealPlanId !== household.mealPlanId || meal.userId !== READER_ID) return `meal ${i}: plan ${meal.mealPlanId}, planner ${meal.userId}`
    if (meal.recipeId !== household.recipeIds[i] || meal.recipe?.id !== household.recipeIds[i] || typeof meal.recipe.title !== 'string') {
      return `meal ${i}: recipe ${meal.recipeId} (${JSON.stringify(meal.recipe)?.slice(0, 80)}), expected ${household.recipeIds[i]}`
    }
  }
  return null
}

/** GET /api/mealplans/:id as the reader (and the `mealplan` ceiling): the plan, its owner and its 21 meals. */
export function mealPlanProblem (body: Body, household: Household): string | null {
  const plan = body?.mealPlan
  if (plan?.id !== household.mealPlanId) return `plan ${plan?.id}, expected ${household.mealPlanId}`
  if (plan.name !== PLAN_NAME || plan.startDate !== WEEK.from || plan.endDate !== WEEK.to) return `plan ${plan.name} ${plan.startDate}..${plan.endDate}`
  if (plan.access !== 'owner' || plan.owner?.id !== READER_ID) return `access ${plan.access}, owner ${plan.owner?.id}`
  if (plan.plannedMealCount !== PLANNED_MEALS) return `plannedMealCount ${plan.plannedMealCount}`
  return mealsProblem(plan.plannedMeals, household)
}

/** GET /api/planned-meals?from=&to= of WEEK as the reader (and the `planned` ceiling): the 21 meals, total 21. */
export function plannedWeekProblem (body: Body, household: Household): string | null {
  if (body?.pagination?.total !== PLANNED_MEALS) return `total ${body?.pagination?.total}, expected ${PLANNED_MEALS}`
  return mealsProblem(body.plannedMeals, household)
}

/** A grocery list of `items` unchecked items in aisle order: null, or what is wrong. */
function listProblem (list: Body, items: number): string | null {
  if (!Array.isArray(list?.items)) return 'no items array'
  if (list.items.length !== items || list.itemCount !== items || list.checkedCount !== 0) {
    return `${list.items.length} items (itemCount ${list.itemCount}, checkedCount ${list.checkedCount}), expected ${items}`
  }
  for (const item of list.items) {
    if (typeof item?.id !== 'string' || typeof item.name !== 'string' || typeof item.category !== 'string' || item.checked !== false) {
      return `item ${JSON.stringify(item).slice(0, 120)}`
    }
  }
  return null
}

/** GET /api/grocerylists/:id as the reader (and the `grocery` ceiling). */
export function groceryListProblem (body: Body, household: Household): string | null {
  const list = body?.groceryList
  if (list?.id !== household.groceryListId) return `list ${list?.id}, expected ${household.groceryListId}`
  if (list.userId !== READER_ID || list.isOwner !== true || list.familyId !== household.familyId || list.mealPlanId !== household.mealPlanId) {
    return `list of ${list.userId} (owner ${list.isOwner}), family ${list.familyId}, plan ${list.mealPlanId}`
  }
  return listProblem(list, household.items)
}

/** POST /api/grocerylists/from-mealplan as storm user `userId` (201), and the `from-plan` ceiling's answer. */
export function newListProblem (body: Body, household: Household, userId: string): string | null {
  const list = body?.groceryList
  if (typeof list?.id !== 'string' || list.userId !== userId || list.isOwner !== true || list.mealPlanId !== household.mealPlanId) {
    return `list ${list?.id} of ${list?.userId} (owner ${list?.isOwner}) from plan ${list?.mealPlanId}, expected ${userId}'s from ${household.mealPlanId}`
  }
  return listProblem(list, household.fromPlanItems)
}

/**
 * After a run of `grocery-from-plan` (or its ceiling): null when the lists of `userIds` are whole (every one gathered
 * from the plan, with exactly the plan's items) and there is at least one per answered request (requests still in
 * flight when a run ends may add more); else what differs.
 */
export async function groceryListsWritten (sql: postgres.Sql, userIds: string[], household: Household, responses: number): Promise<string | null> {
  const [{ lists, partial }] = await sql<Array<{ lists: number, partial: number }>>`
    select count(*)::int as lists,
      count(*) filter (where n <> ${household.fromPlanItems} or gl.meal_plan_id is distinct from ${household.mealPlanId})::int as partial
    from grocery_lists gl
    cross join lateral (select count(*)::int as n from grocery_items gi where gi.list_id = gl.id) c
    where gl.user_id = any(${userIds})`
  if (partial > 0) return `${partial} of ${lists} new grocery lists without exactly ${household.fromPlanItems} items from the plan`
  if (lists < responses) return `${lists} grocery lists for ${responses} answered requests`
  return null
}

/**
 * Removes the users' grocery lists (their items go with them), then vacuums what that churned: a write scenario
 * leaves hundreds of thousands of dead item rows, and a PostgreSQL with autovacuum off (as on the bench machine)
 * would make every later read of these tables pay for them. Autovacuum does this in production.
 */
export async function removeGroceryLists (sql: postgres.Sql, userIds: string[]): Promise<void> {
  await sql`delete from grocery_lists where user_id = any(${userIds})`
  await sql`vacuum analyze grocery_items, grocery_lists`
}

/**
 * The dataset as seeded: the reader's families, plans (their meals and shares go with them), calendar entries and
 * grocery lists, the storm users' grocery lists, and the notifications the reader's shares caused.
 */
export async function removeHousehold (sql: postgres.Sql, stormIds: string[]): Promise<void> {
  await sql.begin(async tx => {
    await tx`delete from grocery_lists where user_id = any(${[READER_ID, ...stormIds]})`
    await tx`delete from meal_plans where user_id = ${READER_ID}`
    await tx`delete from planned_meals where user_id = ${READER_ID}`
    await tx`delete from families where id in (select family_id from family_members where user_id = ${READER_ID}) or created_by = ${READER_ID}`
    await tx`delete from notifications where actor_id = ${READER_ID}`
  })
}
