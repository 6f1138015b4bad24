// Database backups: write one (eight tables as JSON in the server's DATA_DIR/backups), list, download and delete them.
import type { Readable } from 'node:stream'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { BackupCreated, BackupDocument, BackupList, BackupListQuery, BackupParams } from '../../../../schemas/admin-backup.js'
import { described, ErrorRef, Message, ref } from '../../../../schemas/common.js'

const NAME_RULE = 'The name must be exactly `backup-<YYYY-MM-DDTHH-mm-ss[.sss]Z>.json` (400 otherwise: never a path); ' +
  'a well-formed name that is not a backup file is 404.'
const BAD_NAME = described('Not a backup file name', ErrorRef)

const backups: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.backupService

  fastify.post('/backup', {
    schema: {
      operationId: 'admin.database.backup',
      summary: 'Write a backup of the database',
      description: 'Writes `backup-<ISO instant, - for :>.json` to the server\'s backups directory: users (without any ' +
        'secret: no password hash, reset token, token version, failed sign-in count or external sign-in id), recipes, ' +
        'tags, recipe_tags, comments, likes, ratings and follows, all from one consistent snapshot, streamed to disk. ' +
        'Answers once the file is complete; a backup that fails leaves no file. One backup at a time across all ' +
        'instances: 409 while another is being written.',
      response: { 201: described('The backup written, with the rows of each table', BackupCreated), 409: ErrorRef }
    }
  }, async (_request, reply) => await reply.code(201).send({ backup: await service.create() }))

  fastify.get('/backups', {
    schema: {
      operationId: 'admin.database.listBackups',
      summary: 'The backup files, newest first',
      querystring: BackupListQuery,
      response: { 200: BackupList }
    }
  }, async request => await service.list(request.query.page, request.query.limit))

  fastify.get('/backups/:filename', {
    // A name off the pattern is 400 (decisions.md, Backup), not the 404 the app gives a malformed id in a path: the
    // failed check is attached instead of answered, and the service refuses the name with its own error.
    attachValidation: true,
    schema: {
      operationId: 'admin.database.downloadBackup',
      summary: 'Download a backup file',
      description: `The file as written (UTF-8 JSON), streamed as an attachment. ${NAME_RULE}`,
      params: BackupParams,
      response: {
        200: {
          description: 'The backup (Content-Disposition: attachment), streamed',
          headers: {
            'content-disposition': { type: 'string', description: 'attachment; filename="<filename>"' },
            'cache-control': { type: 'string', description: 'no-store' }
          },
          // The document's shape, sent as a stream of the file (the handler's body is the Readable).
          content: { 'application/json': { schema: Type.Unsafe<Readable>(ref(BackupDocument)) } }
        },
        400: BAD_NAME,
        404: ErrorRef
      }
    }
  }, async (request, reply) => {
    const { filename } = request.params
    const file = await service.open(filename)
    reply.type('application/json; charset=utf-8')
      .header('content-length', file.size)
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store')
    return await reply.send(file.stream)
  })

  fastify.delete('/backups/:filename', {
    attachValidation: true,
    schema: {
      operationId: 'admin.database.deleteBackup',
      summary: 'Delete a backup file',
      description: NAME_RULE,
      params: BackupParams,
      response: { 200: described('Deleted', Message), 400: BAD_NAME, 404: ErrorRef }
    }
  }, async request => {
    await service.remove(request.params.filename)
    return { message: 'Backup deleted' }
  })
}

export default backups
