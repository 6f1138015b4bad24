// The older comment routes: flat list, post, delete by the comment's author or the recipe's author.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { HttpError } from '../../../lib/errors.js'
import { currentUser } from '../../../plugins/app/auth.js'
import { postComment } from '../../../lib/comments.js'
import { ErrorRef, Id, Message, ref } from '../../../schemas/common.js'
import { Comment, CommentBody } from '../../../schemas/comments.js'

const Params = Type.Object({ recipeId: Id })

const socialComments: FastifyPluginAsyncTypebox = async fastify => {
  const repo = fastify.commentsRepository

  fastify.get('/recipes/:recipeId/comments', {
    onRequest: fastify.authenticate,
    schema: { summary: 'Comments of a recipe, oldest first (no threading)', params: Params, response: { 200: Type.Object({ comments: Type.Array(ref(Comment)) }), 404: ErrorRef } }
  }, async request => {
    const recipe = await fastify.recipesRepository.visible(request.params.recipeId, currentUser(request).id)
    return { comments: await repo.forRecipe(recipe.id, false) }
  })

  fastify.post('/recipes/:recipeId/comments', {
    onRequest: fastify.authenticate,
    schema: { summary: 'Comment on a recipe', params: Params, body: CommentBody, response: { 201: Type.Object({ comment: ref(Comment) }), 404: ErrorRef } }
  }, async (request, reply) => {
    const comment = await postComment(fastify, currentUser(request), request.params.recipeId, request.body.content)
    return await reply.code(201).send({ comment })
  })

  fastify.delete('/recipes/:recipeId/comments/:commentId', {
    onRequest: fastify.authenticate,
    schema: {
      summary: 'Delete a comment (its author or the recipe\'s author)',
      params: Type.Object({ recipeId: Id, commentId: Id }),
      response: { 200: Message, 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => {
    const user = currentUser(request)
    const recipe = await fastify.recipesRepository.visible(request.params.recipeId, user.id)
    const comment = await repo.one(request.params.commentId)
    if (comment == null || comment.recipeId !== recipe.id) throw new HttpError(404, 'Comment not found')
    if (comment.user.id !== user.id && recipe.author.id !== user.id) throw new HttpError(403, 'Not authorized to delete this comment')
    await repo.remove(comment.id)
    return { message: 'Comment deleted' }
  })
}

export default socialComments
