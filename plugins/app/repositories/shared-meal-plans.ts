// Shares of meal plans with one user or with every member of a family (household-access.ts reads them to decide
// who sees and edits a plan). A share is seen by the plan's owner and sharer ("sent") and by its recipients
// ("received": the user, or the members of the family). Upserts on the partial unique indexes: sharing again with
// the same recipient updates the permission, never adds a row, also under concurrent requests.
import { createId } from '@paralleldrive/cuid2'
import fp from 'fastify-plugin'
import type { families, familyMembers, mealPlans, SharePermission, sharedMealPlans } from '../../../db/schema/index.js'
import type { ShareDirection, SharedMealPlanView } from '../../../schemas/meal-plans.js'
import type { Db } from '../../external/db.js'
import { familiesOf } from './household-access.js'
import { userColumns, type UserColumns } from './meal-plans.js'
import type { Page } from './recipes.js'
import type { Counted, Flagged } from './sql.js'

declare module 'fastify' {
  interface FastifyInstance {
    sharedMealPlansRepository: typeof sharedMealPlansRepository
  }
}

type MealPlan = typeof mealPlans.$inferSelect
type Family = typeof families.$inferSelect
type OrNull<T> = { [K in keyof T]: T[K] | null }

/** The share's id, and whether the upsert inserted it (`xmax = 0`) rather than updated it. */
type UpsertedShare = Pick<typeof sharedMealPlans.$inferSelect, 'id'> & Flagged<'created'>

/** A share with its plan, the plan's owner, the sharer and the recipient (a user or a family; the other's columns null). */
type ShareRow = Pick<typeof sharedMealPlans.$inferSelect, 'id' | 'permission' | 'createdAt'> &
  UserColumns<'owner'> & UserColumns<'sharer'> & OrNull<UserColumns<'recipient'>> & {
    direction: SharedMealPlanView['direction']
    planId: MealPlan['id']
    planName: MealPlan['name']
    planStartDate: MealPlan['startDate']
    planEndDate: MealPlan['endDate']
    familyId: Family['id'] | null
    familyName: Family['name'] | null
  }

/** `s` is a share of a plan `mp` the viewer owns or shared. */
const sentBy = (db: Db, viewerId: string) => db`(mp.user_id = ${viewerId} or s.shared_by = ${viewerId})`
/** `s` is a share with the viewer, directly or through one of their families. */
const receivedBy = (db: Db, viewerId: string) => db`(s.user_id = ${viewerId} or s.family_id in ${familiesOf(db, viewerId)})`

const selectShares = (db: Db, viewerId: string) => db`select s.id, s.permission, s.created_at,
  case when ${sentBy(db, viewerId)} then 'sent' else 'received' end as direction,
  mp.id as plan_id, mp.name as plan_name, mp.start_date::text as plan_start_date, mp.end_date::text as plan_end_date,
  ${userColumns(db, 'o', 'owner')}, ${userColumns(db, 'b', 'sharer')}, ${userColumns(db, 'ru', 'recipient')},
  f.id as family_id, f.name as family_name
  from shared_meal_plans s join meal_plans mp on mp.id = s.meal_plan_id join users o on o.id = mp.user_id
  join users b on b.id = s.shared_by left join users ru on ru.id = s.user_id left join families f on f.id = s.family_id`

function view (row: ShareRow): SharedMealPlanView {
  return {
    id: row.id,
    mealPlan: {
      id: row.planId,
      name: row.planName,
      startDate: row.planStartDate,
      endDate: row.planEndDate,
      owner: { id: row.ownerId, username: row.ownerUsername, firstName: row.ownerFirstName, lastName: row.ownerLastName, avatarUrl: row.ownerAvatarUrl }
    },
    permission: row.permission,
    sharedBy: { id: row.sharerId, username: row.sharerUsername, firstName: row.sharerFirstName, lastName: row.sharerLastName, avatarUrl: row.sharerAvatarUrl },
    user: row.recipientId == null
      ? null
      : { id: row.recipientId, username: row.recipientUsername ?? '', firstName: row.recipientFirstName, lastName: row.recipientLastName, avatarUrl: row.recipientAvatarUrl },
    family: row.familyId == null ? null : { id: row.familyId, name: row.familyName ?? '' },
    direction: row.direction,
    createdAt: row.createdAt.toISOString()
  }
}

