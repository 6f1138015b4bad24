// Grocery lists and their items. Who sees a list is `groceryListVisibleTo` (household-access.ts): its owner and the
// members of the family it is shared with; every read and change here goes through it or takes a list the service
// has already found that way. Also the one read grocery lists need from meal plans: the ingredients of a plan.
import { createId } from '@paralleldrive/cuid2'
import fp from 'fastify-plugin'
import type { groceryItems, groceryLists, mealPlans, plannedMeals, recipes } from '../../../db/schema/index.js'
import { aisleOf } from '../../../lib/grocery.js'
import type { GroceryItemView, GroceryListSummaryView } from '../../../schemas/grocery.js'
import type { Db } from '../../external/db.js'
import { groceryListVisibleTo, mealPlanVisibleTo } from './household-access.js'
import type { Page } from './recipes.js'
import { groceryListJson, itemOrder, itemSources } from './hot/grocery-list.js'
import { recipeVisibleTo } from './visibility.js'
import type { Counted } from './sql.js'

declare module 'fastify' {
  interface FastifyInstance {
    groceryListsRepository: typeof groceryListsRepository
  }
}

type ListRow = typeof groceryLists.$inferSelect & Pick<GroceryListSummaryView, 'itemCount' | 'checkedCount'>
/** An item with the recipes it came from that the reader may see (`sources`, in plan order). */
type ItemRow = typeof groceryItems.$inferSelect & { sources: GroceryItemView['recipes'] }

export type NewGroceryList = Pick<typeof groceryLists.$inferInsert, 'userId' | 'name' | 'mealPlanId' | 'familyId'>
export type GroceryListChangeSet = Partial<Pick<typeof groceryLists.$inferInsert, 'name' | 'familyId'>>
export type NewGroceryItem = Pick<typeof groceryItems.$inferInsert, 'name' | 'quantity' | 'unit' | 'category' | 'checked' | 'note' | 'sourceRecipeIds'>
export type GroceryItemChangeSet = Partial<Pick<typeof groceryItems.$inferInsert, 'name' | 'quantity' | 'unit' | 'category' | 'checked' | 'note' | 'position'>>

type Recipe = typeof recipes.$inferSelect

/** A list as the service checks it: who owns it and whom it is shared with. */
export type GroceryListAccess = Pick<typeof groceryLists.$inferSelect, 'id' | 'userId' | 'familyId'>

/** One ingredient line of a recipe planned in a meal plan, with what scales it. */
export interface PlannedIngredients {
  recipeId: Recipe['id']
  plannedServings: (typeof plannedMeals.$inferSelect)['servings']
  recipeServings: Recipe['servings']
  /** Null on every meal of the recipe but its first. */
  ingredients: Recipe['ingredients'] | null
}

const summaryColumns = (db: Db) => db`
  gl.id, gl.user_id, gl.name, gl.meal_plan_id, gl.family_id, gl.created_at, gl.updated_at,
  (select count(*)::int from grocery_items gi where gi.list_id = gl.id) as item_count,
  (select count(*)::int from grocery_items gi where gi.list_id = gl.id and gi.checked) as checked_count`

function summary (row: ListRow, viewerId: string): GroceryListSummaryView {
  return {
    id: row.id,
    name: row.name,
    userId: row.userId,
    isOwner: row.userId === viewerId,
    familyId: row.familyId,
    mealPlanId: row.mealPlanId,
    itemCount: row.itemCount,
    checkedCount: row.checkedCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString()
  }
}

function item (row: ItemRow): GroceryItemView {
  return {
    id: row.id,
    name: row.name,
    quantity: row.quantity,
    unit: row.unit,
    category: aisleOf(row.category),
    checked: row.checked,
    note: row.note,
    position: row.position,
    recipes: row.sources,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString()
  }
}

/** An item's columns and the recipes it came from, as the reader may see them now (`sources`, hot/grocery-list.ts). */
const itemColumns = (db: Db, viewerId: string) => db`gi.*, ${itemSources(db, viewerId)} as sources`

const defined = <T extends object>(changes: T) => Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined))

