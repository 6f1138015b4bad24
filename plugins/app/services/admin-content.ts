// Admins moderating content: the recipe moderation queue and the review of reports.
// - Moderation changes a recipe's status under its row lock. flagged and rejected recipes leave lists, search, detail
//   and feed for everyone but the author at once (repositories/visibility.ts reads the status on every query; the
//   listing triggers move the listing version, so no cached total outlives the change). The author hears of a change
//   that hides or shows the recipe again (a `system` notification in the same transaction).
// - Reviewing a report locks it, applies its action to the target in the same transaction (comment deletions through
//   the comment service, so counters stay exact) and records status, resolution, action, reviewer and time. Every
//   action is idempotent, so a repeated or concurrent identical review changes nothing more.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { MODERATION_STATUSES } from '../../../db/schema/index.js'
import {
  isUniqueViolation, RecipeNotFound, ReportActionNotApplicable, ReportNotFound, ReportReopenConflict, ReportTargetNotFound
} from '../../../lib/errors.js'
import {
  REPORT_ACTION_TARGETS, type AdminRecipeFilters, type AdminRecipeView, type AdminReportFilters, type AdminReportView,
  type ModerationInput, type ReportAction, type ReportReviewInput
} from '../../../schemas/admin-content.js'
import { pagination } from '../../../schemas/common.js'
import type { Db } from '../../external/db.js'
import type { ModerationState, ReportState, ReportWithoutTarget } from '../repositories/admin-content.js'

declare module 'fastify' {
  interface FastifyInstance {
    adminContentService: ReturnType<typeof createAdminContentService>
  }
}

type ModerationStatus = typeof MODERATION_STATUSES[number]

/** The admin recipe and report lists count matches up to this (`totalExact: false` beyond). */
export const ADMIN_CONTENT_COUNT_CAP = 10_000

const HIDDEN: readonly ModerationStatus[] = ['flagged', 'rejected']

/** Blank text is no text. */
const textOrNull = (text: string | undefined | null) => {
  const trimmed = text?.trim() ?? ''
  return trimmed === '' ? null : trimmed
}

/** What the author is told when a decision hides their recipe or shows it again (null: nothing to tell). */
function authorMessage (title: string, from: ModerationStatus, to: ModerationStatus): string | null {
  if (to === 'rejected') return `Your recipe "${title}" was rejected by the moderators and is hidden from others`
  if (to === 'flagged') return `Your recipe "${title}" was flagged by the moderators and is hidden from others while it is reviewed`
  if (HIDDEN.includes(from)) return `Your recipe "${title}" is visible to others again`
  return null
}

