// Shared by both comment APIs: visible recipe, non-blank trimmed text, author notification.
import type { FastifyInstance } from 'fastify'
import { HttpError, validationError } from './errors.js'
import type { AuthUser } from '../plugins/app/auth.js'

export function commentText (content: string): string {
  const text = content.trim()
  if (text === '') throw validationError(['content: must not be blank'])
  return text
}

/** Posts a comment (or reply) as `user` on a recipe they can see, and notifies whoever should hear of it. */
export async function postComment (fastify: FastifyInstance, user: AuthUser, recipeId: string, content: string, parentId: string | null = null) {
  const recipe = await fastify.recipesRepository.visible(recipeId, user.id)
  const text = commentText(content)
  let parentAuthor: string | null = null
  if (parentId != null) {
    const parent = await fastify.commentsRepository.one(parentId)
    if (parent == null) throw new HttpError(404, 'Comment not found')
    if (parent.recipeId !== recipe.id) throw new HttpError(400, 'The parent comment belongs to another recipe')
    parentAuthor = parent.user.id
  }
  const comment = await fastify.commentsRepository.create(recipe.id, user.id, text, parentId)
  fastify.notify({
    type: 'comment',
    recipientId: recipe.author.id,
    actorId: user.id,
    recipeId: recipe.id,
    message: `${user.username} commented on your recipe "${recipe.title}"`,
    data: { commentId: comment.id }
  })
  if (parentAuthor != null && parentAuthor !== recipe.author.id) {
    fastify.notify({
      type: 'reply',
      recipientId: parentAuthor,
      actorId: user.id,
      recipeId: recipe.id,
      message: `${user.username} replied to your comment`,
      data: { commentId: comment.id, parentId }
    })
  }
  return comment
}
