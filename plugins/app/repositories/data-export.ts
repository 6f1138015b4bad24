// Everything a user owns, section by section, for the GDPR export (services/data-export.ts writes the document).
// Every list is read through a cursor, a batch at a time, so memory does not grow with the account; the caller runs
// them one after another on one connection (a second query on it would wait behind an open cursor).
// Rows come out exactly as the document shows them: timestamps are formatted in SQL (`iso`) so top-level columns
// and those nested in json_agg read alike, and other users appear only as { id, username }. No column holding a
// secret (password, reset token, token version, oauth id, lockout counters, push keys, email bodies) is ever selected.
import fp from 'fastify-plugin'
import type postgres from 'postgres'
import type { pushSubscriptions, recipes } from '../../../db/schema/index.js'
import { averageRating } from '../../../lib/ratings.js'
import type {
  ExportCcpaRequestView, ExportCollectionView, ExportCommentView, ExportDeletionRequestView, ExportEmailView, ExportFamilyView,
  ExportFollowView, ExportGroceryListView, ExportMarkView, ExportMealPlanView, ExportMediaRow, ExportNotificationView,
  ExportPlannedMealView, ExportRatingView, ExportRecipeView, ExportReportView, ExportShareView, ExportSubscriptionView,
  ExportAiGenerationView, ExportImportView, ExportSupportTicketView, ExportUsageView, ExportUserView
} from '../../../schemas/gdpr.js'
import type { PushSubscriptionView } from '../../../schemas/push.js'
import type { Db } from '../../external/db.js'

declare module 'fastify' {
  interface FastifyInstance {
    dataExportRepository: typeof dataExportRepository
  }
}

/** Rows per cursor fetch. Recipes carry their revisions (up to MAX_REVISIONS snapshots each), so they come fewer at a time. */
const BATCH = 500
const RECIPE_BATCH = 25

