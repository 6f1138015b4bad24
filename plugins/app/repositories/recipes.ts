// Recipe rows. Every read takes the viewer, so visibility is applied in the query itself. Methods take the caller's
// handle (pool or transaction) and return data or null; the rules live in services/recipes.ts.
import { createId } from '@paralleldrive/cuid2'
import fp from 'fastify-plugin'
import type { recipes } from '../../../db/schema/index.js'
import { RECIPE_SORTS, type RecipeFilters, type RecipeSort, type RecipeView } from '../../../schemas/recipes.js'
import { bytesRow, integer, json, text, type Db } from '../../external/db.js'
import {
  allOf, byIdsJson, countUpTo, escapeLike, filterConditions, filtered, INDEXED_SORTS, inOrder, matchingIds, orderBy, page, pageItems, rows, searchTerm, searchWindow,
  sliceOf, type Fragment, type Page, type Slice
} from './recipe-queries.js'
import { RawJson } from '../../../lib/raw-json.js'
import { mapRecipe, recipeColumns, recipeJson, type RecipeViewRow } from './recipe-rows.js'
import { listedRecipe, recipeVisibleTo } from './visibility.js'
import { hiddenValue, reusedPart } from './sql.js'

declare module 'fastify' {
  interface FastifyInstance {
    recipesRepository: typeof recipesRepository
  }
}

/** Every repository's page types live with the listing queries. */
export type { Page, Slice } from './recipe-queries.js'

/** Columns a create or update writes (besides ids, counters and timestamps). */
export type RecipeFields = Omit<typeof recipes.$inferInsert,
  'id' | 'authorId' | 'authorHidden' | 'slug' | 'moderationStatus' | 'likeCount' | 'commentCount' | 'ratingCount' | 'ratingSum' | 'createdAt' | 'updatedAt'>

/** How many of the newest recipes the feed looks through before it asks each followed author instead. */
const FEED_WINDOW = 1000

/** JSON columns go over the wire as JSON (a bare array would be sent as a PostgreSQL array). */
const columns = (db: Db, fields: RecipeFields) => ({
  ...fields,
  ingredients: json(db, fields.ingredients ?? []),
  instructions: json(db, fields.instructions ?? []),
  nutrition: fields.nutrition == null ? null : json(db, fields.nutrition)
})

/** The listing's count and version (recipe_listing, kept by triggers) as columns of a page's statement. */
const listingState = (db: Db) => db`(select listed_count from recipe_listing)::int as listing_count,
  (select version from recipe_listing)::text as listing_version`

/**
 * A page size written into a statement's text (the query schemas cap it at 50, so there are at most 50 texts), not
 * passed: with a LIMIT parameter PostgreSQL estimates 10% of the rows and plans the statement anew on every request
 * (see byIds). `take` is one row more, to tell whether a next page exists.
 */
function pageSize (db: Db, limit: number) {
  if (!Number.isInteger(limit) || limit < 1 || limit > 50) throw new RangeError(`page size ${limit}`)
  return { limit: db.unsafe(String(limit)), take: db.unsafe(String(limit + 1)) }
}

/**
 * Columns of a statement over `page` (id, n: a page's rows and one past them, numbered in order): how many rows it
 * holds and the JSON of the first `limit` recipes (recipeJson), so one statement reads and writes the whole page.
 */
const pageJson = (db: Db, viewerId: string | Fragment | null, limit: ReturnType<typeof pageSize>['limit']) => db`
  (select count(*) from page)::int as found,
  coalesce((select json_agg(${recipeJson(db, viewerId)} order by page.n) from page
    join recipes r on r.id = page.id join users a on a.id = r.author_id where page.n <= ${limit}), '[]')::text as recipes`

/**
 * The `page` CTE (the ids `ordered` yields, in order, one past the page, numbered `n` as they leave it) and the
 * statement over it reading `columns` (pageJson and what else the caller reads). Without its `with`: the caller
 * writes it, with the CTEs it names first (`viewer`, `q`).
 */
const pageThen = (db: Db, ordered: Fragment, columns: Fragment) => db`
  page as materialized (select x.id, row_number() over () as n from (${ordered}) x)
  select ${columns}`

