// Content as the admin API sees it: recipes with their moderation state (the queue reads recipes_moderation_idx) and
// reports with their reporter, reviewer and a summary of their targets (read in one query per target type, never
// per row). The rules live in services/admin-content.ts.
import fp from 'fastify-plugin'
import type { adminUsers, MODERATION_STATUSES, recipes, reports, users } from '../../../db/schema/index.js'
import {
  REPORT_ACTION_TARGETS, type AdminRecipeFilters, type AdminRecipeView, type AdminReportFilters, type AdminReportView,
  type ReportAction, type ReportTargetView
} from '../../../schemas/admin-content.js'
import type { Db } from '../../external/db.js'
import type { Page } from './recipe-queries.js'
import { countUpTo, escapeLike } from './sql.js'

declare module 'fastify' {
  interface FastifyInstance {
    adminContentRepository: typeof adminContentRepository
  }
}

type ModerationStatus = typeof MODERATION_STATUSES[number]
type ReportRow = typeof reports.$inferSelect
type User = typeof users.$inferSelect
type Admin = typeof adminUsers.$inferSelect

interface AdminRecipeRow extends Pick<typeof recipes.$inferSelect, 'id' | 'slug' | 'title' | 'visibility' | 'published' |
  'moderationStatus' | 'moderationNote' | 'moderatedAt' | 'likeCount' | 'commentCount' | 'createdAt' | 'updatedAt' |
  'authorId'> {
  authorUsername: User['username']
}

/** What a moderation decision is made on, read under the recipe's row lock. */
export type ModerationState = Pick<typeof recipes.$inferSelect, 'id' | 'authorId' | 'title' | 'moderationStatus' | 'moderationNote'>

interface AdminReportRow extends Omit<ReportRow, 'reporterId' | 'reviewedBy'> {
  reporterId: User['id']
  reporterUsername: User['username']
  reviewerId: Admin['id'] | null
  reviewerUsername: Admin['username'] | null
}

/** A report as the review reads it under its row lock. */
export type ReportState = Pick<ReportRow, 'id' | 'type' | 'targetId' | 'reason' | 'status' | 'resolution'> & { action: ReportAction | null }

export interface ReportChanges {
  status: ReportRow['status']
  resolution: string | null
  action: ReportAction | null
  reviewedBy: string
}

/** One target of any type: `summary`, `recipeId` and `state` are computed for the API's view of it. */
interface TargetRow extends Pick<ReportTargetView, 'summary' | 'recipeId' | 'state'> {
  id: ReportRow['targetId']
  ownerId: User['id'] | null
  ownerUsername: User['username'] | null
}

const iso = (date: Date | null) => date?.toISOString() ?? null
const isReportAction = (value: string | null): value is ReportAction => value != null && Object.hasOwn(REPORT_ACTION_TARGETS, value)

function recipeView (row: AdminRecipeRow): AdminRecipeView {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    author: { id: row.authorId, username: row.authorUsername },
    visibility: row.visibility,
    published: row.published,
    moderationStatus: row.moderationStatus,
    moderationNote: row.moderationNote,
    moderatedAt: iso(row.moderatedAt),
    likeCount: row.likeCount,
    commentCount: row.commentCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString()
  }
}

const selectRecipe = (db: Db) => db`
  select r.id, r.slug, r.title, r.visibility, r.published, r.moderation_status, r.moderation_note, r.moderated_at,
    r.like_count, r.comment_count, r.created_at, r.updated_at, u.id as author_id, u.username as author_username
  from recipes r join users u on u.id = r.author_id`

/** A report without its target (the service attaches the targets of a page at once). */
export type ReportWithoutTarget = Omit<AdminReportView, 'target'>

