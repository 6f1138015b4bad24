// Meal plans: the owner's and those shared with the viewer (directly or through a family). Who sees and edits a plan
// is household-access.ts (`mp` is the meal_plans alias); reads return the viewer's access with each plan.
import { createId } from '@paralleldrive/cuid2'
import fp from 'fastify-plugin'
import type { mealPlans, users } from '../../../db/schema/index.js'
import type { MealPlanAccess, MealPlanScope, MealPlanView } from '../../../schemas/meal-plans.js'
import type { Db } from '../../external/db.js'
import { familiesOf, mealPlanEditableBy, mealPlanVisibleTo } from './household-access.js'
import type { Page } from './recipes.js'
import type { Counted } from './sql.js'

declare module 'fastify' {
  interface FastifyInstance {
    mealPlansRepository: typeof mealPlansRepository
  }
}

type MealPlanRow = typeof mealPlans.$inferSelect
export type NewMealPlan = Pick<MealPlanRow, 'userId' | 'name' | 'description' | 'startDate' | 'endDate'>
export type MealPlanPatch = Partial<Pick<MealPlanRow, 'name' | 'description' | 'startDate' | 'endDate'>>

/** A plan as the rules need it: its owner, its dates and the viewer's access. */
export interface MealPlanAccessRow extends Pick<MealPlanRow, 'id' | 'userId' | 'name' | 'startDate' | 'endDate'> {
  access: MealPlanAccess
}

type User = typeof users.$inferSelect
type UserColumn = 'id' | 'username' | 'firstName' | 'lastName' | 'avatarUrl'

/** The columns `userColumns(db, alias, prefix)` selects, as a row reads them (`ownerId`, `ownerUsername`...). */
export type UserColumns<P extends string> = { [K in UserColumn as `${P}${Capitalize<K>}`]: User[K] }

interface ViewRow extends Omit<MealPlanRow, 'userId'>, Pick<MealPlanView, 'plannedMealCount'>, UserColumns<'owner'> {
  access: MealPlanAccess
}

/** `case` of the viewer's access to `mp` (visible already). */
const accessOf = (db: Db, viewerId: string) =>
  db`(case when mp.user_id = ${viewerId} then 'owner' when ${mealPlanEditableBy(db, viewerId)} then 'edit' else 'view' end)`

/**
 * The ids of the plans the viewer may see. The inner union is an index-friendly superset (own plans by
 * meal_plans_user_start_idx, shares by the recipient indexes) so lists never scan every plan; `mealPlanVisibleTo`
 * stays the rule that decides.
 */
export function visiblePlanIds (db: Db, viewerId: string) {
  return db`(select mp.id from meal_plans mp where mp.id in (
      select p.id from meal_plans p where p.user_id = ${viewerId}
      union
      select s.meal_plan_id from shared_meal_plans s where s.user_id = ${viewerId} or s.family_id in ${familiesOf(db, viewerId)})
    and ${mealPlanVisibleTo(db, viewerId)})`
}

/** The public columns of a user `alias` as `<prefix>_id`, `<prefix>_username`... */
export function userColumns (db: Db, alias: string, prefix: string) {
  return db.unsafe(`${alias}.id as ${prefix}_id, ${alias}.username as ${prefix}_username, ${alias}.first_name as ${prefix}_first_name, ` +
    `${alias}.last_name as ${prefix}_last_name, ${alias}.avatar_url as ${prefix}_avatar_url`)
}

const planColumns = (db: Db, viewerId: string) => db`
  mp.id, mp.name, mp.description, mp.start_date::text as start_date, mp.end_date::text as end_date, mp.created_at, mp.updated_at,
  ${accessOf(db, viewerId)} as access,
  (select count(*)::int from planned_meals pm where pm.meal_plan_id = mp.id) as planned_meal_count,
  ${userColumns(db, 'o', 'owner')}`