/** A timestamp (a column, or an expression) as the API writes it, ISO 8601 UTC with milliseconds, top-level or in json_agg alike. */
const iso = (db: Db, value: string | postgres.PendingQuery<postgres.Row[]>) =>
  db`to_char(${typeof value === 'string' ? db(value) : value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/** The rows of `query`, fetched `batch` at a time. */
async function * rows<T extends object> (query: postgres.PendingQuery<T[]>, batch = BATCH): AsyncGenerator<T> {
  for await (const page of query.cursor(batch)) yield * page
}

async function * mapped<R, T> (source: AsyncIterable<R>, map: (row: R) => T): AsyncGenerator<T> {
  for await (const row of source) yield map(row)
}

/** A planned meal of `planned_meals m` whose planner is `users u`, as one JSON object. */
const plannedMeal = (db: Db) => db`json_build_object('id', m.id, 'mealPlanId', m.meal_plan_id, 'date', m.date::text,
  'mealType', m.meal_type, 'recipeId', m.recipe_id, 'customTitle', m.custom_title, 'servings', m.servings, 'notes', m.notes,
  'plannedBy', json_build_object('id', u.id, 'username', u.username),
  'createdAt', ${iso(db, 'm.created_at')}, 'updatedAt', ${iso(db, 'm.updated_at')})`

type RecipeRow = Omit<ExportRecipeView, 'averageRating'> & Pick<typeof recipes.$inferSelect, 'ratingSum'>
type PushRow = Omit<PushSubscriptionView, 'origin'> & Pick<typeof pushSubscriptions.$inferSelect, 'endpoint'>
/** `exportedAt` is written like the account's own timestamps (iso). */
type UserRow = ExportUserView & Record<'exportedAt', ExportUserView['createdAt']>

export const dataExportRepository = {
  /** The account, and the transaction's start: the instant the whole export is a snapshot of. Null: no such user. */
  async user (db: Db, userId: string): Promise<{ user: ExportUserView, exportedAt: string } | null> {
    const [row] = await db<UserRow[]>`
      select u.id, u.username, u.email, u.first_name, u.last_name, u.bio, u.location, u.avatar_url, u.verified,
        ${iso(db, 'u.email_verified_at')} as email_verified_at, u.active, u.oauth_provider, u.plan_id as plan,
        u.email_preferences, ${iso(db, 'u.do_not_sell_at')} as do_not_sell_at, ${iso(db, 'u.last_login_at')} as last_login_at,
        ${iso(db, 'u.password_changed_at')} as password_changed_at, ${iso(db, 'u.created_at')} as created_at,
        ${iso(db, 'u.updated_at')} as updated_at, ${iso(db, db`now()`)} as exported_at
      from users u where u.id = ${userId}`
    if (row == null) return null
    const { exportedAt, ...user } = row
    return { user, exportedAt }
  },

  async subscription (db: Db, userId: string): Promise<ExportSubscriptionView> {
    const [row] = await db<Array<NonNullable<ExportSubscriptionView>>>`
      select plan_id, status, ${iso(db, 'started_at')} as started_at, ${iso(db, 'ends_at')} as ends_at
      from subscriptions where user_id = ${userId}`
    return row ?? null
  },

  usage: (db: Db, userId: string) => rows(db<ExportUsageView[]>`
    select kind, period, count from usage where user_id = ${userId} order by period, kind`),

  /** The push service's origin only: the endpoint is a capability URL, and the keys are secrets. */
  pushSubscriptions: (db: Db, userId: string) => mapped(rows(db<PushRow[]>`
    select id, endpoint, user_agent, ${iso(db, 'created_at')} as created_at, ${iso(db, 'last_success_at')} as last_success_at
    from push_subscriptions x where x.user_id = ${userId} order by x.created_at, x.id`),
  ({ id, endpoint, ...row }): PushSubscriptionView => ({ id, origin: new URL(endpoint).origin, ...row })),

  /** Every recipe the user wrote (any visibility, draft or published, any moderation status). */
  recipes: (db: Db, userId: string) => mapped(rows(db<RecipeRow[]>`
    select r.id, r.slug, r.title, r.description, r.type, r.difficulty, r.visibility, r.published, r.moderation_status,
      r.cuisine, r.prep_time, r.cook_time, r.total_time, r.servings, r.ingredients, r.instructions, r.nutrition,
      r.image_url, r.source_url, r.source_image_url,
      coalesce((select json_agg(t.name order by t.name) from recipe_tags rt join tags t on t.id = rt.tag_id
        where rt.recipe_id = r.id), '[]') as tags,
      coalesce((select json_agg(json_build_object('id', u.id, 'username', u.username) order by u.username, u.id)
        from recipe_audience ra join users u on u.id = ra.user_id where ra.recipe_id = r.id), '[]') as audience,
      r.like_count, r.comment_count, r.rating_count, r.rating_sum,
      ${iso(db, 'r.created_at')} as created_at, ${iso(db, 'r.updated_at')} as updated_at,
      coalesce((select json_agg(json_build_object('id', v.id, 'version', v.version, 'createdAt', ${iso(db, 'v.created_at')},
        'snapshot', v.snapshot) order by v.version) from recipe_revisions v where v.recipe_id = r.id), '[]') as revisions
    from recipes r where r.author_id = ${userId} order by r.created_at, r.id`, RECIPE_BATCH),
  ({ ratingSum, revisions, ...recipe }): ExportRecipeView => ({ ...recipe, averageRating: averageRating(ratingSum, recipe.ratingCount), revisions })),

  /** The user's comments, wherever they are: the recipe by id only (it may be someone else's, now private). */
  comments: (db: Db, userId: string) => rows(db<ExportCommentView[]>`
    select id, recipe_id, parent_id, content, ${iso(db, 'created_at')} as created_at, ${iso(db, 'updated_at')} as updated_at
    from comments x where x.user_id = ${userId} order by x.created_at, x.id`),

  likes: (db: Db, userId: string) => rows(db<ExportMarkView[]>`
    select recipe_id, ${iso(db, 'created_at')} as created_at from likes x where x.user_id = ${userId} order by x.created_at, x.recipe_id`),

  ratings: (db: Db, userId: string) => rows(db<ExportRatingView[]>`
    select recipe_id, rating, ${iso(db, 'created_at')} as created_at, ${iso(db, 'updated_at')} as updated_at
    from ratings x where x.user_id = ${userId} order by x.created_at, x.recipe_id`),

  bookmarks: (db: Db, userId: string) => rows(db<ExportMarkView[]>`
    select recipe_id, ${iso(db, 'created_at')} as created_at from bookmarks x where x.user_id = ${userId} order by x.created_at, x.recipe_id`),

  collections: (db: Db, userId: string) => rows(db<ExportCollectionView[]>`
    select c.id, c.name, c.slug, c.description, c.is_public, c.type, ${iso(db, 'c.created_at')} as created_at,
      ${iso(db, 'c.updated_at')} as updated_at,
      coalesce((select json_agg(json_build_object('recipeId', i.recipe_id, 'sortOrder', i.sort_order, 'addedAt', ${iso(db, 'i.added_at')})
        order by i.sort_order, i.added_at, i.recipe_id) from collection_items i where i.collection_id = c.id), '[]') as recipes
    from collections c where c.user_id = ${userId} order by c.created_at, c.id`),

  cooked: (db: Db, userId: string) => rows(db<ExportMarkView[]>`
    select recipe_id, ${iso(db, 'created_at')} as created_at from cooked_recipes x where x.user_id = ${userId} order by x.created_at, x.recipe_id`),

  following: (db: Db, userId: string) => rows(db<ExportFollowView[]>`
    select u.id, u.username, ${iso(db, 'f.created_at')} as created_at
    from follows f join users u on u.id = f.following_id where f.follower_id = ${userId} order by f.created_at, u.id`),

  followers: (db: Db, userId: string) => rows(db<ExportFollowView[]>`
    select u.id, u.username, ${iso(db, 'f.created_at')} as created_at
    from follows f join users u on u.id = f.follower_id where f.following_id = ${userId} order by f.created_at, u.id`),

  /** Notifications the user received. */
  notifications: (db: Db, userId: string) => rows(db<ExportNotificationView[]>`
    select n.id, n.type, n.message, n.read, n.recipe_id,
      case when a.id is null then null else json_build_object('id', a.id, 'username', a.username) end as actor,
      n.data, ${iso(db, 'n.created_at')} as created_at
    from notifications n left join users a on a.id = n.actor_id where n.user_id = ${userId} order by n.created_at, n.id`),

  /** The user's meal plans with every meal planned in them (by them or by someone they let edit). */
  mealPlans: (db: Db, userId: string) => rows(db<ExportMealPlanView[]>`
    select p.id, p.name, p.description, p.start_date::text as start_date, p.end_date::text as end_date,
      ${iso(db, 'p.created_at')} as created_at, ${iso(db, 'p.updated_at')} as updated_at,
      coalesce((select json_agg(${plannedMeal(db)} order by m.date, m.created_at, m.id)
        from planned_meals m join users u on u.id = m.user_id where m.meal_plan_id = p.id), '[]') as meals
    from meal_plans p where p.user_id = ${userId} order by p.start_date, p.created_at, p.id`),

  /** Meals the user planned outside their own plans: the calendar (no plan) and plans others shared with them. */
  plannedMeals: (db: Db, userId: string) => mapped(rows(db<Array<Record<'meal', ExportPlannedMealView>>>`
    select ${plannedMeal(db)} as meal from planned_meals m join users u on u.id = m.user_id
    where m.user_id = ${userId}
      and (m.meal_plan_id is null or not exists (select 1 from meal_plans p where p.id = m.meal_plan_id and p.user_id = ${userId}))
    order by m.date, m.created_at, m.id`), row => row.meal),

  /** Shares of meal plans the user made. */
  sharedMealPlans: (db: Db, userId: string) => rows(db<ExportShareView[]>`
    select s.id, s.meal_plan_id, s.permission,
      case when f.id is null then null else json_build_object('id', f.id, 'name', f.name) end as family,
      case when u.id is null then null else json_build_object('id', u.id, 'username', u.username) end as "user",
      ${iso(db, 's.created_at')} as created_at
    from shared_meal_plans s left join families f on f.id = s.family_id left join users u on u.id = s.user_id
    where s.shared_by = ${userId} order by s.created_at, s.id`),

  groceryLists: (db: Db, userId: string) => rows(db<ExportGroceryListView[]>`
    select l.id, l.name, l.meal_plan_id, l.family_id, ${iso(db, 'l.created_at')} as created_at, ${iso(db, 'l.updated_at')} as updated_at,
      coalesce((select json_agg(json_build_object('id', i.id, 'name', i.name, 'quantity', i.quantity, 'unit', i.unit,
        'category', i.category, 'checked', i.checked, 'note', i.note, 'position', i.position,
        'createdAt', ${iso(db, 'i.created_at')}, 'updatedAt', ${iso(db, 'i.updated_at')}) order by i.position, i.created_at, i.id)
        from grocery_items i where i.list_id = l.id), '[]') as items
    from grocery_lists l where l.user_id = ${userId} order by l.created_at, l.id`),

  /** Family memberships: which family, the user's role, since when (not the invite code or other members). */
  families: (db: Db, userId: string) => rows(db<ExportFamilyView[]>`
    select f.id, f.name, m.role, ${iso(db, 'm.joined_at')} as joined_at
    from family_members m join families f on f.id = m.family_id where m.user_id = ${userId} order by m.joined_at, f.id`),

  media: (db: Db, userId: string) => rows(db<ExportMediaRow[]>`
    select id, kind, key, content_type, width, height, size, ${iso(db, 'created_at')} as created_at
    from media x where x.user_id = ${userId} order by x.created_at, x.id`),

  reports: (db: Db, userId: string) => rows(db<ExportReportView[]>`
    select id, type, target_id, reason, details, status, ${iso(db, 'created_at')} as created_at, ${iso(db, 'updated_at')} as updated_at
    from reports x where x.reporter_id = ${userId} order by x.created_at, x.id`),

  supportTickets: (db: Db, userId: string) => rows(db<ExportSupportTicketView[]>`
    select id, email, name, category, subject, message, page_url, user_agent, status, ${iso(db, 'created_at')} as created_at
    from support_tickets x where x.user_id = ${userId} order by x.created_at, x.id`),

  ccpaRequests: (db: Db, userId: string) => rows(db<ExportCcpaRequestView[]>`
    select id, email, name, request_type, details, status, ${iso(db, 'created_at')} as created_at
    from ccpa_requests x where x.user_id = ${userId} order by x.created_at, x.id`),

  dataDeletionRequests: (db: Db, userId: string) => rows(db<ExportDeletionRequestView[]>`
    select id, email, delete_type, reason, status, ${iso(db, 'scheduled_for')} as scheduled_for, ${iso(db, 'created_at')} as created_at,
      ${iso(db, 'started_at')} as started_at, ${iso(db, 'completed_at')} as completed_at, ${iso(db, 'cancelled_at')} as cancelled_at
    from data_deletion_requests x where x.user_id = ${userId} order by x.created_at, x.id`),

  imports: (db: Db, userId: string) => rows(db<ExportImportView[]>`
    select id, source, mode, url, status, error, recipe_id, duration_ms, ${iso(db, 'created_at')} as created_at
    from import_logs x where x.user_id = ${userId} order by x.created_at, x.id`),

  /** AI generations with the request and the instructions sent (not the request key, a hash used for idempotency). */
  aiGenerations: (db: Db, userId: string) => rows(db<ExportAiGenerationView[]>`
    select id, status, request, prompt, model, prompt_tokens, completion_tokens, total_tokens, attempts, latency_ms, recipe_id,
      error, ${iso(db, 'created_at')} as created_at, ${iso(db, 'finished_at')} as finished_at
    from ai_generations x where x.user_id = ${userId} order by x.created_at, x.id`),

  /** The email log rows addressed to the user, without their bodies or headers. */
  emails: (db: Db, userId: string) => rows(db<ExportEmailView[]>`
    select id, kind, subject, status, ${iso(db, 'created_at')} as created_at, ${iso(db, 'sent_at')} as sent_at
    from email_outbox x where x.user_id = ${userId} order by x.created_at, x.id`)
}

export default fp(async fastify => {
  fastify.decorate('dataExportRepository', dataExportRepository)
}, { name: 'data-export-repository' })
