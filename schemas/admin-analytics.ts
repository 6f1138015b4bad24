// The admin analytics report (GET /api/admin/analytics and GET /api/analytics: the same body).
import { Type, type Static } from 'typebox'
import { recipes } from '../db/schema/recipes.js'
import { pick, tableColumns } from './columns.js'
import { DateTime, Id } from './common.js'

/** Days the daily series and the engagement counts cover (UTC days, today included). */
export const ANALYTICS_DAYS = 30
/** Recipes in `topRecipes`. */
export const TOP_RECIPES = 10
/** How long a computed report is served again. */
export const ANALYTICS_TTL_SECONDS = 60

/** What both analytics routes say about the report. */
export const ANALYTICS_DESCRIPTION = 'Totals, new users and recipes per UTC day over the last 30 days (today included, ' +
  'days without any count 0), users who signed in within 1, 7 and 30 days, likes, comments, ratings, follows and ' +
  'bookmarks made in those 30 days, the 10 most liked recipes of the public listing, and imports and AI generations ' +
  'this and last month. Not a paged list: the series and the top list have fixed lengths. The report is cached for ' +
  `${ANALYTICS_TTL_SECONDS} s: \`generatedAt\` says when it was computed.`

const Count = Type.Integer({ minimum: 0 })
const counted = (description: string) => Type.Integer({ minimum: 0, description })

const UsageMonth = Type.Object({
  period: Type.String({ description: 'YYYY-MM (UTC)' }),
  imports: Type.Object({ count: counted('Imports made'), users: counted('Users who imported at least once') }),
  aiGenerations: Type.Object({ count: counted('AI generations made'), users: counted('Users who generated at least once') })
})

const recipe = tableColumns(recipes)

export const TopRecipe = Type.Object({
  ...pick(recipe, ['id', 'slug', 'title', 'likeCount', 'commentCount', 'ratingCount'], {
    likeCount: Count, commentCount: Count, ratingCount: Count
  }),
  averageRating: Type.Number({ description: 'Mean of all ratings, 0 when there are none' }),
  ...pick(recipe, ['createdAt']),
  author: Type.Object({ id: Id, username: Type.String() })
})

export const AnalyticsReport = Type.Object({
  generatedAt: DateTime,
  period: Type.Object({
    days: Type.Integer({ description: `${ANALYTICS_DAYS}: UTC days, today included` }),
    from: Type.String({ format: 'date', description: 'First day of `daily` (YYYY-MM-DD); `engagement` counts from its start' }),
    to: Type.String({ format: 'date', description: 'Today (UTC)' })
  }),
  totals: Type.Object({
    users: Count,
    activeAccounts: counted('Users neither deactivated nor banned'),
    bannedAccounts: Count,
    recipes: Count,
    publishedRecipes: counted('Recipes that are not drafts'),
    publicRecipes: counted('Recipes in the public listing: published, public and not hidden by moderation'),
    comments: Count,
    likes: Count,
    ratings: Count,
    follows: Count,
    bookmarks: Count
  }),
  daily: Type.Array(Type.Object({
    date: Type.String({ format: 'date' }),
    newUsers: Count,
    newRecipes: Count
  }), { minItems: ANALYTICS_DAYS, maxItems: ANALYTICS_DAYS, description: `New users and recipes per UTC day, the last ${ANALYTICS_DAYS} days oldest first (days without any: 0)` }),
  activeUsers: Type.Object({
    last1Day: Count,
    last7Days: Count,
    last30Days: Count
  }, { description: 'Users who signed in within the last 24 hours, 7 days and 30 days' }),
  engagement: Type.Object({
    likes: Count,
    comments: Count,
    ratings: Count,
    follows: Count,
    bookmarks: Count
  }, { description: 'Rows made since the start of `period.from` (likes, ratings... still there: undone ones are not counted)' }),
  topRecipes: Type.Array(TopRecipe, {
    maxItems: TOP_RECIPES,
    description: `The ${TOP_RECIPES} most liked recipes of the public listing (ties: newest first)`
  }),
  usage: Type.Object({
    thisMonth: UsageMonth,
    lastMonth: UsageMonth
  }, { description: 'Plan allowances used: imports and AI generations, this and last calendar month (UTC)' })
}, { $id: 'AnalyticsReport', description: 'Platform analytics' })
export type AnalyticsReportView = Static<typeof AnalyticsReport>
