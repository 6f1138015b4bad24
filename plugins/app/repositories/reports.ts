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

  /**
   * Reports the user filed and reports about them, their recipes or their comments (a data deletion: decisions.md,
   * Compliance). Runs before their recipes and comments go, while the targets can still be told apart.
   */
  async removeConcerning (db: Db, userId: string): Promise<void> {
    await db`delete from reports where id in (
      select id from reports where reporter_id = ${userId}
      union all select id from reports where type = 'user' and target_id = ${userId}
      union all select p.id from reports p join recipes r on r.id = p.target_id where p.type = 'recipe' and r.author_id = ${userId}
      union all select p.id from reports p join comments c on c.id = p.target_id where p.type = 'comment' and c.user_id = ${userId})`
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
