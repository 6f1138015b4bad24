// What the sitemap lists, read in key order: recipes by (created_at, id) along recipes_listed_idx, profiles by id.
// Pages are key ranges: their boundaries come from one ordered scan (`row_number() % size`), and every read after
// that is a keyset range with a limit, so no query ever skips rows with OFFSET.
import fp from 'fastify-plugin'
import type { recipes, users } from '../../../db/schema/index.js'
import type { Db } from '../../external/db.js'
import type { Counted, Flagged } from './sql.js'
import { listedRecipe } from './visibility.js'

declare module 'fastify' {
  interface FastifyInstance {
    sitemapRepository: typeof sitemapRepository
  }
}

type Recipe = typeof recipes.$inferSelect
type User = typeof users.$inferSelect

/**
 * A recipe's position in the sitemap order. `at` is created_at as PostgreSQL's text (microseconds, UTC): a JS Date
 * keeps milliseconds only, and a rounded boundary would move rows between pages.
 */
export type RecipeKey = Pick<Recipe, 'id'> & { at: string }

/** Where pages end: the key of every `size`-th row before the last one, and how many rows there are. */
export interface Boundaries<K> { total: number, ends: K[] }

export type SitemapRecipe = Pick<Recipe, 'id' | 'updatedAt'> & { key: RecipeKey }
/** An author of listed recipes; `shown` is false for a deactivated or banned one (left out of the sitemap). */
export type SitemapAuthor = Pick<User, 'id' | 'username'> & { lastmod: User['updatedAt'] } & Flagged<'shown'>

/**
 * Recipes of the public listing (visibility.ts): it leaves out deactivated and banned authors' recipes too
 * (`recipes.author_hidden`), so search engines are not sent to such an account's content (its profile is already 404).
 */
const sitemapRecipe = listedRecipe

const shownUser = (db: Db) => db`(u.active and u.banned_at is null)`

/** A row of the boundary scan with its position in the order (the scan returns every `size`-th row and the last). */
type Numbered<R> = R & Counted<'n'>

function boundaries<R, K> (rows: Array<Numbered<R>>, size: number, key: (row: Numbered<R>) => K): Boundaries<K> {
  const total = rows.at(-1)?.n ?? 0
  return { total, ends: rows.filter(row => row.n % size === 0 && row.n < total).map(key) }
}

export const sitemapRepository = {
  /** Page boundaries of the listed recipes for pages of `size` rows: one ordered walk of the listing index. */
  async recipeBoundaries (db: Db, size: number): Promise<Boundaries<RecipeKey>> {
    const rows = await db<Array<Numbered<RecipeKey>>>`select at, id, n from (
        select r.created_at::text as at, r.id, (row_number() over w)::int as n, lead(r.id) over w is null as last
        from recipes r where ${sitemapRecipe(db)}
        window w as (order by r.created_at, r.id)) s
      where n % ${size} = 0 or last order by n`
    return boundaries(rows, size, row => ({ at: row.at, id: row.id }))
  },

  /** Page boundaries of the listed profiles (shown authors of listed recipes) for pages of `size` rows, in id order. */
  async authorBoundaries (db: Db, size: number): Promise<Boundaries<string>> {
    const rows = await db<Array<Numbered<Pick<User, 'id'>>>>`select id, n from (
        select u.id, (row_number() over w)::int as n, lead(u.id) over w is null as last
        from (select distinct r.author_id from recipes r where ${listedRecipe(db)}) a
        join users u on u.id = a.author_id
        where ${shownUser(db)}
        window w as (order by u.id)) s
      where n % ${size} = 0 or last order by n`
    return boundaries(rows, size, row => row.id)
  },

  /** Up to `limit` listed recipes after `after` (exclusive) up to `through` (inclusive), in sitemap order. */
  async recipes (db: Db, after: RecipeKey | null, through: RecipeKey | null, limit: number): Promise<SitemapRecipe[]> {
    // Sent as text: a parameter typed timestamptz would go through a JS Date and lose the microseconds.
    const from = after == null ? db`` : db`and (r.created_at, r.id) > (${after.at}::text::timestamptz, ${after.id})`
    const to = through == null ? db`` : db`and (r.created_at, r.id) <= (${through.at}::text::timestamptz, ${through.id})`
    const rows = await db<Array<RecipeKey & Pick<Recipe, 'updatedAt'>>>`select r.created_at::text as at, r.id, r.updated_at
      from recipes r where ${sitemapRecipe(db)} ${from} ${to}
      order by r.created_at, r.id limit ${limit}`
    return rows.map(row => ({ key: { at: row.at, id: row.id }, id: row.id, updatedAt: row.updatedAt }))
  },

  /**
   * Up to `limit` authors of listed recipes after `after` (exclusive) up to `through` (inclusive), in id order, with
   * `shown` telling the ones the sitemap lists (the caller resumes after the last row either way). lastmod is the later
   * of the profile's own change and its newest recipe change (the profile page lists them). Driven by the recipes in
   * author order (recipes_author_created_idx), not by the users: most users publish nothing, and probing each one for
   * a recipe lets the planner pick a scan of all recipes per user when a few authors write everything.
   */
  async authors (db: Db, after: string | null, through: string | null, limit: number): Promise<SitemapAuthor[]> {
    const from = after == null ? db`` : db`and r.author_id > ${after}`
    const to = through == null ? db`` : db`and r.author_id <= ${through}`
    return await db<SitemapAuthor[]>`select u.id, u.username, greatest(u.updated_at, a.updated_at) as lastmod, ${shownUser(db)} as shown
      from (select r.author_id, max(r.updated_at) as updated_at from recipes r where ${listedRecipe(db)} ${from} ${to}
        group by r.author_id order by r.author_id limit ${limit}) a
      join users u on u.id = a.author_id
      order by u.id`
  }
}

export default fp(async fastify => {
  fastify.decorate('sitemapRepository', sitemapRepository)
}, { name: 'sitemap-repository' })
