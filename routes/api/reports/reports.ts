// Reports of a recipe, comment or user that exists and that the reporter can see; one open report per target.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { REPORT_TYPES } from '../../../db/schema/index.js'
import { HttpError } from '../../../lib/errors.js'
import { currentUser } from '../../../plugins/app/auth.js'
import { DateTime, ErrorRef, Id, StringEnum } from '../../../schemas/common.js'

const Report = Type.Object({ id: Id, type: Type.String(), targetId: Id, reason: Type.String(), details: Type.Union([Type.String(), Type.Null()]), status: Type.String(), createdAt: DateTime })

const reports: FastifyPluginAsyncTypebox = async fastify => {
  async function targetExists (type: typeof REPORT_TYPES[number], id: string, viewerId: string): Promise<boolean> {
    if (type === 'recipe') return (await fastify.recipesRepository.find(id, viewerId)) != null
    if (type === 'user') {
      const state = await fastify.usersRepository.authState(id)
      return state != null && state.active && !state.banned
    }
    const comment = await fastify.commentsRepository.one(id)
    return comment != null && (await fastify.recipesRepository.find(comment.recipeId, viewerId)) != null
  }

  fastify.post('/', {
    onRequest: fastify.authenticate,
    schema: {
      summary: 'Report a recipe, comment or user',
      body: Type.Object({
        type: StringEnum(REPORT_TYPES),
        targetId: Id,
        reason: Type.String({ minLength: 1, maxLength: 200 }),
        details: Type.Optional(Type.String({ maxLength: 5000 }))
      }),
      response: { 201: Type.Object({ report: Report }), 404: ErrorRef, 409: ErrorRef }
    }
  }, async (request, reply) => {
    const user = currentUser(request)
    const { type, targetId, reason, details } = request.body
    if (!(await targetExists(type, targetId, user.id))) throw new HttpError(404, 'Reported item not found')
    const report = await fastify.socialRepository.report(user.id, { type, targetId, reason: reason.trim(), details: details ?? null })
    if (report == null) throw new HttpError(409, 'You have already reported this')
    return await reply.code(201).send({ report })
  })
}

export default reports
