// Meal planning: meal plans (/api/mealplans), planned meals (/api/planned-meals) and plan shares
// (/api/shared-meal-plans). Dates are `YYYY-MM-DD` calendar dates (2026-02-30 is refused).
import { Type, type Static } from 'typebox'
import { MEAL_TYPES, SHARE_PERMISSIONS } from '../db/schema/households.js'
import { DateTime, Id, Nullable, PaginationQuery, ref, StringEnum } from './common.js'

/** Every text and collection bound of the three families (documented on the routes that enforce them). */
export const MEAL_PLAN_LIMITS = {
  name: 100,
  description: 2000,
  customTitle: 200,
  notes: 2000,
  /** Days from startDate to endDate (the table's check constraint holds the same bound). */
  spanDays: 366,
  /** Days from `from` to `to` in a planned-meal range query. */
  rangeDays: 366,
  servings: 100,
  plansPerUser: 1000,
  mealsPerPlan: 1000,
  /** Planned meals outside any plan (the user's own calendar). */
  calendarMeals: 10_000,
  /** Shares of one plan (users and families together). */
  sharesPerPlan: 100,
  userIdsPerShare: 50
} as const

export const MEAL_PLAN_ACCESS = ['owner', 'edit', 'view'] as const
export type MealPlanAccess = typeof MEAL_PLAN_ACCESS[number]

const isoDate = (description: string) => Type.String({ format: 'date', pattern: '^[12][0-9]{3}-[0-9]{2}-[0-9]{2}$', description })
export const IsoDate = isoDate('A calendar date, YYYY-MM-DD (years 1000 to 2999)')

export const MealPlanUser = Type.Object({
  id: Id,
  username: Type.String(),
  firstName: Nullable(Type.String()),
  lastName: Nullable(Type.String()),
  avatarUrl: Nullable(Type.String())
}, { $id: 'MealPlanUser', description: 'A user as anyone may see them (no email address)' })
export type MealPlanUserView = Static<typeof MealPlanUser>

export const PlannedMealRecipe = Type.Object({
  id: Id,
  title: Type.String(),
  imageUrl: Nullable(Type.String()),
  servings: Nullable(Type.Integer()),
  prepTime: Nullable(Type.Integer({ description: 'Minutes' })),
  cookTime: Nullable(Type.Integer({ description: 'Minutes' }))
}, { $id: 'PlannedMealRecipe', description: 'A small summary of the planned recipe' })

export const PlannedMeal = Type.Object({
  id: Id,
  mealPlanId: Nullable(Id, { description: 'null: an entry of the planner\'s own calendar, outside any plan' }),
  userId: Id,
  date: IsoDate,
  mealType: StringEnum(MEAL_TYPES),
  recipeId: Nullable(Id, { description: 'The planned recipe; null when there is none or the caller may no longer see it' }),
  recipe: Nullable(ref(PlannedMealRecipe), {
    description: 'The recipe, if the caller may still see it (null when there is none or it is no longer visible to the caller)'
  }),
  customTitle: Nullable(Type.String()),
  servings: Nullable(Type.Integer()),
  notes: Nullable(Type.String()),
  createdAt: DateTime,
  updatedAt: DateTime
}, { $id: 'PlannedMeal', description: 'A meal planned on a date: a recipe, a custom title, or both. `userId` is who planned it.' })
export type PlannedMealView = Static<typeof PlannedMeal>

const mealPlanFields = {
  id: Id,
  name: Type.String(),
  description: Nullable(Type.String()),
  startDate: IsoDate,
  endDate: IsoDate,
  owner: ref(MealPlanUser),
  access: StringEnum(MEAL_PLAN_ACCESS, {
    description: 'The caller\'s access: owner; edit (shared with edit permission, directly or through a family: may add, ' +
      'change and remove planned meals); view (read only)'
  }),
  plannedMealCount: Type.Integer({ minimum: 0 }),
  createdAt: DateTime,
  updatedAt: DateTime
}

export const MealPlan = Type.Object(mealPlanFields, { $id: 'MealPlan', description: 'A meal plan, yours or shared with you' })
export type MealPlanView = Static<typeof MealPlan>

export const MealPlanDetail = Type.Object({
  ...mealPlanFields,
  plannedMeals: Type.Array(ref(PlannedMeal), {
    maxItems: MEAL_PLAN_LIMITS.mealsPerPlan,
    description: `Every planned meal of the plan (at most ${MEAL_PLAN_LIMITS.mealsPerPlan}), by date, then meal type ` +
      `(${MEAL_TYPES.join(', ')}), then creation`
  })
}, { $id: 'MealPlanDetail', description: 'A meal plan with its planned meals' })
export type MealPlanDetailView = Static<typeof MealPlanDetail>

const planName = Type.String({ minLength: 1, maxLength: MEAL_PLAN_LIMITS.name, description: `Trimmed; must not be blank; at most ${MEAL_PLAN_LIMITS.name} characters` })
const planDescription = Nullable(Type.String({ maxLength: MEAL_PLAN_LIMITS.description }))