export interface NewShare { mealPlanId: string, sharedBy: string, permission: SharePermission }

export const sharedMealPlansRepository = {
  /** A page of the shares the viewer sent (of their plans) or received (with them or a family of theirs), newest first. */
  async list (db: Db, viewerId: string, direction: ShareDirection, pageNo: number, limit: number): Promise<Page<SharedMealPlanView>> {
    const where = direction === 'sent'
      ? sentBy(db, viewerId)
      : direction === 'received'
        ? db`(not ${sentBy(db, viewerId)} and ${receivedBy(db, viewerId)})`
        : db`(${sentBy(db, viewerId)} or ${receivedBy(db, viewerId)})`
    const [rows, [{ total }]] = await Promise.all([
      db<ShareRow[]>`${selectShares(db, viewerId)} where ${where} order by s.created_at desc, s.id desc limit ${limit} offset ${(pageNo - 1) * limit}`,
      db<Array<Counted<'total'>>>`select count(*)::int as total from shared_meal_plans s join meal_plans mp on mp.id = s.meal_plan_id where ${where}`
    ])
    return { items: rows.map(view), total }
  },

  /** The share if the viewer sent or received it. */
  async find (db: Db, id: string, viewerId: string): Promise<SharedMealPlanView | null> {
    const [row] = await db<ShareRow[]>`${selectShares(db, viewerId)} where s.id = ${id} and (${sentBy(db, viewerId)} or ${receivedBy(db, viewerId)})`
    return row == null ? null : view(row)
  },

  /** The shares with these ids, as the viewer sees them, in the order given. */
  async findMany (db: Db, ids: string[], viewerId: string): Promise<SharedMealPlanView[]> {
    if (ids.length === 0) return []
    const rows = await db<ShareRow[]>`${selectShares(db, viewerId)} where s.id = any(${ids}::text[])`
    const byId = new Map(rows.map(row => [row.id, view(row)]))
    return ids.flatMap(id => byId.get(id) ?? [])
  },

  /** Shares the plan with a user, or sets the permission of the existing share; `created` tells which. */
  async upsertUser (db: Db, share: NewShare, userId: string): Promise<UpsertedShare> {
    const [row] = await db<UpsertedShare[]>`
      insert into shared_meal_plans (id, meal_plan_id, shared_by, user_id, permission)
      values (${createId()}, ${share.mealPlanId}, ${share.sharedBy}, ${userId}, ${share.permission})
      on conflict (meal_plan_id, user_id) where user_id is not null do update set permission = excluded.permission
      returning id, (xmax = 0) as created`
    return row
  },

  /** Shares the plan with a family, or sets the permission of the existing share; `created` tells which. */
  async upsertFamily (db: Db, share: NewShare, familyId: string): Promise<UpsertedShare> {
    const [row] = await db<UpsertedShare[]>`
      insert into shared_meal_plans (id, meal_plan_id, shared_by, family_id, permission)
      values (${createId()}, ${share.mealPlanId}, ${share.sharedBy}, ${familyId}, ${share.permission})
      on conflict (meal_plan_id, family_id) where family_id is not null do update set permission = excluded.permission
      returning id, (xmax = 0) as created`
    return row
  },

  /** Shares of the plan (users and families; each half on its partial unique index). */
  async countForPlan (db: Db, mealPlanId: string): Promise<number> {
    const [{ count }] = await db<Array<Counted<'count'>>>`select
      (select count(*) from shared_meal_plans where meal_plan_id = ${mealPlanId} and user_id is not null)::int +
      (select count(*) from shared_meal_plans where meal_plan_id = ${mealPlanId} and family_id is not null)::int as count`
    return count
  },

  async remove (db: Db, id: string): Promise<boolean> {
    const rows = await db`delete from shared_meal_plans where id = ${id} returning 1`
    return rows.length > 0
  },

  /** The ids of the family's members. */
  async familyMemberIds (db: Db, familyId: string): Promise<string[]> {
    const rows = await db<Array<Pick<typeof familyMembers.$inferSelect, 'userId'>>>`select user_id from family_members where family_id = ${familyId} order by joined_at, user_id`
    return rows.map(row => row.userId)
  }
}

export default fp(async fastify => {
  fastify.decorate('sharedMealPlansRepository', sharedMealPlansRepository)
}, { name: 'shared-meal-plans-repository' })
