// Reports users filed: the list for moderators and their review, which may act on the reported item.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { currentAdmin } from '../../../../plugins/app/admin-auth.js'
import {
  AdminReportList, AdminReportParams, AdminReportQuery, AdminReportResponse, ReportReviewBody
} from '../../../../schemas/admin-content.js'
import { described, ErrorRef } from '../../../../schemas/common.js'

const review: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.adminContentService

  fastify.get('/', {
    schema: {
      operationId: 'admin.reports.list',
      summary: 'Reports, newest first',
      description: 'Filter by `status` (`pending`, `reviewed`, `resolved`) and `type` (`recipe`, `comment`, `user`). ' +
        'Each report comes with its reporter, its reviewer and a summary of its target (the recipe\'s title, the ' +
        'comment\'s first 200 characters, or the username; null once the item is gone). The total is counted up to ' +
        '10,000 (`totalExact: false` beyond).',
      querystring: AdminReportQuery,
      response: { 200: AdminReportList }
    }
  }, async request => {
    const { page, limit, ...filters } = request.query
    return await service.reports(filters, page, limit)
  })

  fastify.patch('/:reportId', {
    schema: {
      operationId: 'admin.reports.review',
      summary: 'Review a report, optionally acting on the reported item',
      description: 'Sets `status` (`reviewed` or `resolved`), `resolution` (kept when omitted) and records you as ' +
        'the reviewer, now. `action` is applied to the target in the same transaction as the review:\n' +
        '- `none`: nothing is done to the target (any type);\n' +
        '- `flag_recipe`, `reject_recipe` (recipe reports): the recipe\'s moderation status becomes `flagged` or ' +
        '`rejected`, hiding it from everyone but its author at once; the author is notified;\n' +
        '- `delete_comment` (comment reports): the comment and its replies are deleted and the recipe\'s comment count ' +
        'goes down by as many;\n' +
        '- `ban_user`, `deactivate_user` (user reports): the account is banned (the resolution, or the report\'s ' +
        'reason, becomes the ban reason) or deactivated, and the user\'s tokens stop working at once.\n' +
        'An action for another type of target is 400; a target that no longer exists is 404 (use `none`). Repeating ' +
        'a review changes nothing more. Reopening a resolved report while its reporter has filed a newer open one on ' +
        'the same item is 409.',
      params: AdminReportParams,
      body: ReportReviewBody,
      response: { 200: described('The report as reviewed', AdminReportResponse), 400: ErrorRef, 404: ErrorRef, 409: ErrorRef }
    }
  }, async request => ({ report: await service.review(currentAdmin(request).id, request.params.reportId, request.body) }))
}

export default review
