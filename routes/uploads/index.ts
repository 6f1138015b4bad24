// Stored files, served read-only from the configured storage (the local driver's only way out; with S3 the files'
// URLs point at the bucket, and this route still reads through to it). Outside /api: no rate limits, no auth, as
// static files are; the strict parameter patterns admit nothing but a stored key.
import type { Readable } from 'node:stream'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { NotFound, ServiceUnavailable } from '../../lib/errors.js'
import { IMMUTABLE_CACHE } from '../../lib/storage.js'
import { ErrorRef } from '../../schemas/common.js'
import { StoredFileParams } from '../../schemas/media.js'

const files: FastifyPluginAsyncTypebox = async fastify => {
  fastify.get('/:userId/:fileName', {
    schema: {
      tags: ['Upload'],
      operationId: 'upload.file',
      summary: 'An uploaded image',
      description: 'The URL an upload answers with (local storage). Files never change, so they are cacheable for a year.',
      params: StoredFileParams,
      response: {
        200: { description: 'The WebP image', content: { 'image/webp': { schema: Type.Unsafe<Readable | Buffer>({ type: 'string', format: 'binary' }) } } },
        304: { description: 'Not modified (If-None-Match)', type: 'null' },
        404: ErrorRef,
        503: ErrorRef
      }
    }
  }, async (request, reply) => {
    const { userId, fileName } = request.params
    const etag = `"${fileName}"`
    // A stored file never changes: an ETag naming it is always current.
    const headers = {
      'cache-control': IMMUTABLE_CACHE,
      etag,
      // Shown by pages on other origins (the web app), never run as a document.
      'cross-origin-resource-policy': 'cross-origin',
      'content-security-policy': "default-src 'none'; sandbox"
    }
    if (request.headers['if-none-match'] === etag) return reply.code(304).headers(headers).send(null)
    const file = await fastify.storage.get(`uploads/${userId}/${fileName}`).catch(err => {
      request.log.error({ err }, 'storage read failed')
      throw new ServiceUnavailable()
    })
    if (file == null) throw new NotFound()
    return reply.headers(headers).type(file.contentType).header('content-length', file.size).send(file.body)
  })
}

export default files
