// Image uploads: POST a file, get back its stored WebP; DELETE one of your own by its key.
import multipart from '@fastify/multipart'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { IMAGE_LIMITS, IMAGE_TYPES } from '../../../lib/images.js'
import { MULTIPART_OPTIONS, singleFile } from '../../../lib/multipart-file.js'
import { multipartBodyDoc, wildcardDoc } from '../../../lib/openapi-document.js'
import { currentUser } from '../../../plugins/app/auth.js'
import { MAX_IMAGES_PER_USER } from '../../../plugins/app/services/media.js'
import { described, ErrorRef, Message } from '../../../schemas/common.js'
import { ImageKeyParams, ImageUpload } from '../../../schemas/media.js'

const image: FastifyPluginAsyncTypebox = async fastify => {
  await fastify.register(multipart, MULTIPART_OPTIONS)
  const media = fastify.mediaService

  fastify.post('/image', {
    config: { swaggerTransform: multipartBodyDoc('image', `${IMAGE_TYPES.join(', ')}; at most 10 MB`) },
    schema: {
      operationId: 'upload.image',
      summary: 'Upload an image',
      description: `multipart/form-data with one file in the field \`image\` (${IMAGE_TYPES.join(', ')}, at most 10 MB and ` +
        `${IMAGE_LIMITS.pixels / 1_000_000} megapixels). The declared type must match the file's signature. The image is ` +
        `re-encoded: rotated upright, metadata (EXIF, GPS) removed, at most ${IMAGE_LIMITS.side} px a side, WebP (GIFs keep ` +
        `their first frame). Sending the same bytes again answers the earlier upload (200). At most ${MAX_IMAGES_PER_USER} ` +
        'images a user (403 with `limit`).',
      response: {
        200: described('Your earlier upload of the same file', ImageUpload),
        201: described('The stored image', ImageUpload),
        403: ErrorRef,
        400: ErrorRef,
        413: ErrorRef,
        415: ErrorRef,
        503: ErrorRef,
        507: described('The file storage is full: nothing was stored', ErrorRef)
      }
    }
  }, async (request, reply) => {
    const file = await singleFile(request, 'image')
    try {
      const { upload, created } = await media.uploadImage(currentUser(request).id, file)
      return await reply.code(created ? 201 : 200).send(upload)
    } finally {
      file.release()
    }
  })

  fastify.delete('/image/*', {
    config: { swaggerTransform: wildcardDoc('key') },
    schema: {
      operationId: 'upload.deleteImage',
      summary: 'Delete one of your images',
      description: 'Takes the `key` from the upload (`uploads/<yourUserId>/<id>.webp`; its slashes may be sent as they are). ' +
        'A key outside your own folder, or with `..` or a second layer of %-encoding, is 403. Your recipes that show the ' +
        'image lose it (imageUrl becomes null).',
      params: ImageKeyParams,
      response: {
        200: described('Deleted', Message),
        403: ErrorRef,
        404: ErrorRef,
        503: ErrorRef
      }
    }
  }, async request => {
    await media.deleteImage(currentUser(request).id, request.params['*'])
    return { message: 'Image deleted' }
  })
}

export default image
