// Platform analytics: a few aggregate statements, each one pass over a table or one index range. Days are UTC days; the
// window is ANALYTICS_DAYS days, today included. Its bounds are SQL expressions on now(), not parameters, so the planner
// estimates the ranges from the actual dates (a parameter would leave the prepared statement's generic plan a guess).
// Measured on the bench's M data (100k recipes, 1M ratings, 500k likes, activity spread over a year): about 0.3 s in
// all, nearly all of it the 30-day counts of likes and ratings, which scan their tables (no index on created_at). A
// btree index on created_at of likes, ratings, comments, follows and bookmarks makes those counts index ranges
// (0.55 s -> 0.03 s; the report about 0.1 s); it needs a migration. The report is cached (services/analytics.ts).
import fp from 'fastify-plugin'
import type { recipes, usage, users } from '../../../db/schema/index.js'
import { ANALYTICS_DAYS, type AnalyticsReportView } from '../../../schemas/admin-analytics.js'
import type { Db } from '../../external/db.js'
import { inOrder } from './recipe-queries.js'
import type { Counted } from './sql.js'
import { listedRecipe } from './visibility.js'

declare module 'fastify' {
  interface FastifyInstance {
    analyticsRepository: typeof analyticsRepository
  }
}

/** The first day of the window (a date), and its start (a timestamptz). */
const firstDay = (db: Db) => db.unsafe(`((now() at time zone 'UTC')::date - ${ANALYTICS_DAYS - 1})`)
const since = (db: Db) => db.unsafe(`(((now() at time zone 'UTC')::date - ${ANALYTICS_DAYS - 1})::timestamp at time zone 'UTC')`)

export type UserTotals = Counted<'users' | 'activeAccounts' | 'bannedAccounts' | 'last1Day' | 'last7Days' | 'last30Days'>

export type RecipeTotals = Counted<'recipes' | 'publishedRecipes' | 'publicRecipes' | 'likes' | 'comments' | 'ratings'>

export type DayRow = AnalyticsReportView['daily'][number]

export type Engagement = Counted<'likes' | 'comments' | 'ratings' | 'follows' | 'bookmarks' | 'followsTotal' | 'bookmarksTotal'>

export type TopRecipeRow = Pick<typeof recipes.$inferSelect, 'id' | 'slug' | 'title' | 'likeCount' | 'commentCount' | 'ratingCount' |
  'ratingSum' | 'createdAt' | 'authorId'> & { authorUsername: (typeof users.$inferSelect)['username'] }

/** A period's uses of one kind: their sum, and how many users made any. */
export type UsageRow = Pick<typeof usage.$inferSelect, 'period' | 'kind'> & Counted<'count' | 'users'>

export const analyticsRepository = {
  /** One pass over users: accounts by state, and who signed in lately (users.last_login_at). */
  async userTotals (db: Db): Promise<UserTotals> {
    const [row] = await db<UserTotals[]>`select count(*)::int as users,
        count(*) filter (where active and banned_at is null)::int as active_accounts,
        count(*) filter (where banned_at is not null)::int as banned_accounts,
        count(*) filter (where last_login_at >= now() - interval '1 day')::int as last1_day,
        count(*) filter (where last_login_at >= now() - interval '7 days')::int as last7_days,
        count(*) filter (where last_login_at >= now() - interval '30 days')::int as last30_days
      from users`
    return row
  },

  /**
   * One pass over recipes: counts by state, and the likes, comments and ratings totals from the recipes' counters
   * (kept exact by the statements that add or remove their rows: architecture.md), which spares counting those tables.
   */
  async recipeTotals (db: Db): Promise<RecipeTotals> {
    const [row] = await db<RecipeTotals[]>`select count(*)::int as recipes,
        count(*) filter (where r.published)::int as published_recipes,
        count(*) filter (where ${listedRecipe(db)})::int as public_recipes,
        coalesce(sum(r.like_count), 0)::int as likes,
        coalesce(sum(r.comment_count), 0)::int as comments,
        coalesce(sum(r.rating_count), 0)::int as ratings
      from recipes r`
    return row
  },

  /** New users and recipes per UTC day of the window, oldest first, every day present. */
  async daily (db: Db): Promise<DayRow[]> {
    return await db<DayRow[]>`select to_char(d.day, 'YYYY-MM-DD') as date,
        coalesce(u.n, 0)::int as new_users, coalesce(r.n, 0)::int as new_recipes
      from (select (${firstDay(db)} + i)::date as day from generate_series(0, ${db.unsafe(String(ANALYTICS_DAYS - 1))}) i) d
      left join (select (created_at at time zone 'UTC')::date as day, count(*) as n from users
        where created_at >= ${since(db)} group by 1) u on u.day = d.day
      left join (select (created_at at time zone 'UTC')::date as day, count(*) as n from recipes
        where created_at >= ${since(db)} group by 1) r on r.day = d.day
      order by d.day`
  },

  /** Rows made in the window per kind, and the follows and bookmarks totals (same passes). */
  async engagement (db: Db): Promise<Engagement> {
    const [row] = await db<Engagement[]>`select
        (select count(*) from likes where created_at >= ${since(db)})::int as likes,
        (select count(*) from comments where created_at >= ${since(db)})::int as comments,
        (select count(*) from ratings where created_at >= ${since(db)})::int as ratings,
        f.recent as follows, b.recent as bookmarks, f.total as follows_total, b.total as bookmarks_total
      from (select count(*)::int as total, count(*) filter (where created_at >= ${since(db)})::int as recent from follows) f,
        (select count(*)::int as total, count(*) filter (where created_at >= ${since(db)})::int as recent from bookmarks) b`
    return row
  },

  /** The most liked recipes of the public listing (an index walk of recipe_popularity_listed_idx). */
  async topRecipes (db: Db, limit: number): Promise<TopRecipeRow[]> {
    return await db<TopRecipeRow[]>`select r.id, r.slug, r.title, r.like_count, r.comment_count, r.rating_count, r.rating_sum,
        r.created_at, a.id as author_id, a.username as author_username
      from (${inOrder(db, db`r.id`, listedRecipe(db), 'popular')} limit ${limit}) p
      join recipes r on r.id = p.id join users a on a.id = r.author_id
      order by r.like_count desc, r.created_at desc, r.id desc`
  },

  /** Uses counted against plan allowances in these periods (YYYY-MM), per kind, and how many users made them. */
  async usage (db: Db, periods: string[]): Promise<UsageRow[]> {
    return await db<UsageRow[]>`select period, kind, sum(count)::int as count, (count(*) filter (where count > 0))::int as users
      from usage where period = any(${periods}::text[]) group by period, kind`
  }
}

export default fp(async fastify => {
  fastify.decorate('analyticsRepository', analyticsRepository)
}, { name: 'analytics-repository' })
