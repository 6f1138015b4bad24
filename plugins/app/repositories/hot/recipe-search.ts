// The listing's search (and its filtered pages): three paths chosen by how many recipes match, each planned once for
// every term. README.md, "Search", says why.
import { RECIPE_SORTS, type RecipeFilters, type RecipeSort, type RecipeView } from '../../../../schemas/recipes.js'
import { RawJson } from '../../../../lib/raw-json.js'
import type { Db } from '../../../external/db.js'
import { allOf, countUpTo, filterConditions, idsOf, inOrder, orderBy, searchTerm, type Fragment, type Slice } from '../recipe-queries.js'
import { listedRecipe } from '../visibility.js'
import { bytesRow, integer } from './bytes-row.js'
import { byIdsJson, pageItems, pageJson, pageSize, pageThen } from './recipe-pages.js'
import { reusedPart } from './sql.js'

/** A search matching at most this many recipes sorts them all (searchPage); more are looked for in order first. */
export const SMALL_SEARCH = 1000

/** Sorts an index serves in order, so a window of the listing's first rows is cheap to walk. */
const INDEXED_SORTS = new Set<RecipeSort>(['newest', 'oldest', 'popular'])
/** The fewest listing rows a search looks through in order before it collects every match instead. */
const SEARCH_WINDOW = 500

/** How many of the listing's first rows a search looks through for `count` matches from `offset` on. */
const searchWindow = (offset: number, count: number): number => Math.max(SEARCH_WINDOW, 4 * (offset + count))

/**
 * A search's term and offset, as the `q` CTE its statement starts with (read as `(select pattern from q)`), and the
 * signed-in viewer as `viewer` after it. The rest of the statement is then the same for every term and viewer, so a
 * search alone (no other filter) builds it once per sort and size, as the first listed page does; built per request,
 * its parts were what V8 promoted to the old generation under load. Hidden in the CTE, the term does not change the
 * plan either (hiddenValue says why that matters).
 */
const searchStatement = (db: Db, pattern: string, offset: number, viewerId: string | null, rest: Fragment) => {
  const q = db`q as materialized (select ${pattern}::text as pattern, ${offset}::int as skip)`
  return viewerId == null ? db`with ${q}, ${rest}` : db`with ${q}, viewer as materialized (select ${viewerId}::text as id), ${rest}`
}

const termOf = (db: Db) => db`(select pattern from q)`
const viewerOf = (db: Db, signedIn: boolean) => signedIn ? db`(select id from viewer)` : null

/**
 * searchPage's statement after searchStatement's CTEs: every match of title or ingredients (a bitmap over both
 * trigram indexes), title matches first, in the sort's order. That first sort key is no index's, so no plan (custom or
 * generic) can walk the listing in order and read every row for a rare term.
 */
const allMatchesPage = (db: Db, where: Fragment, sort: RecipeSort, signedIn: boolean, limit: number) => {
  const size = pageSize(db, limit)
  const term = termOf(db)
  return pageThen(db, db`
    select r.id from recipes r where ${where} and (lower(r.title) like ${term} or r.ingredients_text like ${term})
    order by lower(r.title) like ${term} desc, ${orderBy(db, sort)} limit ${size.take} offset (select skip from q)`,
  pageJson(db, viewerOf(db, signedIn), size.limit))
}
/** bench: search-rare. */
const searchAlonePage = reusedPart(RECIPE_SORTS.length * 50 * 2, (db, sort: RecipeSort, limit: number, signedIn: string) =>
  allMatchesPage(db, listedRecipe(db), sort, signedIn === 'viewer', limit))

/**
 * windowPage's statement after searchStatement's CTEs: the title matches among the listing's first `window` rows in
 * order. `window` is a power of two written into the text (a few texts in all), as pageSize says why.
 */
const windowMatchesPage = (db: Db, where: Fragment, sort: RecipeSort, signedIn: boolean, limit: number, window: number) => {
  const size = pageSize(db, limit)
  const columns = db`r.id, r.title, r.created_at, r.like_count`
  return pageThen(db, db`
    select r.id from (${inOrder(db, columns, where, sort)} limit ${db.unsafe(String(window))}) r
    where lower(r.title) like ${termOf(db)} order by ${orderBy(db, sort)} limit ${size.take} offset (select skip from q)`,
  pageJson(db, viewerOf(db, signedIn), size.limit))
}
/** bench: search-common. */
const searchAloneWindow = reusedPart(INDEXED_SORTS.size * 50 * 2 * 8, (db, sort: RecipeSort, limit: number, signedIn: string, window: number) =>
  windowMatchesPage(db, listedRecipe(db), sort, signedIn === 'viewer', limit, window))

/** A search page in one statement when matches are few (allMatchesPage). `where` null: the search alone. */
async function searchPage (db: Db, where: Fragment | null, pattern: string, sort: RecipeSort, viewerId: string | null, offset: number, limit: number) {
  const rest = where == null
    ? searchAlonePage(db, sort, limit, viewerId == null ? 'anonymous' : 'viewer')
    : allMatchesPage(db, where, sort, viewerId != null, limit)
  const row = await bytesRow(searchStatement(db, pattern, offset, viewerId, rest))
  return { items: pageItems(row), hasNext: integer(row.found) > limit }
}