export const MealPlanBody = Type.Object({
  name: planName,
  description: Type.Optional(planDescription),
  startDate: IsoDate,
  endDate: IsoDate
})
export const MealPlanPatchBody = Type.Partial(MealPlanBody)
export type MealPlanInput = Static<typeof MealPlanBody>
export type MealPlanChanges = Static<typeof MealPlanPatchBody>

export const MEAL_PLAN_SCOPES = ['all', 'owned', 'shared'] as const
export const MealPlanListQuery = Type.Object({
  ...PaginationQuery.properties,
  scope: StringEnum(MEAL_PLAN_SCOPES, { default: 'all', description: 'owned: your plans; shared: plans shared with you; all: both' })
})
export type MealPlanScope = typeof MEAL_PLAN_SCOPES[number]

const customTitle = Nullable(Type.String({ maxLength: MEAL_PLAN_LIMITS.customTitle, description: `Trimmed; at most ${MEAL_PLAN_LIMITS.customTitle} characters` }))
const servings = Nullable(Type.Integer({ minimum: 1, maximum: MEAL_PLAN_LIMITS.servings }))
const notes = Nullable(Type.String({ maxLength: MEAL_PLAN_LIMITS.notes }))

export const PlannedMealBody = Type.Object({
  mealPlanId: Type.Optional(Nullable(Id, { description: 'The plan to add it to (you need edit access); omit for your own calendar' })),
  date: IsoDate,
  mealType: StringEnum(MEAL_TYPES),
  recipeId: Type.Optional(Nullable(Id, { description: 'A recipe you can see' })),
  customTitle: Type.Optional(customTitle),
  servings: Type.Optional(servings),
  notes: Type.Optional(notes)
})
export type PlannedMealInput = Static<typeof PlannedMealBody>

/** The plan of a planned meal does not change: to move one to another plan, create it there and delete this one. */
export const PlannedMealPatchBody = Type.Partial(Type.Object({
  date: IsoDate,
  mealType: StringEnum(MEAL_TYPES),
  recipeId: Nullable(Id, { description: 'A recipe you can see; null removes the recipe (a customTitle must remain)' }),
  customTitle,
  servings,
  notes
}))
export type PlannedMealChanges = Static<typeof PlannedMealPatchBody>

export const PlannedMealListQuery = Type.Object({
  ...PaginationQuery.properties,
  from: Type.Optional(isoDate(`First date (inclusive), YYYY-MM-DD. Alone: up to ${MEAL_PLAN_LIMITS.rangeDays} days after it`)),
  to: Type.Optional(isoDate(`Last date (inclusive), YYYY-MM-DD. Alone: from ${MEAL_PLAN_LIMITS.rangeDays} days before it`)),
  mealPlanId: Type.Optional(Id)
})
export type PlannedMealFilters = Omit<Static<typeof PlannedMealListQuery>, 'page' | 'limit'>

export const SharedMealPlan = Type.Object({
  id: Id,
  mealPlan: Type.Object({ id: Id, name: Type.String(), startDate: IsoDate, endDate: IsoDate, owner: ref(MealPlanUser) }),
  permission: StringEnum(SHARE_PERMISSIONS),
  sharedBy: ref(MealPlanUser),
  user: Nullable(ref(MealPlanUser), { description: 'The recipient, for a share with one user' }),
  family: Nullable(Type.Object({ id: Id, name: Type.String() }), { description: 'The recipient family, for a share with a family' }),
  direction: StringEnum(['sent', 'received'] as const, { description: 'sent: a share of your plan; received: a share with you or a family of yours' }),
  createdAt: DateTime
}, { $id: 'SharedMealPlan', description: 'A meal plan shared with one user or with every member of a family' })
export type SharedMealPlanView = Static<typeof SharedMealPlan>

export const SharedMealPlanBody = Type.Object({
  mealPlanId: Id,
  familyId: Type.Optional(Id),
  userIds: Type.Optional(Type.Array(Id, {
    minItems: 1,
    maxItems: MEAL_PLAN_LIMITS.userIdsPerShare,
    uniqueItems: true,
    description: `Active users to share with (at most ${MEAL_PLAN_LIMITS.userIdsPerShare}, not yourself)`
  })),
  permission: StringEnum(SHARE_PERMISSIONS, { default: 'view', description: 'view: read only; edit: may add, change and remove planned meals' })
})
export type SharedMealPlanInput = Static<typeof SharedMealPlanBody>

export const SHARE_DIRECTIONS = ['all', 'sent', 'received'] as const
export const SharedMealPlanListQuery = Type.Object({
  ...PaginationQuery.properties,
  direction: StringEnum(SHARE_DIRECTIONS, { default: 'all', description: 'sent: shares of your plans; received: shares with you or your families' })
})
export type ShareDirection = typeof SHARE_DIRECTIONS[number]