function reportView (row: AdminReportRow): ReportWithoutTarget {
  return {
    id: row.id,
    type: row.type,
    targetId: row.targetId,
    reason: row.reason,
    details: row.details,
    status: row.status,
    resolution: row.resolution,
    action: isReportAction(row.action) ? row.action : null,
    reporter: { id: row.reporterId, username: row.reporterUsername },
    reviewedBy: row.reviewerId == null ? null : { id: row.reviewerId, username: row.reviewerUsername ?? '' },
    reviewedAt: iso(row.reviewedAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString()
  }
}

const selectReport = (db: Db) => db`
  select rp.id, rp.type, rp.target_id, rp.reason, rp.details, rp.status, rp.resolution, rp.action, rp.reviewed_at,
    rp.created_at, rp.updated_at, u.id as reporter_id, u.username as reporter_username,
    a.id as reviewer_id, a.username as reviewer_username
  from reports rp join users u on u.id = rp.reporter_id left join admin_users a on a.id = rp.reviewed_by`

function targetView (row: TargetRow): ReportTargetView {
  return {
    summary: row.summary,
    owner: row.ownerId == null ? null : { id: row.ownerId, username: row.ownerUsername ?? '' },
    recipeId: row.recipeId,
    state: row.state
  }
}

export const adminContentRepository = {
  // ---- Recipes ----

  /**
   * A page of recipes, newest first; `total` counted up to `countCap`, `hasNext` from one row past the page. A
   * non-approved status filter repeats the moderation index's predicate as a literal, so even a generic prepared
   * plan walks recipes_moderation_idx.
   */
  async recipes (db: Db, filters: AdminRecipeFilters, pageNo: number, limit: number, countCap: number): Promise<Page<AdminRecipeView> & { hasNext: boolean }> {
    const status = filters.moderationStatus
    const where = db`true
      ${status != null ? db`and r.moderation_status = ${status}` : db``}
      ${status != null && status !== 'approved' ? db`and r.moderation_status <> 'approved'` : db``}
      ${filters.authorId != null ? db`and r.author_id = ${filters.authorId}` : db``}
      ${filters.q != null ? db`and lower(r.title) like ${`%${escapeLike(filters.q.toLowerCase())}%`}` : db``}`
    const [rows, total] = await Promise.all([
      db<AdminRecipeRow[]>`${selectRecipe(db)} where ${where}
        order by r.created_at desc, r.id desc limit ${limit + 1} offset ${(pageNo - 1) * limit}`,
      countUpTo(db, db`recipes r`, where, countCap)
    ])
    return { items: rows.slice(0, limit).map(recipeView), total, hasNext: rows.length > limit }
  },

  async recipe (db: Db, id: string): Promise<AdminRecipeView | null> {
    const [row] = await db<AdminRecipeRow[]>`${selectRecipe(db)} where r.id = ${id}`
    return row == null ? null : recipeView(row)
  },

  /** The recipe's moderation state, its row locked for the rest of the transaction; null when unknown. */
  async lockModeration (db: Db, id: string): Promise<ModerationState | null> {
    const [row] = await db<ModerationState[]>`
      select id, author_id, title, moderation_status, moderation_note from recipes where id = ${id} for update`
    return row ?? null
  },

  async setModeration (db: Db, id: string, status: ModerationStatus, note: string | null): Promise<void> {
    await db`update recipes set moderation_status = ${status}, moderation_note = ${note}, moderated_at = now() where id = ${id}`
  },

  // ---- Reports ----

  /** A page of reports, newest first; `total` counted up to `countCap`, `hasNext` from one row past the page. */
  async reports (db: Db, filters: AdminReportFilters, pageNo: number, limit: number, countCap: number): Promise<Page<ReportWithoutTarget> & { hasNext: boolean }> {
    const where = db`true
      ${filters.status != null ? db`and rp.status = ${filters.status}` : db``}
      ${filters.type != null ? db`and rp.type = ${filters.type}` : db``}`
    const [rows, total] = await Promise.all([
      db<AdminReportRow[]>`${selectReport(db)} where ${where}
        order by rp.created_at desc, rp.id desc limit ${limit + 1} offset ${(pageNo - 1) * limit}`,
      countUpTo(db, db`reports rp`, where, countCap)
    ])
    return { items: rows.slice(0, limit).map(reportView), total, hasNext: rows.length > limit }
  },

  async report (db: Db, id: string): Promise<ReportWithoutTarget | null> {
    const [row] = await db<AdminReportRow[]>`${selectReport(db)} where rp.id = ${id}`
    return row == null ? null : reportView(row)
  },

  /** The report, its row locked for the rest of the transaction; null when unknown. */
  async lockReport (db: Db, id: string): Promise<ReportState | null> {
    const [row] = await db<Array<Pick<ReportRow, 'id' | 'type' | 'targetId' | 'reason' | 'status' | 'resolution' | 'action'>>>`
      select id, type, target_id, reason, status, resolution, action from reports where id = ${id} for update`
    return row == null ? null : { ...row, action: isReportAction(row.action) ? row.action : null }
  },

  async review (db: Db, id: string, changes: ReportChanges): Promise<void> {
    await db`update reports set status = ${changes.status}, resolution = ${changes.resolution}, action = ${changes.action},
      reviewed_by = ${changes.reviewedBy}, reviewed_at = now(), updated_at = now() where id = ${id}`
  },

  /** Summaries of report targets by type, one query per type present; missing ids are absent from the map. */
  async targets (db: Db, ids: { recipe: string[], comment: string[], user: string[] }): Promise<Map<string, ReportTargetView>> {
    const byType = async (type: keyof typeof ids, query: (list: string[]) => Promise<TargetRow[]>) =>
      ids[type].length === 0 ? [] : (await query(ids[type])).map(row => [`${type}:${row.id}`, targetView(row)] as const)
    const found = await Promise.all([
      byType('recipe', async list => await db<TargetRow[]>`
        select r.id, r.title as summary, u.id as owner_id, u.username as owner_username, r.id as recipe_id, r.moderation_status as state
        from recipes r join users u on u.id = r.author_id where r.id = any(${list}::text[])`),
      byType('comment', async list => await db<TargetRow[]>`
        select c.id, left(c.content, 200) as summary, u.id as owner_id, u.username as owner_username, c.recipe_id, null as state
        from comments c join users u on u.id = c.user_id where c.id = any(${list}::text[])`),
      byType('user', async list => await db<TargetRow[]>`
        select u.id, u.username as summary, u.id as owner_id, u.username as owner_username, null as recipe_id,
          case when u.banned_at is not null then 'banned' when not u.active then 'deactivated' else 'active' end as state
        from users u where u.id = any(${list}::text[])`)
    ])
    return new Map(found.flat())
  }
}

export default fp(async fastify => {
  fastify.decorate('adminContentRepository', adminContentRepository)
}, { name: 'admin-content-repository' })
