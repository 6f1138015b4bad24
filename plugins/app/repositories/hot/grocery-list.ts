// A grocery list with its items as the JSON its page answers with, written by PostgreSQL in one statement: read as
// rows, its 40 items (each naming the recipes it came from) cost the service 1.1 ms of CPU a request in parsing,
// mapping and serialising, three times the statement's own work.
import { AISLES } from '../../../../lib/grocery.js'
import { RawJson } from '../../../../lib/raw-json.js'
import type { GroceryListView } from '../../../../schemas/grocery.js'
import type { Db } from '../../../external/db.js'
import { groceryListVisibleTo } from '../household-access.js'
import type { Fragment } from '../sql.js'
import { recipeVisibleTo } from '../visibility.js'
import { bytesRow } from './bytes-row.js'
import { isoTime } from './recipe-json.js'

/**
 * The recipes item `gi` came from, as the viewer may see them now, in plan order (JSON): a recipe deleted, made
 * private or hidden since the list was gathered drops out, and a family member never learns a private recipe's title.
 */
export const itemSources = (db: Db, viewerId: string): Fragment => db`coalesce((
    select json_agg(json_build_object('id', r.id, 'title', r.title, 'slug', r.slug) order by s.n)
    from unnest(gi.source_recipe_ids) with ordinality as s(id, n) join recipes r on r.id = s.id
    where ${recipeVisibleTo(db, viewerId)}), '[]')`

/** Items `gi` in aisle order (AISLES; unknown aisles last), then position. */
export const itemOrder = (db: Db): Fragment =>
  db`coalesce(array_position(${[...AISLES]}::text[], gi.category), ${AISLES.length}), gi.position, gi.created_at, gi.id`

/**
 * The list `id` with its counts and every item, as the GroceryList schema has it, or null when the viewer may not
 * see it. Every key is named here, so nothing else of the rows leaves; test/routes/api/grocerylists/lists.test.ts
 * holds it equal to the service's mapped rows (groceryListsRepository.find and .items). bench: grocery-detail.
 */
export async function groceryListJson (db: Db, id: string, viewerId: string): Promise<RawJson<GroceryListView> | null> {
  const { list } = await bytesRow(db`
      select json_build_object(
        'id', gl.id, 'name', gl.name, 'userId', gl.user_id, 'isOwner', gl.user_id = ${viewerId},
        'familyId', gl.family_id, 'mealPlanId', gl.meal_plan_id, 'itemCount', i.item_count, 'checkedCount', i.checked_count,
        'createdAt', ${isoTime(db, db`gl.created_at`)}, 'updatedAt', ${isoTime(db, db`gl.updated_at`)}, 'items', i.items) as list
      from grocery_lists gl
      cross join lateral (
        select count(*)::int as item_count, (count(*) filter (where gi.checked))::int as checked_count,
          coalesce(json_agg(json_build_object(
            'id', gi.id, 'name', gi.name, 'quantity', gi.quantity, 'unit', gi.unit,
            'category', case when gi.category = any(${[...AISLES]}::text[]) then gi.category else 'other' end,
            'checked', gi.checked, 'note', gi.note, 'position', gi.position, 'recipes', ${itemSources(db, viewerId)},
            'createdAt', ${isoTime(db, db`gi.created_at`)}, 'updatedAt', ${isoTime(db, db`gi.updated_at`)})
            order by ${itemOrder(db)}), '[]') as items
        from grocery_items gi where gi.list_id = gl.id) i
      where gl.id = ${id} and ${groceryListVisibleTo(db, viewerId)}`)
  return list == null ? null : new RawJson<GroceryListView>(list)
}
