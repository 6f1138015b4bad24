// The older comment routes: a flat page of comments, post (no threading, no editing), delete by the comment's
// author or the recipe's author.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { Comment, CommentBody } from '../../../schemas/comments.js'
import { ErrorRef, Id, Message, pagination, Pagination, PaginationQuery, ref } from '../../../schemas/common.js'

const Params = Type.Object({ recipeId: Id })

const socialComments: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.commentService

  fastify.get('/recipes/:recipeId/comments', {
    schema: {
      summary: 'A page of a recipe\'s comments, replies included, oldest first (no threading)',
      params: Params,
      querystring: PaginationQuery,
      response: { 200: Type.Object({ comments: Type.Array(ref(Comment)), pagination: ref(Pagination) }), 404: ErrorRef }
    }
  }, async request => {
    const { page, limit } = request.query
    const { items, total } = await service.flat(request.params.recipeId, currentUser(request).id, page, limit)
    return { comments: items, pagination: pagination(page, limit, total) }
  })

  fastify.post('/recipes/:recipeId/comments', {
    schema: {
      summary: 'Comment on a recipe',
      description: 'The recipe\'s author is notified, unless they wrote the comment.',
      params: Params,
      body: CommentBody,
      response: { 201: Type.Object({ comment: ref(Comment) }), 404: ErrorRef }
    }
  }, async (request, reply) => {
    const comment = await service.post(currentUser(request), request.params.recipeId, request.body.content)
    return await reply.code(201).send({ comment })
  })

  fastify.delete('/recipes/:recipeId/comments/:commentId', {
    schema: {
      summary: 'Delete a comment (its author or the recipe\'s author) and its replies',
      description: 'Works on your own comment even when you can no longer see the recipe. Otherwise: 403, or 404 when you cannot see the recipe.',
      params: Type.Object({ recipeId: Id, commentId: Id }),
      response: { 200: Message, 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => {
    await service.removeFromRecipe(currentUser(request).id, request.params.recipeId, request.params.commentId)
    return { message: 'Comment deleted' }
  })
}

export default socialComments
