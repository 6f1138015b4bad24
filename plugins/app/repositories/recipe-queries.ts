// The queries behind the recipe lists: sort orders, filters, ids-first pages and the capped count. The repository
// (recipes.ts) and the measured pages (hot/recipe-pages.ts, hot/recipe-search.ts) compose them; they take the caller's
// handle like the repository does.
import type { RecipeFilters, RecipeSort, RecipeView } from '../../../schemas/recipes.js'
import type { recipes } from '../../../db/schema/index.js'
import { json, type Db } from '../../external/db.js'
import { mapRecipe, recipeColumns, type RecipeViewRow } from './recipe-rows.js'
import { countUpTo as countRowsUpTo, escapeLike, type Counted } from './sql.js'
import { listedRecipe } from './visibility.js'

export interface Page<T> { items: T[], total: number }
/** A page of a list whose total is counted separately: `hasNext` comes from one row past the page. */
export interface Slice<T> { items: T, hasNext: boolean }
export type Fragment = ReturnType<typeof listedRecipe>
type IdRow = Pick<typeof recipes.$inferSelect, 'id'>

export { escapeLike } from './sql.js'

export function orderBy (db: Db, sort: RecipeSort) {
  switch (sort) {
    // Tie-breakers run in the same direction as the main key, so the listing indexes serve the order directly.
    case 'oldest': return db`r.created_at asc, r.id asc`
    case 'popular': return db`r.like_count desc, r.created_at desc, r.id desc`
    case 'rating': return db`(case when r.rating_count = 0 then 0 else r.rating_sum::numeric / r.rating_count end) desc, r.rating_count desc, r.id`
    case 'title': return db`lower(r.title) asc, r.id`
    default: return db`r.created_at desc, r.id desc`
  }
}

/**
 * `select <columns> from recipes r where <where>` in the sort's order, for a limit to cut. The popular order walks
 * recipe_popularity's index (migration 0024: like_count is not indexed on recipes, so likes are HOT updates), joining
 * each recipe for `where`; its like_count and created_at equal the recipe's, so the order is orderBy('popular').
 */
export function inOrder (db: Db, columns: Fragment, where: Fragment, sort: RecipeSort): Fragment {
  if (sort === 'popular') {
    return db`select ${columns} from recipe_popularity p join recipes r on r.id = p.recipe_id
      where p.listed and ${where} order by p.like_count desc, p.created_at desc, p.recipe_id desc`
  }
  return db`select ${columns} from recipes r where ${where} order by ${orderBy(db, sort)}`
}

/**
 * Up to `count` recipes of `where` in the sort's order from `offset` on: the ids first (a small statement), then the
 * full columns of those rows only (byIds), so skipped rows of a deep page cost an index entry each.
 */
export async function rows (db: Db, where: Fragment, sort: RecipeSort, viewerId: string | null, offset: number, count: number): Promise<RecipeView[]> {
  return await byIds(db, await idsOf(db, where, sort, offset, count), viewerId)
}

/** Ids of up to `count` recipes of `where` in the sort's order from `offset` on (a small statement). */
export async function idsOf (db: Db, where: Fragment, sort: RecipeSort, offset: number, count: number): Promise<string[]> {
  const found = await db<IdRow[]>`${inOrder(db, db`r.id`, where, sort)} limit ${count} offset ${offset}`
  return found.map(row => row.id)
}

/**
 * The full recipe columns of `ids`, in that order (ids no longer there are left out). Planning this statement costs
 * about a millisecond, so it must keep one prepared plan: PostgreSQL reuses a generic plan only when it is estimated
 * no dearer than the plans made for the actual values. A LIMIT parameter (estimated at 10% of the rows) or an array
 * (unnest sizes a known array exactly, an unknown one at 100) makes them differ, and the statement was planned anew
 * on every request. The ids travel as JSON, which jsonb_array_elements_text sizes at 100 rows either way.
 */
export async function byIds (db: Db, ids: string[], viewerId: string | null): Promise<RecipeView[]> {
  if (ids.length === 0) return []
  const found = await db<RecipeViewRow[]>`select ${recipeColumns(db, viewerId)}
    from jsonb_array_elements_text(${json(db, ids)}) with ordinality p(id, n)
    join recipes r on r.id = p.id join users a on a.id = r.author_id
    order by p.n`
  return found.map(mapRecipe)
}

export async function page (db: Db, where: Fragment, sort: RecipeSort, viewerId: string | null, pageNo: number, limit: number): Promise<Page<RecipeView>> {
  const [items, [{ total }]] = await Promise.all([
    rows(db, where, sort, viewerId, (pageNo - 1) * limit, limit),
    db<Array<Counted<'total'>>>`select count(*)::int as total from recipes r where ${where}`
  ])
  return { items, total }
}

/** How many rows match, counting no further than `cap` (the count stops there). */
export async function countUpTo (db: Db, where: Fragment, cap: number): Promise<number> {
  return await countRowsUpTo(db, db`recipes r`, where, cap)
}

/** The listing conditions of every filter but `search` (which list() splits into its two phases). */
export function filtered (db: Db, filters: RecipeFilters): Fragment {
  return allOf(db, filterConditions(db, filters))
}

/** The conditions `filtered` joins: listedRecipe first, then one per filter given (the search is not one). */
export function filterConditions (db: Db, filters: RecipeFilters): Fragment[] {
  const conditions = [listedRecipe(db)]
  if (filters.type != null) conditions.push(db`r.type = ${filters.type}`)
  if (filters.difficulty != null) conditions.push(db`r.difficulty = ${filters.difficulty}`)
  if (filters.cuisine != null) conditions.push(db`lower(r.cuisine) = ${filters.cuisine.toLowerCase()}`)
  // A recipe with no time at all is not known to fit in maxTime.
  if (filters.maxTime != null) conditions.push(db`coalesce(r.total_time, r.prep_time + r.cook_time, r.prep_time, r.cook_time) <= ${filters.maxTime}`)
  if (filters.author != null) conditions.push(db`r.author_id = (select id from users where username_key = ${filters.author.normalize('NFKC').toLowerCase()})`)
  if (filters.tag != null) {
    conditions.push(db`exists (select 1 from recipe_tags rt join tags t on t.id = rt.tag_id where rt.recipe_id = r.id and t.slug = ${filters.tag})`)
  }
  return conditions
}

/** The conditions joined with `and` (at least one). */
export const allOf = (db: Db, conditions: Fragment[]): Fragment => conditions.reduce((acc, c) => db`${acc} and ${c}`)

/** The search text as matched (lower-cased, trimmed; '' for none) and its LIKE pattern with wildcards literal. */
export function searchTerm (filters: RecipeFilters): { text: string, pattern: string } {
  const text = filters.search?.trim().toLowerCase() ?? ''
  return { text, pattern: `%${escapeLike(text)}%` }
}