function view (row: ViewRow): MealPlanView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    startDate: row.startDate,
    endDate: row.endDate,
    owner: {
      id: row.ownerId,
      username: row.ownerUsername,
      firstName: row.ownerFirstName,
      lastName: row.ownerLastName,
      avatarUrl: row.ownerAvatarUrl
    },
    access: row.access,
    plannedMealCount: row.plannedMealCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString()
  }
}

export const mealPlansRepository = {
  /** A page of the plans the viewer may see (`scope`: theirs, shared with them, or both), latest start first. */
  async list (db: Db, viewerId: string, scope: MealPlanScope, pageNo: number, limit: number): Promise<Page<MealPlanView>> {
    const where = scope === 'owned'
      ? db`mp.user_id = ${viewerId}`
      : db`mp.id in ${visiblePlanIds(db, viewerId)} ${scope === 'shared' ? db`and mp.user_id <> ${viewerId}` : db``}`
    const [rows, [{ total }]] = await Promise.all([
      db<ViewRow[]>`select ${planColumns(db, viewerId)} from meal_plans mp join users o on o.id = mp.user_id
        where ${where} order by mp.start_date desc, mp.created_at desc, mp.id desc limit ${limit} offset ${(pageNo - 1) * limit}`,
      db<Array<Counted<'total'>>>`select count(*)::int as total from meal_plans mp where ${where}`
    ])
    return { items: rows.map(view), total }
  },

  /** The plan if the viewer may see it. */
  async find (db: Db, id: string, viewerId: string): Promise<MealPlanView | null> {
    const [row] = await db<ViewRow[]>`select ${planColumns(db, viewerId)} from meal_plans mp join users o on o.id = mp.user_id
      where mp.id = ${id} and ${mealPlanVisibleTo(db, viewerId)}`
    return row == null ? null : view(row)
  },

  /** The plan's owner, dates and the viewer's access, if the viewer may see it. */
  async access (db: Db, id: string, viewerId: string): Promise<MealPlanAccessRow | null> {
    const [row] = await db<MealPlanAccessRow[]>`select mp.id, mp.user_id, mp.name, mp.start_date::text as start_date,
      mp.end_date::text as end_date, ${accessOf(db, viewerId)} as access
      from meal_plans mp where mp.id = ${id} and ${mealPlanVisibleTo(db, viewerId)}`
    return row ?? null
  },

  /**
   * Locks the plan's row for the rest of the transaction: its planned meals (count, dates), its shares and its own
   * dates then change one writer at a time.
   */
  async lock (db: Db, id: string): Promise<void> {
    await db`select 1 from meal_plans where id = ${id} for update`
  },

  async countOwned (db: Db, userId: string): Promise<number> {
    const [{ count }] = await db<Array<Counted<'count'>>>`select count(*)::int as count from meal_plans where user_id = ${userId}`
    return count
  },

  async insert (db: Db, plan: NewMealPlan): Promise<string> {
    const id = createId()
    await db`insert into meal_plans ${db({ id, ...plan })}`
    return id
  },

  async update (db: Db, id: string, changes: MealPlanPatch): Promise<void> {
    const set = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined))
    if (Object.keys(set).length === 0) return
    await db`update meal_plans set ${db(set)}, updated_at = now() where id = ${id}`
  },

  /** Deletes the plan; its planned meals and shares go with it (foreign keys). */
  async remove (db: Db, id: string): Promise<boolean> {
    const rows = await db`delete from meal_plans where id = ${id} returning 1`
    return rows.length > 0
  },

  /** How many of the plan's planned meals fall outside `startDate`..`endDate`. */
  async mealsOutside (db: Db, id: string, startDate: string, endDate: string): Promise<number> {
    const [{ count }] = await db<Array<Counted<'count'>>>`select count(*)::int as count from planned_meals
      where meal_plan_id = ${id} and (date < ${startDate}::date or date > ${endDate}::date)`
    return count
  }
}

export default fp(async fastify => {
  fastify.decorate('mealPlansRepository', mealPlansRepository)
}, { name: 'meal-plans-repository' })
