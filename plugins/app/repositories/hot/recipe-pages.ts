// The listing's measured pages: page 1 in one statement (anonymous or signed in), deeper pages ids first, and the
// parts every page statement shares (its size, its JSON, its `page` CTE). Pages are JSON that PostgreSQL writes, read
// as bytes (bytesRow) and sent as they are (RawJson). README.md says why each technique is here.
import { RECIPE_SORTS, type RecipeSort, type RecipeView } from '../../../../schemas/recipes.js'
import { RawJson } from '../../../../lib/raw-json.js'
import { json, type Db } from '../../../external/db.js'
import { inOrder } from '../recipe-queries.js'
import type { Fragment } from '../sql.js'
import { listedRecipe } from '../visibility.js'
import { bytesRow, integer, text } from './bytes-row.js'
import { recipeJson } from './recipe-json.js'
import { reusedPart } from './sql.js'

/** The listing's count and version (recipe_listing, kept by triggers) as columns of a page's statement. */
const listingState = (db: Db) => db`(select listed_count from recipe_listing)::int as listing_count,
  (select version from recipe_listing)::text as listing_version`

/**
 * A page size written into a statement's text (the query schemas cap it at 50, so there are at most 50 texts), not
 * passed: with a LIMIT parameter PostgreSQL estimates 10% of the rows and plans the statement anew on every request
 * (see byIds in recipe-queries.ts). `take` is one row more, to tell whether a next page exists.
 */
export function pageSize (db: Db, limit: number) {
  if (!Number.isInteger(limit) || limit < 1 || limit > 50) throw new RangeError(`page size ${limit}`)
  return { limit: db.unsafe(String(limit)), take: db.unsafe(String(limit + 1)) }
}

/**
 * Columns of a statement over `page` (id, n: a page's rows and one past them, numbered in order): how many rows it
 * holds and the JSON of the first `limit` recipes (recipeJson), so one statement reads and writes the whole page.
 */
export const pageJson = (db: Db, viewerId: string | Fragment | null, limit: ReturnType<typeof pageSize>['limit']) => db`
  (select count(*) from page)::int as found,
  coalesce((select json_agg(${recipeJson(db, viewerId)} order by page.n) from page
    join recipes r on r.id = page.id join users a on a.id = r.author_id where page.n <= ${limit}), '[]')::text as recipes`

/**
 * The `page` CTE (the ids `ordered` yields, in order, one past the page, numbered `n` as they leave it) and the
 * statement over it reading `columns` (pageJson and what else the caller reads). Without its `with`: the caller
 * writes it, with the CTEs it names first (`viewer`, `q`).
 */
export const pageThen = (db: Db, ordered: Fragment, columns: Fragment) => db`
  page as materialized (select x.id, row_number() over () as n from (${ordered}) x)
  select ${columns}`

/** The `recipes` column of a statement read with bytesRow (a JSON array PostgreSQL wrote), as it is sent. */
export const pageItems = (row: Record<string, Buffer | null>) => new RawJson<RecipeView[]>(row.recipes ?? '[]')

/**
 * byIds (recipe-queries.ts) as one JSON array that PostgreSQL writes (recipeJson), for a page sent as it is. The same
 * single plan. bench: deep-page, search-common (past the window), and the filtered listing.
 */
export async function byIdsJson (db: Db, ids: string[], viewerId: string | null): Promise<RawJson<RecipeView[]>> {
  if (ids.length === 0) return new RawJson('[]')
  const { recipes } = await bytesRow(db`select coalesce(json_agg(${recipeJson(db, viewerId)} order by p.n), '[]')::text as recipes
    from jsonb_array_elements_text(${json(db, ids)}) with ordinality p(id, n)
    join recipes r on r.id = p.id join users a on a.id = r.author_id`)
  return pageItems({ recipes })
}

/** firstListedPage's statement: the page's ids (`n` in order), the listing's count and version, the recipes' JSON. */
const firstPageOf = (db: Db, sort: RecipeSort, viewerId: string | Fragment | null, limit: number) => {
  const size = pageSize(db, limit)
  return pageThen(db, db`${inOrder(db, db`r.id`, listedRecipe(db), sort)} limit ${size.take}`,
    db`${listingState(db)}, ${pageJson(db, viewerId, size.limit)}`)
}

/** The home page of every anonymous visitor: the same statement for every request of a sort and page size. bench: list. */
const anonymousFirstPage = reusedPart(RECIPE_SORTS.length * 50, (db, sort: RecipeSort, limit: number) => firstPageOf(db, sort, null, limit))

/**
 * The home page of a signed-in viewer, who is the `viewer` CTE the statement starts with: the rest is the same for
 * every viewer. Built per request, its ~25 parts (postgres.js queries) were promoted to V8's old generation under
 * load and set off a full collection every few hundred milliseconds. Hidden in a materialized CTE, the viewer does
 * not change the plan either, so PostgreSQL keeps the generic one. bench: list-signed-in.
 */
const viewerFirstPage = reusedPart(RECIPE_SORTS.length * 50, (db, sort: RecipeSort, limit: number) =>
  firstPageOf(db, sort, db`(select id from viewer)`, limit))

/**
 * The first `limit` recipes of the listing in one statement: their ids (one past them for hasNext), the listing's
 * count and version, and the recipes' JSON. `n` numbers the rows as they leave the ordered, limited subquery. Read
 * as bytes (bytesRow): the JSON goes out as PostgreSQL sent it.
 */
async function firstListedPage (db: Db, sort: RecipeSort, viewerId: string | null, limit: number) {
  // A fresh statement around the part: a reused part is never run itself (postgres.js runs a query once).
  const row = await bytesRow(viewerId == null
    ? db`with ${anonymousFirstPage(db, sort, limit)}`
    : db`with viewer as materialized (select ${viewerId}::text as id), ${viewerFirstPage(db, sort, limit)}`)
  const found = integer(row.found)
  const listing = found === 0 ? null : { listedCount: integer(row.listingCount), version: text(row.listingVersion) ?? '0' }
  return { items: pageItems(row), hasNext: found > limit, listing }
}

/**
 * A page of the whole public listing (no filter) with the listing's count and version read in the same statement.
 * `listing` is null when the page is empty (read it with recipesRepository.listing). Page 1 (the home page of every
 * client) is one round trip; deeper pages read their ids first (byIds says why).
 * bench: list, list-signed-in, popular (page 1); deep-page (page 400); mixed (pages 1-5).
 */
export async function listedPage (db: Db, sort: RecipeSort, viewerId: string | null, pageNo: number, limit: number) {
  if (pageNo === 1) return await firstListedPage(db, sort, viewerId, limit)
  const columns = db`r.id, ${listingState(db)}`
  const found = await db<Array<{ id: string, listingCount: number, listingVersion: string }>>`
      ${inOrder(db, columns, listedRecipe(db), sort)} limit ${limit + 1} offset ${(pageNo - 1) * limit}`
  const listing = found.length === 0 ? null : { listedCount: found[0].listingCount, version: found[0].listingVersion }
  return { items: await byIdsJson(db, found.slice(0, limit).map(row => row.id), viewerId), hasNext: found.length > limit, listing }
}
