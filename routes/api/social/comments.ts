// The older comment routes: a flat page of comments, post (no threading, no editing), delete by the comment's
// author or the recipe's author.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { Comment, CommentBody } from '../../../schemas/comments.js'
import { described, ErrorRef, Id, Message, pagination, Pagination, PaginationQuery, RecipeParams, ref } from '../../../schemas/common.js'

const socialComments: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.commentService

  fastify.get('/recipes/:recipeId/comments', {
    schema: {
      operationId: 'social.listComments',
      summary: 'A page of a recipe\'s comments, replies included, oldest first (no threading)',
      description: 'The older, flat form of GET /api/comments/recipe/{recipeId}.',
      params: RecipeParams,
      querystring: PaginationQuery,
      response: { 200: Type.Object({ comments: Type.Array(ref(Comment)), pagination: ref(Pagination) }, { description: 'A page of comments' }), 404: ErrorRef }
    }
  }, async request => {
    const { page, limit } = request.query
    const { items, total } = await service.flat(request.params.recipeId, currentUser(request).id, page, limit)
    return { comments: items, pagination: pagination(page, limit, total) }
  })

  fastify.post('/recipes/:recipeId/comments', {
    schema: {
      operationId: 'social.createComment',
      summary: 'Comment on a recipe',
      description: 'The recipe\'s author is notified, unless they wrote the comment.',
      params: RecipeParams,
      body: CommentBody,
      response: { 201: Type.Object({ comment: ref(Comment) }, { description: 'The new comment' }), 404: ErrorRef }
    }
  }, async (request, reply) => {
    const comment = await service.post(currentUser(request), request.params.recipeId, request.body.content)
    return await reply.code(201).send({ comment })
  })

  fastify.delete('/recipes/:recipeId/comments/:commentId', {
    schema: {
      operationId: 'social.deleteComment',
      summary: 'Delete a comment (its author or the recipe\'s author) and its replies',
      description: 'Works on your own comment even when you can no longer see the recipe. Otherwise: 403, or 404 when you cannot see the recipe.',
      params: Type.Object({ ...RecipeParams.properties, commentId: Id }),
      response: { 200: described('Deleted', Message), 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => {
    await service.removeFromRecipe(currentUser(request).id, request.params.recipeId, request.params.commentId)
    return { message: 'Comment deleted' }
  })
}

export default socialComments
