// Platform analytics for admins (GET /api/admin/analytics and GET /api/analytics serve the same report). Computed by
// a few aggregate statements side by side, then kept in the cache for ANALYTICS_TTL_SECONDS; concurrent misses in one
// instance share one computation.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { averageRating } from '../../../lib/ratings.js'
import {
  ANALYTICS_DAYS, ANALYTICS_TTL_SECONDS, TOP_RECIPES, type AnalyticsReportView
} from '../../../schemas/admin-analytics.js'
import { tryCache } from '../../external/cache.js'
import type { UsageRow } from '../repositories/analytics.js'
import { usagePeriod } from './plans.js'

declare module 'fastify' {
  interface FastifyInstance {
    analyticsService: ReturnType<typeof createAnalyticsService>
  }
}

const CACHE_KEY = 'admin-analytics:v1'

/** The calendar month before `date`'s (UTC), as YYYY-MM. */
export const previousPeriod = (date: Date) => usagePeriod(new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - 1, 1)))

function usageMonth (rows: UsageRow[], period: string) {
  const of = (kind: string) => {
    const row = rows.find(r => r.period === period && r.kind === kind)
    return { count: row?.count ?? 0, users: row?.users ?? 0 }
  }
  return { period, imports: of('imports'), aiGenerations: of('aiGenerations') }
}

export function createAnalyticsService (fastify: FastifyInstance) {
  const repo = fastify.analyticsRepository
  let computing: Promise<AnalyticsReportView> | null = null

  /** The report from the database, now. */
  async function compute (): Promise<AnalyticsReportView> {
    const now = new Date()
    const periods = { thisMonth: usagePeriod(now), lastMonth: previousPeriod(now) }
    const db = fastify.db
    const [users, recipes, daily, engagement, top, usage] = await Promise.all([
      repo.userTotals(db),
      repo.recipeTotals(db),
      repo.daily(db),
      repo.engagement(db),
      repo.topRecipes(db, TOP_RECIPES),
      repo.usage(db, [periods.thisMonth, periods.lastMonth])
    ])
    return {
      generatedAt: now.toISOString(),
      period: { days: ANALYTICS_DAYS, from: daily[0].date, to: daily[daily.length - 1].date },
      totals: {
        users: users.users,
        activeAccounts: users.activeAccounts,
        bannedAccounts: users.bannedAccounts,
        recipes: recipes.recipes,
        publishedRecipes: recipes.publishedRecipes,
        publicRecipes: recipes.publicRecipes,
        comments: recipes.comments,
        likes: recipes.likes,
        ratings: recipes.ratings,
        follows: engagement.followsTotal,
        bookmarks: engagement.bookmarksTotal
      },
      daily,
      activeUsers: { last1Day: users.last1Day, last7Days: users.last7Days, last30Days: users.last30Days },
      engagement: {
        likes: engagement.likes,
        comments: engagement.comments,
        ratings: engagement.ratings,
        follows: engagement.follows,
        bookmarks: engagement.bookmarks
      },
      topRecipes: top.map(row => ({
        id: row.id,
        slug: row.slug,
        title: row.title,
        likeCount: row.likeCount,
        commentCount: row.commentCount,
        ratingCount: row.ratingCount,
        averageRating: averageRating(row.ratingSum, row.ratingCount),
        createdAt: row.createdAt.toISOString(),
        author: { id: row.authorId, username: row.authorUsername }
      })),
      usage: { thisMonth: usageMonth(usage, periods.thisMonth), lastMonth: usageMonth(usage, periods.lastMonth) }
    }
  }

  return {
    compute,

    /** The report, computed at most once per ANALYTICS_TTL_SECONDS (per cache) while it is asked for. */
    async report (): Promise<AnalyticsReportView> {
      const cached = await tryCache(fastify.log, async () => await fastify.cache.get<AnalyticsReportView>(CACHE_KEY))
      if (cached != null) return cached
      computing ??= (async () => {
        const report = await compute()
        await tryCache(fastify.log, async () => { await fastify.cache.set(CACHE_KEY, report, ANALYTICS_TTL_SECONDS) })
        return report
      })().finally(() => { computing = null })
      return await computing
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('analyticsService', createAnalyticsService(fastify))
}, { name: 'analytics-service', dependencies: ['analytics-repository', 'cache', 'db'] })
