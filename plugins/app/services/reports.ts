// Reports of a recipe, comment or user: the target must exist and be visible to the reporter (otherwise the answer
// is the same as for an unknown id), and a reporter has one open report per target.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { AlreadyReported, ReportTargetNotFound } from '../../../lib/errors.js'
import type { ReportInput, ReportView } from '../../../schemas/social.js'

declare module 'fastify' {
  interface FastifyInstance {
    reportService: ReturnType<typeof createReportService>
  }
}

export function createReportService (fastify: FastifyInstance) {
  const { db, reportsRepository: reports } = fastify

  async function targetVisible (type: ReportInput['type'], id: string, reporterId: string): Promise<boolean> {
    switch (type) {
      case 'recipe': return (await fastify.recipesRepository.find(db, id, reporterId)) != null
      case 'comment': return await reports.commentVisible(db, id, reporterId)
      case 'user': return (await fastify.usersRepository.activeUser(db, id)) != null
    }
  }

  return {
    async report (reporterId: string, input: ReportInput): Promise<ReportView> {
      if (!(await targetVisible(input.type, input.targetId, reporterId))) throw new ReportTargetNotFound()
      const details = input.details?.trim() ?? ''
      const report = await reports.insert(db, reporterId, {
        type: input.type,
        targetId: input.targetId,
        reason: input.reason.trim(),
        details: details === '' ? null : details
      })
      if (report == null) throw new AlreadyReported()
      return report
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('reportService', createReportService(fastify))
}, { name: 'report-service', dependencies: ['reports-repository', 'recipes-repository', 'users-repository'] })
