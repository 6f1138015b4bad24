// Families (households), meal plans, planned meals, plan sharing and grocery lists.
import { sql } from 'drizzle-orm'
import { boolean, check, date, doublePrecision, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { createdAt, id, timestamptz, updatedAt } from './columns.js'
import { recipes } from './recipes.js'
import { users } from './users.js'

export const FAMILY_ROLES = ['owner', 'admin', 'member'] as const
export type FamilyRole = typeof FAMILY_ROLES[number]

export const families = pgTable('families', {
  id: id(),
  name: text('name').notNull(),
  description: text('description'),
  /** 8 lowercase hex characters, unique; regenerable by owners and admins. */
  inviteCode: text('invite_code').notNull(),
  createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
  updatedAt: updatedAt()
}, t => [
  uniqueIndex('families_invite_code_idx').on(t.inviteCode),
  check('families_invite_code_check', sql`${t.inviteCode} ~ '^[0-9a-f]{8}$'`)
])

export const familyMembers = pgTable('family_members', {
  familyId: text('family_id').notNull().references(() => families.id, { onDelete: 'cascade' }),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  role: text('role').$type<FamilyRole>().notNull().default('member'),
  joinedAt: timestamptz('joined_at').notNull().defaultNow()
}, t => [
  primaryKey({ columns: [t.familyId, t.userId] }),
  index('family_members_user_idx').on(t.userId),
  check('family_members_role_check', sql`${t.role} in ('owner', 'admin', 'member')`)
])

export const MEAL_TYPES = ['breakfast', 'lunch', 'dinner', 'snack', 'dessert'] as const
export type MealType = typeof MEAL_TYPES[number]

export const mealPlans = pgTable('meal_plans', {
  id: id(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  description: text('description'),
  startDate: date('start_date', { mode: 'string' }).notNull(),
  endDate: date('end_date', { mode: 'string' }).notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt()
}, t => [
  index('meal_plans_user_start_idx').on(t.userId, t.startDate),
  check('meal_plans_dates_check', sql`${t.endDate} >= ${t.startDate} and ${t.endDate} - ${t.startDate} <= 366`)
])

export const plannedMeals = pgTable('planned_meals', {
  id: id(),
  /** Who planned it (the plan's owner, or a recipient with edit permission). */
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  /** Null: a meal planned outside any plan (the user's own calendar). */
  mealPlanId: text('meal_plan_id').references(() => mealPlans.id, { onDelete: 'cascade' }),
  date: date('date', { mode: 'string' }).notNull(),
  mealType: text('meal_type').$type<MealType>().notNull(),
  recipeId: text('recipe_id').references(() => recipes.id, { onDelete: 'cascade' }),
  customTitle: text('custom_title'),
  servings: integer('servings'),
  notes: text('notes'),
  createdAt: createdAt(),
  updatedAt: updatedAt()
}, t => [
  index('planned_meals_user_date_idx').on(t.userId, t.date),
  index('planned_meals_plan_date_idx').on(t.mealPlanId, t.date),
  index('planned_meals_recipe_idx').on(t.recipeId),
  check('planned_meals_meal_type_check', sql`${t.mealType} in ('breakfast', 'lunch', 'dinner', 'snack', 'dessert')`),
  check('planned_meals_what_check', sql`${t.recipeId} is not null or ${t.customTitle} is not null`),
  check('planned_meals_servings_check', sql`${t.servings} is null or ${t.servings} between 1 and 100`)
])

export const SHARE_PERMISSIONS = ['view', 'edit'] as const
export type SharePermission = typeof SHARE_PERMISSIONS[number]

/** A meal plan shared with one user or with every member of a family (exactly one of the two). */
export const sharedMealPlans = pgTable('shared_meal_plans', {
  id: id(),
  mealPlanId: text('meal_plan_id').notNull().references(() => mealPlans.id, { onDelete: 'cascade' }),
  sharedBy: text('shared_by').notNull().references(() => users.id, { onDelete: 'cascade' }),
  familyId: text('family_id').references(() => families.id, { onDelete: 'cascade' }),
  userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
  permission: text('permission').$type<SharePermission>().notNull().default('view'),
  createdAt: createdAt()
}, t => [
  uniqueIndex('shared_meal_plans_family_idx').on(t.mealPlanId, t.familyId).where(sql`${t.familyId} is not null`),
  uniqueIndex('shared_meal_plans_user_idx').on(t.mealPlanId, t.userId).where(sql`${t.userId} is not null`),
  index('shared_meal_plans_recipient_idx').on(t.userId),
  index('shared_meal_plans_family_recipient_idx').on(t.familyId),
  check('shared_meal_plans_target_check', sql`(${t.familyId} is null) <> (${t.userId} is null)`),
  check('shared_meal_plans_permission_check', sql`${t.permission} in ('view', 'edit')`)
])

export const groceryLists = pgTable('grocery_lists', {
  id: id(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  /** The plan it was gathered from, if any. */
  mealPlanId: text('meal_plan_id').references(() => mealPlans.id, { onDelete: 'set null' }),
  /** Shared with this family: its members see and edit the list. */
  familyId: text('family_id').references(() => families.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
  updatedAt: updatedAt()
}, t => [
  index('grocery_lists_user_idx').on(t.userId, t.updatedAt),
  index('grocery_lists_family_idx').on(t.familyId)
])

export const groceryItems = pgTable('grocery_items', {
  id: id(),
  listId: text('list_id').notNull().references(() => groceryLists.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  quantity: doublePrecision('quantity'),
  unit: text('unit'),
  /** Aisle: produce, dairy, meat, bakery, pantry, spices, frozen, beverages, other... */
  category: text('category').notNull().default('other'),
  checked: boolean('checked').notNull().default(false),
  note: text('note'),
  position: integer('position').notNull().default(0),
  /** The planned recipes a gathered line came from, in plan order (a reader sees those they may still see). */
  sourceRecipeIds: text('source_recipe_ids').array().notNull().default(sql`'{}'::text[]`),
  createdAt: createdAt(),
  updatedAt: updatedAt()
}, t => [index('grocery_items_list_idx').on(t.listId, t.position)])
