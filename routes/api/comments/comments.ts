// Threaded comments: list with replies and isAuthor, post, reply, edit (author), delete (comment author only).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { HttpError } from '../../../lib/errors.js'
import { currentUser } from '../../../plugins/app/auth.js'
import { commentText, postComment } from '../../../lib/comments.js'
import { ErrorRef, Id, Message, ref } from '../../../schemas/common.js'
import { Comment, CommentBody, ThreadedComment } from '../../../schemas/comments.js'

const One = Type.Object({ comment: ref(Comment) })
const NOT_FOUND = 'Comment not found'

const comments: FastifyPluginAsyncTypebox = async fastify => {
  const repo = fastify.commentsRepository

  /** The comment, if the caller can see its recipe. */
  async function visibleComment (id: string, userId: string) {
    const comment = await repo.one(id)
    if (comment == null || (await fastify.recipesRepository.find(comment.recipeId, userId)) == null) throw new HttpError(404, NOT_FOUND)
    return comment
  }

  fastify.get('/recipe/:recipeId', {
    onRequest: fastify.optionalAuth,
    schema: {
      summary: 'Comments of a recipe with their replies, oldest first',
      params: Type.Object({ recipeId: Id }),
      response: { 200: Type.Object({ comments: Type.Array(ref(ThreadedComment)) }), 404: ErrorRef }
    }
  }, async request => {
    const recipe = await fastify.recipesRepository.visible(request.params.recipeId, request.user?.id ?? null)
    return { comments: await repo.forRecipe(recipe.id, true) }
  })

  fastify.post('/recipe/:recipeId', {
    onRequest: fastify.authenticate,
    schema: {
      summary: 'Comment on a recipe, or reply with parentId',
      params: Type.Object({ recipeId: Id }),
      body: Type.Object({ ...CommentBody.properties, parentId: Type.Optional(Type.Union([Id, Type.Null()])) }),
      response: { 201: One, 400: ErrorRef, 404: ErrorRef }
    }
  }, async (request, reply) => {
    const comment = await postComment(fastify, currentUser(request), request.params.recipeId, request.body.content, request.body.parentId ?? null)
    return await reply.code(201).send({ comment })
  })

  fastify.post('/:id/reply', {
    onRequest: fastify.authenticate,
    schema: { summary: 'Reply to a comment', params: Type.Object({ id: Id }), body: CommentBody, response: { 201: One, 404: ErrorRef } }
  }, async (request, reply) => {
    const user = currentUser(request)
    const parent = await visibleComment(request.params.id, user.id)
    const comment = await postComment(fastify, user, parent.recipeId, request.body.content, parent.id)
    return await reply.code(201).send({ comment })
  })

  fastify.put('/:id', {
    onRequest: fastify.authenticate,
    schema: { summary: 'Edit your comment', params: Type.Object({ id: Id }), body: CommentBody, response: { 200: One, 403: ErrorRef, 404: ErrorRef } }
  }, async request => {
    const user = currentUser(request)
    const comment = await visibleComment(request.params.id, user.id)
    if (comment.user.id !== user.id) throw new HttpError(403, 'Not authorized to edit this comment')
    return { comment: await repo.edit(comment.id, commentText(request.body.content)) }
  })

  fastify.delete('/:id', {
    onRequest: fastify.authenticate,
    schema: { summary: 'Delete your comment (and its replies)', params: Type.Object({ id: Id }), response: { 200: Message, 403: ErrorRef, 404: ErrorRef } }
  }, async request => {
    const user = currentUser(request)
    const comment = await visibleComment(request.params.id, user.id)
    if (comment.user.id !== user.id) throw new HttpError(403, 'Not authorized to delete this comment')
    await repo.remove(comment.id)
    return { message: 'Comment deleted' }
  })
}

export default comments