export function createAdminContentService (fastify: FastifyInstance) {
  const repo = fastify.adminContentRepository

  /**
   * Sets the recipe's status and note under its row lock (nothing is written when both are already so) and notifies
   * the author when the change hides or shows it. False when the recipe does not exist.
   */
  async function moderateIn (tx: Db, recipeId: string, status: ModerationStatus, note: string | null): Promise<boolean> {
    const current: ModerationState | null = await repo.lockModeration(tx, recipeId)
    if (current == null) return false
    if (current.moderationStatus === status && current.moderationNote === note) return true
    await repo.setModeration(tx, recipeId, status, note)
    const message = current.moderationStatus === status ? null : authorMessage(current.title, current.moderationStatus, status)
    if (message != null) {
      await fastify.notificationService.notify(tx, {
        type: 'system',
        recipientId: current.authorId,
        actorId: null,
        recipeId,
        message,
        data: { moderationStatus: status }
      })
    }
    return true
  }

  async function recipe (recipeId: string): Promise<AdminRecipeView> {
    const found = await repo.recipe(fastify.db, recipeId)
    if (found == null) throw new RecipeNotFound()
    return found
  }

  /** The reports with their targets, read in one query per target type. */
  async function withTargets (reports: ReportWithoutTarget[]): Promise<AdminReportView[]> {
    const ids = { recipe: [] as string[], comment: [] as string[], user: [] as string[] }
    for (const report of reports) ids[report.type].push(report.targetId)
    const targets = await repo.targets(fastify.db, ids)
    return reports.map(report => ({ ...report, target: targets.get(`${report.type}:${report.targetId}`) ?? null }))
  }

  /**
   * Applies `action` to the report's target in `tx`; false when the target does not exist. Each action is idempotent
   * (a status already set, a ban kept from its first time, a deactivation), and a deleted comment stays deleted.
   */
  async function applyAction (tx: Db, report: ReportState, action: ReportAction, note: string): Promise<boolean> {
    switch (action) {
      case 'none': return true
      case 'flag_recipe': return await moderateIn(tx, report.targetId, 'flagged', note)
      case 'reject_recipe': return await moderateIn(tx, report.targetId, 'rejected', note)
      case 'delete_comment': return await fastify.commentService.removeAsModerator(tx, report.targetId)
      case 'ban_user': return await fastify.adminUsersService.banIn(tx, report.targetId, note)
      case 'deactivate_user': return await fastify.adminUsersService.deactivateIn(tx, report.targetId)
    }
  }

  return {
    async recipes (filters: AdminRecipeFilters, page: number, limit: number) {
      const { items, total, hasNext } = await repo.recipes(fastify.db, filters, page, limit, ADMIN_CONTENT_COUNT_CAP)
      return { recipes: items, pagination: pagination(page, limit, total, { hasNext, totalExact: total < ADMIN_CONTENT_COUNT_CAP }) }
    },

    async moderate (recipeId: string, input: ModerationInput): Promise<AdminRecipeView> {
      const found = await fastify.transaction(async tx => await moderateIn(tx, recipeId, input.moderationStatus, textOrNull(input.note)))
      if (!found) throw new RecipeNotFound()
      return await recipe(recipeId)
    },

    async reports (filters: AdminReportFilters, page: number, limit: number) {
      const { items, total, hasNext } = await repo.reports(fastify.db, filters, page, limit, ADMIN_CONTENT_COUNT_CAP)
      return {
        reports: await withTargets(items),
        pagination: pagination(page, limit, total, { hasNext, totalExact: total < ADMIN_CONTENT_COUNT_CAP })
      }
    },

    /**
     * Reviews the report under its row lock: applies `action` (when given) to the target, then records status,
     * resolution (kept when omitted), action, reviewer and time. An action for another target type is 400; a target
     * that no longer exists is 404, unless this very action was already recorded (a repeated review). A user banned
     * or deactivated here loses their tokens once the transaction commits.
     */
    async review (adminId: string, reportId: string, input: ReportReviewInput): Promise<AdminReportView> {
      const action = input.action
      const targetId = await fastify.transaction(async tx => {
        const report = await repo.lockReport(tx, reportId)
        if (report == null) throw new ReportNotFound()
        const resolution = input.resolution === undefined ? report.resolution : textOrNull(input.resolution)
        if (action != null) {
          const fits = REPORT_ACTION_TARGETS[action]
          if (fits != null && fits !== report.type) throw new ReportActionNotApplicable()
          const note = resolution ?? `Report ${report.id}: ${report.reason}`
          if (!(await applyAction(tx, report, action, note)) && report.action !== action) throw new ReportTargetNotFound()
        }
        const recorded = action ?? report.action
        if (report.status === input.status && report.resolution === resolution && report.action === recorded) return report.targetId
        try {
          await repo.review(tx, reportId, { status: input.status, resolution, action: recorded, reviewedBy: adminId })
        } catch (err) {
          // Reopening a resolved report while the reporter has a newer open one on the same target.
          if (isUniqueViolation(err)) throw new ReportReopenConflict()
          throw err
        }
        return report.targetId
      })
      if (action === 'ban_user' || action === 'deactivate_user') await fastify.invalidateAuthState(targetId)
      const report = await repo.report(fastify.db, reportId)
      if (report == null) throw new ReportNotFound()
      const [view] = await withTargets([report])
      return view
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('adminContentService', createAdminContentService(fastify))
}, {
  name: 'admin-content-service',
  dependencies: ['admin-content-repository', 'admin-users-service', 'comment-service', 'notification-service', 'auth', 'db']
})
