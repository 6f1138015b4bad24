// The caller's complete data as one JSON document (GDPR right of access and portability), streamed as a download.
import type { Readable } from 'node:stream'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { EXPORT_LIMITS } from '../../../plugins/app/services/data-export.js'
import { ErrorRef, ref } from '../../../schemas/common.js'
import { DataExport } from '../../../schemas/gdpr.js'

const exportRoutes: FastifyPluginAsyncTypebox = async fastify => {
  const exports = fastify.dataExportService

  fastify.get('/export', {
    schema: {
      operationId: 'gdpr.export',
      summary: 'Download all your data as one JSON document',
      description: 'Everything you own: account, settings, consent, recipes (any visibility or status, with revisions), ' +
        'comments, likes, ratings, bookmarks, collections, cooking history, follows, notifications, meal plans, grocery ' +
        'lists, families, uploads, reports and requests, and the log of emails sent to you. Other users appear only as ' +
        'id and username. The document is one consistent snapshot; it is not paged but streamed (chunked transfer ' +
        'encoding, no Content-Length), so it starts at once and a large account never has to fit in memory. A response ' +
        'that ends before the closing brace was cut off: ask again. An attachment named ' +
        '`recipes-export-<username>-<YYYY-MM-DD>.json`, never cached. ' +
        `At most ${EXPORT_LIMITS.perHour} exports an hour (429 with retryAfter); 503 while the server is busy with other exports.`,
      response: {
        200: {
          description: 'Your data (Content-Disposition: attachment), streamed',
          headers: {
            'content-disposition': { type: 'string', description: 'attachment; filename="recipes-export-<username>-<YYYY-MM-DD>.json"' },
            'cache-control': { type: 'string', description: 'no-store' }
          },
          // The document's shape, sent as a stream of it (the handler's body is the Readable).
          content: { 'application/json': { schema: Type.Unsafe<Readable>(ref(DataExport)) } }
        },
        503: ErrorRef
      }
    }
  }, async (request, reply) => {
    const download = await exports.export(currentUser(request))
    reply.type('application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="${download.filename}"`)
      .header('cache-control', 'no-store')
    return await reply.send(download.stream)
  })
}

export default exportRoutes
