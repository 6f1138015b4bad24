// The caller's avatar: upload one (square, 512 px WebP) or remove it.
import multipart from '@fastify/multipart'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AVATAR_TYPES, IMAGE_LIMITS } from '../../../lib/images.js'
import { MULTIPART_OPTIONS, singleFile } from '../../../lib/multipart-file.js'
import { multipartBodyDoc } from '../../../lib/openapi-document.js'
import { currentUser } from '../../../plugins/app/auth.js'
import { described, ErrorRef, Message, ref } from '../../../schemas/common.js'
import { UserSelf } from '../../../schemas/users.js'

const avatar: FastifyPluginAsyncTypebox = async fastify => {
  await fastify.register(multipart, MULTIPART_OPTIONS)
  const users = fastify.userService

  fastify.post('/avatar', {
    onRequest: fastify.authenticate,
    config: { swaggerTransform: multipartBodyDoc('avatar', `${AVATAR_TYPES.join(', ')}; at most 10 MB`) },
    schema: {
      operationId: 'users.uploadAvatar',
      summary: 'Set your avatar',
      description: `multipart/form-data with one file in the field \`avatar\` (${AVATAR_TYPES.join(', ')}, at most 10 MB); ` +
        'the declared type must match the file\'s signature. Stored as a square WebP (centre crop, at most ' +
        `${IMAGE_LIMITS.avatarSide} px), metadata removed; the previous avatar's file is deleted.`,
      response: {
        200: Type.Object({ user: ref(UserSelf) }, { description: 'Your profile with its new avatarUrl' }),
        400: ErrorRef,
        413: ErrorRef,
        415: ErrorRef,
        503: ErrorRef,
        507: described('The file storage is full: nothing was stored', ErrorRef)
      }
    }
  }, async request => {
    const file = await singleFile(request, 'avatar')
    try {
      return { user: await users.setAvatar(currentUser(request).id, file) }
    } finally {
      file.release()
    }
  })

  fastify.delete('/avatar', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'users.deleteAvatar',
      summary: 'Remove your avatar',
      description: 'avatarUrl becomes null and the file is deleted. Removing an avatar you do not have is not an error.',
      response: { 200: described('Removed', Message) }
    }
  }, async request => {
    await users.removeAvatar(currentUser(request).id)
    return { message: 'Avatar removed' }
  })
}

export default avatar