/** firstListedPage's statement: the page's ids (`n` in order), the listing's count and version, the recipes' JSON. */
const firstPageOf = (db: Db, sort: RecipeSort, viewerId: string | Fragment | null, limit: number) => {
  const size = pageSize(db, limit)
  return pageThen(db, db`${inOrder(db, db`r.id`, listedRecipe(db), sort)} limit ${size.take}`,
    db`${listingState(db)}, ${pageJson(db, viewerId, size.limit)}`)
}

/** The home page of every anonymous visitor: the same statement for every request of a sort and page size. */
const anonymousFirstPage = reusedPart(RECIPE_SORTS.length * 50, (db, sort: RecipeSort, limit: number) => firstPageOf(db, sort, null, limit))

/**
 * The home page of a signed-in viewer, who is the `viewer` CTE the statement starts with: the rest is the same for
 * every viewer. Built per request, its ~25 parts (postgres.js queries) were promoted to V8's old generation under
 * load and set off a full collection every few hundred milliseconds. Hidden in a materialized CTE, the viewer does
 * not change the plan either, so PostgreSQL keeps the generic one.
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

/** A search matching at most this many recipes sorts them all (searchPage); more are looked for in order first. */
export const SMALL_SEARCH = 1000

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

export const recipesRepository = {
  async find (db: Db, id: string, viewerId: string | null): Promise<RecipeView | null> {
    const [row] = await db<RecipeViewRow[]>`select ${recipeColumns(db, viewerId)} from recipes r join users a on a.id = r.author_id
      where r.id = ${id} and ${recipeVisibleTo(db, viewerId)}`
    return row == null ? null : mapRecipe(row)
  },

  /** Whether the recipe exists, whoever may see it (removing one's own like or bookmark must not depend on that). */
  async exists (db: Db, id: string): Promise<boolean> {
    const [row] = await db`select 1 from recipes where id = ${id}`
    return row != null
  },

  /** Locks the recipe row for the rest of the transaction (edits of one recipe apply one after the other). */
  async lock (db: Db, id: string): Promise<void> {
    await db`select 1 from recipes where id = ${id} for update`
  },

  /** The recipe a creation key made within the last `withinSeconds`, if it still exists (recipe_creation_keys). */
  async createdFor (db: Db, authorId: string, key: string, withinSeconds: number): Promise<string | null> {
    const [row] = await db<Array<{ recipeId: string }>>`
      select recipe_id from recipe_creation_keys
      where user_id = ${authorId} and key = ${key} and created_at > now() - make_interval(secs => ${withinSeconds})`
    return row?.recipeId ?? null
  },

  /** Records that `key` made `recipeId` (replacing an expired entry of the same key). */
  async rememberCreation (db: Db, authorId: string, key: string, recipeId: string): Promise<void> {
    await db`
      insert into recipe_creation_keys (user_id, key, recipe_id) values (${authorId}, ${key}, ${recipeId})
      on conflict (user_id, key) do update set recipe_id = excluded.recipe_id, created_at = now()`
  },

  async countByAuthor (db: Db, authorId: string): Promise<number> {
    const [{ n }] = await db<Array<{ n: number }>>`select count(*)::int as n from recipes where author_id = ${authorId}`
    return n
  },

  /** The lowest free slug for this author: base, base-1, base-2... (call with the author locked). */
  async freeSlug (db: Db, authorId: string, base: string): Promise<string> {
    const rows = await db<Array<{ slug: string }>>`
      select slug from recipes where author_id = ${authorId} and (slug = ${base} or slug like ${escapeLike(base) + '-%'})`
    const taken = new Set(rows.map(r => r.slug))
    if (!taken.has(base)) return base
    for (let n = 1; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`
  },

  async insert (db: Db, authorId: string, slug: string, fields: RecipeFields): Promise<string> {
    const id = createId()
    await db`insert into recipes ${db({ id, authorId, slug, ...columns(db, fields) })}`
    return id
  },

  async update (db: Db, id: string, fields: RecipeFields): Promise<void> {
    await db`update recipes set ${db(columns(db, fields))}, updated_at = now() where id = ${id}`
  },

  async remove (db: Db, id: string): Promise<void> {
    await db`delete from recipes where id = ${id}`
  },

  /**
   * Drops a picture the author deleted from their recipes. Matched on the key at the end of the URL (keys are unique),
   * so URLs stored under an earlier public base are cleared too.
   */
  async clearImage (db: Db, authorId: string, key: string): Promise<void> {
    await db`update recipes set image_url = null, updated_at = now()
      where author_id = ${authorId} and right(image_url, ${key.length + 1}) = ${'/' + key}`
  },

  /** Replaces a custom recipe's audience; unknown user ids are dropped rather than failing the write. */
  async setAudience (db: Db, recipeId: string, userIds: string[]): Promise<void> {
    await db`delete from recipe_audience where recipe_id = ${recipeId}`
    if (userIds.length === 0) return
    await db`insert into recipe_audience (recipe_id, user_id)
      select ${recipeId}, u.id from users u where u.id = any(${userIds}::text[]) on conflict do nothing`
  },

  /**
   * A page of the public listing for these filters. A search lists title matches first, then recipes matching only by
   * ingredient, each part in the requested order. `matches` is how many recipes match, when known exactly (the
   * counted total): with none from this page on, no statement runs; with at most SMALL_SEARCH, one statement collects
   * them all from the trigram indexes, sorts them and writes the page (searchPage); with more, a window of the
   * listing's first rows usually holds the page (windowPage), else the two phases run one after the other (matchingIds).
   */
  async list (db: Db, filters: RecipeFilters, viewerId: string | null, pageNo: number, limit: number, matches: number | null = null): Promise<Slice<RawJson<RecipeView[]>>> {
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
  },

  /**
   * A page of the whole public listing (no filter) with the listing's count and version read in the same statement.
   * `listing` is null when the page is empty (read it with listing()). Page 1 (the home page of every client) is one
   * round trip; deeper pages read their ids first (byIds says why).
   */
  async listedPage (db: Db, sort: RecipeSort, viewerId: string | null, pageNo: number, limit: number) {
    if (pageNo === 1) return await firstListedPage(db, sort, viewerId, limit)
    const columns = db`r.id, ${listingState(db)}`
    const found = await db<Array<{ id: string, listingCount: number, listingVersion: string }>>`
      ${inOrder(db, columns, listedRecipe(db), sort)} limit ${limit + 1} offset ${(pageNo - 1) * limit}`
    const listing = found.length === 0 ? null : { listedCount: found[0].listingCount, version: found[0].listingVersion }
    return { items: await byIdsJson(db, found.slice(0, limit).map(row => row.id), viewerId), hasNext: found.length > limit, listing }
  },

  /** How many recipes list() finds for these filters, counting no further than `cap` + 1. */
  async count (db: Db, filters: RecipeFilters, cap: number): Promise<number> {
    const search = searchTerm(filters)
    const where = search.text === ''
      ? filtered(db, filters)
      : db`${filtered(db, filters)} and (lower(r.title) like ${search.pattern} or r.ingredients_text like ${search.pattern})`
    return await countUpTo(db, where, cap + 1)
  },

  /** The trigger-kept listed count and listing version (migration 0011). */
  async listing (db: Db): Promise<{ listedCount: number, version: string }> {
    const [row] = await db<Array<{ listedCount: number, version: string }>>`
      select listed_count::int as listed_count, version::text as version from recipe_listing`
    return row ?? { listedCount: 0, version: '0' }
  },

  /** An author's recipes that the viewer may see, newest first. */
  async byAuthor (db: Db, authorId: string, viewerId: string | null, pageNo: number, limit: number): Promise<Page<RecipeView>> {
    return await page(db, db`r.author_id = ${authorId} and ${recipeVisibleTo(db, viewerId)}`, 'newest', viewerId, pageNo, limit)
  },

  /** An author's recipe by its slug, as the viewer may see it. */
  async bySlug (db: Db, authorId: string, slug: string, viewerId: string | null): Promise<RecipeView | null> {
    const [row] = await db<RecipeViewRow[]>`select ${recipeColumns(db, viewerId)} from recipes r join users a on a.id = r.author_id
      where r.author_id = ${authorId} and r.slug = ${slug} and ${recipeVisibleTo(db, viewerId)}`
    return row == null ? null : mapRecipe(row)
  },

  /**
   * Recipes of the people the user follows that the user may see, newest first. Keyset pagination: `before` is
   * the (createdAt, id) of the last recipe already shown, so pages stay stable while new recipes arrive. Each attempt
   * is one statement that also writes the page's JSON (recipeJson) and the next cursor.
   */
  async feed (db: Db, userId: string, before: { createdAt: string, id: string } | null, limit: number) {
    const { limit: shown, take } = pageSize(db, limit)
    // The reader and the cursor are hidden from the planner: planned for them, the statement was planned anew on
    // every request (1 ms, twice its work).
    const viewer = hiddenValue(db, userId, 'text')
    const after = before == null
      ? db`true`
      : db`(r.created_at, r.id) < (${hiddenValue(db, before.createdAt, 'timestamptz')}, ${hiddenValue(db, before.id, 'text')})`
    const visible = recipeVisibleTo(db, viewer)
    // Whoever follows many active authors finds a page among the newest recipes of all: walk those (a bounded
    // window of the time index) and keep the followed ones.
    // The window carries the columns the filters read, so its time order holds and the scan stops at the page.
    const recent = db`
      select r.id, r.created_at from (
        select r.id, r.created_at, r.author_id, r.published, r.moderation_status, r.visibility, r.author_hidden from recipes r
        where ${after} order by r.created_at desc, r.id desc limit ${db.unsafe(String(FEED_WINDOW))}) r
      where exists (select 1 from follows f where f.follower_id = ${viewer} and f.following_id = r.author_id) and ${visible}
      order by r.created_at desc, r.id desc limit ${take}`
    // Otherwise: the newest `limit + 1` of each followed author (one index range scan each), then the newest of those.
    const perAuthor = db`
      select c.id, c.created_at from follows f
      cross join lateral (
        select r.id, r.created_at from recipes r
        where r.author_id = f.following_id and ${visible} and ${after}
        order by r.created_at desc, r.id desc limit ${take}
      ) c
      where f.follower_id = ${viewer}
      order by c.created_at desc, c.id desc limit ${take}`
    const pageOf = async (candidates: Fragment) => await bytesRow(db`
      with page as materialized (
        select c.id, c.created_at, row_number() over (order by c.created_at desc, c.id desc) as n from (${candidates}) c)
      select ${pageJson(db, userId, shown)},
        -- The cursor keeps PostgreSQL's microseconds (an ISO string would round them and skip or repeat rows).
        (select created_at::text from page where n = ${shown}) as cursor_at, (select id from page where n = ${shown}) as cursor_id`)
    let page = await pageOf(recent)
    if (integer(page.found) <= limit) page = await pageOf(perAuthor)
    const [cursorAt, cursorId] = [text(page.cursorAt), text(page.cursorId)]
    const next = integer(page.found) > limit && cursorAt != null && cursorId != null ? { createdAt: cursorAt, id: cursorId } : null
    return { recipes: pageItems(page), next }
  },

  async popular (db: Db, limit: number, viewerId: string | null): Promise<RecipeView[]> {
    return await rows(db, listedRecipe(db), 'popular', viewerId, 0, limit)
  },

  async cuisines (db: Db) {
    return await db<Array<{ cuisine: string, count: number }>>`
      select min(r.cuisine) as cuisine, count(*)::int as count from recipes r
      where ${listedRecipe(db)} and r.cuisine is not null and btrim(r.cuisine) <> ''
      group by lower(btrim(r.cuisine)) order by count desc, cuisine limit 100`
  },

  async commonIngredients (db: Db) {
    return await db<Array<{ name: string, count: number }>>`
      select lower(btrim(i ->> 'name')) as name, count(distinct r.id)::int as count
      from recipes r cross join lateral jsonb_array_elements(
        case when jsonb_typeof(r.ingredients) = 'array' then r.ingredients else '[]'::jsonb end) i
      where ${listedRecipe(db)} and jsonb_typeof(i) = 'object' and coalesce(btrim(i ->> 'name'), '') <> ''
      group by 1 order by count desc, name limit 50`
  }
}

export default fp(async fastify => {
  fastify.decorate('recipesRepository', recipesRepository)
}, { name: 'recipes-repository' })