export const groceryListsRepository = {
  /** A page of the lists the viewer sees (own and shared with their families), most recently changed first. */
  async list (db: Db, viewerId: string, pageNo: number, limit: number): Promise<Page<GroceryListSummaryView>> {
    const [rows, [{ total }]] = await Promise.all([
      db<ListRow[]>`select ${summaryColumns(db)} from grocery_lists gl where ${groceryListVisibleTo(db, viewerId)}
        order by gl.updated_at desc, gl.id desc limit ${limit} offset ${(pageNo - 1) * limit}`,
      db<Array<Counted<'total'>>>`select count(*)::int as total from grocery_lists gl where ${groceryListVisibleTo(db, viewerId)}`
    ])
    return { items: rows.map(row => summary(row, viewerId)), total }
  },

  /** The list with its counts and items as the JSON of GroceryList, if the viewer sees it (one statement). */
  json: groceryListJson,

  /** The list with its counts, if the viewer sees it. */
  async find (db: Db, id: string, viewerId: string): Promise<GroceryListSummaryView | null> {
    const [row] = await db<ListRow[]>`select ${summaryColumns(db)} from grocery_lists gl
      where gl.id = ${id} and ${groceryListVisibleTo(db, viewerId)}`
    return row == null ? null : summary(row, viewerId)
  },

  /**
   * The list if the viewer sees it, its row locked for the rest of the transaction (so item counts and positions
   * are exact under concurrent adds, and a concurrent delete or unshare waits).
   */
  async lockVisible (db: Db, id: string, viewerId: string): Promise<GroceryListAccess | null> {
    const [row] = await db<GroceryListAccess[]>`select gl.id, gl.user_id, gl.family_id from grocery_lists gl
      where gl.id = ${id} and ${groceryListVisibleTo(db, viewerId)} for update`
    return row ?? null
  },

  /** Every item of a list, in aisle order, then position. */
  async items (db: Db, listId: string, viewerId: string): Promise<GroceryItemView[]> {
    const rows = await db<ItemRow[]>`select ${itemColumns(db, viewerId)} from grocery_items gi where gi.list_id = ${listId}
      order by ${itemOrder(db)}`
    return rows.map(item)
  },

  async item (db: Db, listId: string, itemId: string, viewerId: string): Promise<GroceryItemView | null> {
    const [row] = await db<ItemRow[]>`select ${itemColumns(db, viewerId)} from grocery_items gi where gi.id = ${itemId} and gi.list_id = ${listId}`
    return row == null ? null : item(row)
  },

  async countOwned (db: Db, userId: string): Promise<number> {
    const [{ count }] = await db<Array<Counted<'count'>>>`select count(*)::int as count from grocery_lists where user_id = ${userId}`
    return count
  },

  async countItems (db: Db, listId: string): Promise<number> {
    const [{ count }] = await db<Array<Counted<'count'>>>`select count(*)::int as count from grocery_items where list_id = ${listId}`
    return count
  },

  async insert (db: Db, list: NewGroceryList): Promise<string> {
    const id = createId()
    await db`insert into grocery_lists ${db({ id, ...list })}`
    return id
  },

  async update (db: Db, id: string, changes: GroceryListChangeSet): Promise<void> {
    const set = defined(changes)
    if (Object.keys(set).length === 0) return
    await db`update grocery_lists set ${db(set)}, updated_at = now() where id = ${id}`
  },

  /** Marks the list changed (its items moved): lists are ordered by their last change. */
  async touch (db: Db, id: string): Promise<void> {
    await db`update grocery_lists set updated_at = now() where id = ${id}`
  },

  async remove (db: Db, id: string): Promise<void> {
    await db`delete from grocery_lists where id = ${id}`
  },

  /** Appends items after the list's last position, in the given order; returns their ids. Lock the list first. */
  /** Appends items after the list's last position (`first`: the position to start at, when the caller knows it). */
  async insertItems (db: Db, listId: string, items: NewGroceryItem[], first?: number): Promise<string[]> {
    if (items.length === 0) return []
    const next = first ?? (await db<Array<Counted<'next'>>>`
      select coalesce(max(position) + 1, 0)::int as next from grocery_items where list_id = ${listId}`)[0].next
    const rows = items.map((fields, i) => ({ id: createId(), listId, ...fields, position: next + i }))
    await db`insert into grocery_items ${db(rows.map(row => ({ ...row, sourceRecipeIds: row.sourceRecipeIds ?? [] })),
      'id', 'listId', 'name', 'quantity', 'unit', 'category', 'checked', 'note', 'position', 'sourceRecipeIds')}`
    return rows.map(row => row.id)
  },

  async updateItem (db: Db, listId: string, itemId: string, changes: GroceryItemChangeSet, viewerId: string): Promise<GroceryItemView | null> {
    const set = defined(changes)
    if (Object.keys(set).length > 0) {
      const changed = await db`update grocery_items set ${db(set)}, updated_at = now() where id = ${itemId} and list_id = ${listId} returning 1`
      if (changed.length === 0) return null
    }
    return await groceryListsRepository.item(db, listId, itemId, viewerId)
  },

  async removeItem (db: Db, listId: string, itemId: string): Promise<boolean> {
    const rows = await db`delete from grocery_items where id = ${itemId} and list_id = ${listId} returning 1`
    return rows.length > 0
  },

  /** Checks or unchecks every item; returns how many changed. */
  async setAllChecked (db: Db, listId: string, checked: boolean): Promise<number> {
    const rows = await db`update grocery_items set checked = ${checked}, updated_at = now()
      where list_id = ${listId} and checked <> ${checked} returning 1`
    return rows.length
  },

  /** Removes the checked items; returns how many. */
  async removeChecked (db: Db, listId: string): Promise<number> {
    const rows = await db`delete from grocery_items where list_id = ${listId} and checked returning 1`
    return rows.length
  },

  /** The meal plan's name, if the viewer may see the plan (owner, or shared with them or their family). */
  async visibleMealPlan (db: Db, mealPlanId: string, viewerId: string): Promise<{ id: string, name: string } | null> {
    const [row] = await db<Array<Pick<typeof mealPlans.$inferSelect, 'id' | 'name'>>>`select mp.id, mp.name from meal_plans mp
      where mp.id = ${mealPlanId} and ${mealPlanVisibleTo(db, viewerId)}`
    return row ?? null
  },

  /**
   * The recipes planned in a meal plan that the viewer may still see, one row per planned meal (a recipe planned
   * twice counts twice), with the servings that scale them. Meals with a custom title and no recipe bring nothing.
   */
  async plannedIngredients (db: Db, mealPlanId: string, viewerId: string): Promise<PlannedIngredients[]> {
    // Each visible recipe's ingredients once (its first meal's row), the servings of every meal.
    return await db<PlannedIngredients[]>`select pm.recipe_id, pm.servings as planned_servings, r.servings as recipe_servings,
        case when row_number() over (partition by pm.recipe_id order by pm.date, pm.created_at, pm.id) = 1 then r.ingredients end as ingredients
      from planned_meals pm join recipes r on r.id = pm.recipe_id
      where pm.meal_plan_id = ${mealPlanId} and ${recipeVisibleTo(db, viewerId)}
      order by pm.date, pm.created_at, pm.id`
  }
}

export default fp(async fastify => {
  fastify.decorate('groceryListsRepository', groceryListsRepository)
}, { name: 'grocery-lists-repository' })