/**
 * A search page of title matches among the listing's first rows in order (windowMatchesPage), in one statement;
 * null when the window does not hold a whole page and one more (then matchingIds collects every match).
 */
async function windowPage (db: Db, where: Fragment | null, pattern: string, sort: RecipeSort, viewerId: string | null, offset: number, limit: number) {
  if (!INDEXED_SORTS.has(sort)) return null
  const window = 2 ** Math.ceil(Math.log2(searchWindow(offset, limit + 1)))
  const rest = where == null
    ? searchAloneWindow(db, sort, limit, viewerId == null ? 'anonymous' : 'viewer', window)
    : windowMatchesPage(db, where, sort, viewerId != null, limit, window)
  const row = await bytesRow(searchStatement(db, pattern, offset, viewerId, rest))
  return integer(row.found) > limit ? { items: pageItems(row), hasNext: true } : null
}

/**
 * Ids of up to `count` recipes of `where` and a text `match` in the sort's order, from `offset` on. Statements are
 * prepared, so PostgreSQL may plan once for every search term: a plan that walks the listing in order stops early for a
 * common term and reads everything for a rare one. So the walk is bounded (the first rows of the listing in order,
 * then the match); when that window does not hold the page, every match is collected (trigram indexes) and sorted,
 * which is cheap exactly when matches are few. bench: none (deep pages of a common search).
 */
async function matchingIds (db: Db, where: Fragment, match: Fragment, sort: RecipeSort, offset: number, count: number): Promise<string[]> {
  const order = orderBy(db, sort)
  const columns = db`r.id, r.title, r.ingredients_text, r.created_at, r.like_count, r.rating_sum, r.rating_count`
  if (INDEXED_SORTS.has(sort)) {
    const found = await db<Array<{ id: string }>>`select r.id from (${inOrder(db, columns, where, sort)} limit ${searchWindow(offset, count)}) r
      where ${match} order by ${order} limit ${count} offset ${offset}`
    if (found.length === count) return found.map(row => row.id)
  }
  const found = await db<Array<{ id: string }>>`with r as materialized (select ${columns} from recipes r where ${where} and ${match})
    select r.id from r order by ${order} limit ${count} offset ${offset}`
  return found.map(row => row.id)
}

/**
 * `limit` recipes of `where` in the sort's order from `offset` on, as JSON text (byIdsJson), and whether more follow
 * (one id past them): a filtered listing without a search. bench: none (it shares byIdsJson).
 */
async function sliceOf (db: Db, where: Fragment, sort: RecipeSort, viewerId: string | null, offset: number, limit: number): Promise<Slice<RawJson<RecipeView[]>>> {
  const ids = await idsOf(db, where, sort, offset, limit + 1)
  return { items: await byIdsJson(db, ids.slice(0, limit), viewerId), hasNext: ids.length > limit }
}

/**
 * A page of the public listing for these filters. A search lists title matches first, then recipes matching only by
 * ingredient, each part in the requested order. `matches` is how many recipes match, when known exactly (the
 * counted total): with none from this page on, no statement runs; with at most SMALL_SEARCH, one statement collects
 * them all from the trigram indexes, sorts them and writes the page (searchPage); with more, a window of the
 * listing's first rows usually holds the page (windowPage), else the two phases run one after the other (matchingIds).
 * bench: search-common (windowPage), search-rare (searchPage), search-zero (no statement), mixed.
 */
export async function listPage (db: Db, filters: RecipeFilters, viewerId: string | null, pageNo: number, limit: number, matches: number | null = null): Promise<Slice<RawJson<RecipeView[]>>> {
  const conditions = filterConditions(db, filters)
  const where = allOf(db, conditions)
  const sort = filters.sort ?? 'newest'
  const offset = (pageNo - 1) * limit
  const search = searchTerm(filters)
  if (search.text === '') return await sliceOf(db, where, sort, viewerId, offset, limit)
  if (matches != null && matches <= offset) return { items: new RawJson('[]'), hasNext: false }
  // The search alone (listedRecipe is the only condition): its page statements are built once (searchStatement).
  const only = conditions.length === 1 ? null : where
  if (matches != null && matches <= SMALL_SEARCH) return await searchPage(db, only, search.pattern, sort, viewerId, offset, limit)
  const windowed = await windowPage(db, only, search.pattern, sort, viewerId, offset, limit)
  if (windowed != null) return windowed
  const inTitle = db`lower(r.title) like ${search.pattern}`
  let ids = await matchingIds(db, where, inTitle, sort, offset, limit + 1)
  if (ids.length <= limit) {
    // The title matches end on this page (or before it): ingredient-only matches follow them.
    const titleTotal = ids.length > 0 || offset === 0 ? offset + ids.length : await countUpTo(db, db`${where} and ${inTitle}`, offset)
    const onlyIngredient = db`(r.ingredients_text like ${search.pattern} and not (lower(r.title) like ${search.pattern}))`
    ids = [...ids, ...await matchingIds(db, where, onlyIngredient, sort, offset + ids.length - titleTotal, limit + 1 - ids.length)]
  }
  return { items: await byIdsJson(db, ids.slice(0, limit), viewerId), hasNext: ids.length > limit }
}
