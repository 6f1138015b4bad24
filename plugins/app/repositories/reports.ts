// Reports for the moderators. A partial unique index (reports_open_key) allows one open report per reporter and
// target, so a duplicate is refused by the database even when two arrive at once.
import { createId } from '@paralleldrive/cuid2'
import fp from 'fastify-plugin'
import type { reports } from '../../../db/schema/index.js'
import type { ReportInput, ReportView } from '../../../schemas/social.js'
import type { Db } from '../../external/db.js'
import { recipeVisibleTo } from './visibility.js'

declare module 'fastify' {
  interface FastifyInstance {
    reportsRepository: typeof reportsRepository
  }
}

type ReportRow = Pick<typeof reports.$inferSelect, 'id' | 'type' | 'targetId' | 'reason' | 'details' | 'status' | 'createdAt'>

const view = (row: ReportRow): ReportView => ({ ...row, createdAt: row.createdAt.toISOString() })

export const reportsRepository = {
  /** Files a report; null when the reporter already has an open report on this target. */
  async insert (db: Db, reporterId: string, input: Required<Pick<ReportInput, 'type' | 'targetId' | 'reason'>> & { details: string | null }): Promise<ReportView | null> {
    const [row] = await db<ReportRow[]>`
      insert into reports (id, reporter_id, type, target_id, reason, details)
      values (${createId()}, ${reporterId}, ${input.type}, ${input.targetId}, ${input.reason}, ${input.details})
      on conflict do nothing
      returning id, type, target_id, reason, details, status, created_at`
    return row == null ? null : view(row)
  },

  /** Whether the comment exists on a recipe the viewer may see (a report's target is an untyped id). */
  async commentVisible (db: Db, commentId: string, viewerId: string): Promise<boolean> {
    const [row] = await db`select 1 from comments c join recipes r on r.id = c.recipe_id where c.id = ${commentId} and ${recipeVisibleTo(db, viewerId)}`
    return row != null
  }
}

export default fp(async fastify => {
  fastify.decorate('reportsRepository', reportsRepository)
}, { name: 'reports-repository' })
