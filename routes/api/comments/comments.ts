// Threaded comments: a page of threads with isAuthor, post (or reply with parentId), reply, edit (author), delete
// (comment author only, whatever the recipe's visibility is now).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { Comment, CommentBody, MAX_REPLY_DEPTH, NewCommentBody, ThreadedComment } from '../../../schemas/comments.js'
import { described, ErrorRef, Id, Message, pagination, Pagination, PaginationQuery, RecipeParams, ref } from '../../../schemas/common.js'

const Params = Type.Object({ commentId: Id })
const One = (description: string) => Type.Object({ comment: ref(Comment) }, { description })
const DEPTH_RULE = `Threads are at most ${MAX_REPLY_DEPTH} replies deep: a reply to a comment at depth ${MAX_REPLY_DEPTH} ` +
  'is filed next to it (same parent); the author of the comment answered is still notified.'

const comments: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.commentService

  fastify.get('/recipe/:recipeId', {
    onRequest: fastify.optionalAuth,
    schema: {
      operationId: 'comments.list',
      summary: 'A page of a recipe\'s comment threads, oldest first',
      description: `Pages count top-level comments; each carries all of its replies nested under it, oldest first. ${DEPTH_RULE}`,
      params: RecipeParams,
      querystring: PaginationQuery,
      response: { 200: Type.Object({ comments: Type.Array(ref(ThreadedComment)), pagination: ref(Pagination) }, { description: 'A page of threads' }), 404: ErrorRef }
    }
  }, async request => {
    const { page, limit } = request.query
    const { items, total } = await service.threads(request.params.recipeId, request.user?.id ?? null, page, limit)
    return { comments: items, pagination: pagination(page, limit, total) }
  })

  fastify.post('/recipe/:recipeId', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'comments.create',
      summary: 'Comment on a recipe, or reply with parentId',
      description: `The recipe's author is notified ('comment'), and the author of the comment answered ('reply'). ${DEPTH_RULE}`,
      params: RecipeParams,
      body: NewCommentBody,
      response: { 201: One('The new comment'), 404: ErrorRef }
    }
  }, async (request, reply) => {
    const { content, parentId } = request.body
    const comment = await service.post(currentUser(request), request.params.recipeId, content, parentId ?? null)
    return await reply.code(201).send({ comment })
  })

  fastify.post('/:commentId/reply', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'comments.reply',
      summary: 'Reply to a comment',
      description: DEPTH_RULE,
      params: Params,
      body: CommentBody,
      response: { 201: One('The new reply'), 404: ErrorRef }
    }
  }, async (request, reply) => {
    const comment = await service.reply(currentUser(request), request.params.commentId, request.body.content)
    return await reply.code(201).send({ comment })
  })

  fastify.put('/:commentId', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'comments.update',
      summary: 'Edit your comment',
      params: Params,
      body: CommentBody,
      response: { 200: One('The comment as saved'), 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => ({ comment: await service.edit(currentUser(request).id, request.params.commentId, request.body.content) }))

  fastify.delete('/:commentId', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'comments.delete',
      summary: 'Delete your comment and its replies',
      description: 'Works on your own comment even when you can no longer see the recipe. Someone else\'s comment: 403, or 404 when you cannot see its recipe.',
      params: Params,
      response: { 200: described('Deleted', Message), 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => {
    await service.remove(currentUser(request).id, request.params.commentId)
    return { message: 'Comment deleted' }
  })
}

export default comments
