// Who may see and change the household resources, as SQL conditions every query reuses (as visibility.ts does for
// recipes). Aliases: `mp` meal_plans, `gl` grocery_lists.
import type { Db } from '../../external/db.js'

/** The ids of the families the user belongs to (a subquery). */
export function familiesOf (db: Db, userId: string) {
  return db`(select fm.family_id from family_members fm where fm.user_id = ${userId})`
}

/** The plan's owner, a user it is shared with, or a member of a family it is shared with. */
export function mealPlanVisibleTo (db: Db, userId: string) {
  return db`(mp.user_id = ${userId} or exists (
    select 1 from shared_meal_plans s
    where s.meal_plan_id = mp.id and (s.user_id = ${userId} or s.family_id in ${familiesOf(db, userId)})))`
}

/** The plan's owner, or a recipient of an `edit` share (directly or through a family). */
export function mealPlanEditableBy (db: Db, userId: string) {
  return db`(mp.user_id = ${userId} or exists (
    select 1 from shared_meal_plans s
    where s.meal_plan_id = mp.id and s.permission = 'edit'
      and (s.user_id = ${userId} or s.family_id in ${familiesOf(db, userId)})))`
}

/** The list's owner, or a member of the family it is shared with (members edit shared lists). */
export function groceryListVisibleTo (db: Db, userId: string) {
  return db`(gl.user_id = ${userId} or gl.family_id in ${familiesOf(db, userId)})`
}
