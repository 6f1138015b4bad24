import { Type, type TSchema } from 'typebox'
import { DateTime, Id } from './common.js'

export const COMMENT_MAX = 10_000

const commentFields = {
  id: Id,
  recipeId: Id,
  parentId: Type.Union([Id, Type.Null()]),
  content: Type.String(),
  user: Type.Object({
    id: Id,
    username: Type.String(),
    firstName: Type.Union([Type.String(), Type.Null()]),
    lastName: Type.Union([Type.String(), Type.Null()]),
    avatarUrl: Type.Union([Type.String(), Type.Null()])
  }),
  isAuthor: Type.Boolean({ description: 'Written by the recipe\'s author' }),
  createdAt: DateTime,
  updatedAt: DateTime
}

export const Comment = Type.Object(commentFields, { $id: 'Comment' })

/** A comment with its replies, nested (replies of replies included). */
export const ThreadedComment: TSchema = Type.Object({
  ...commentFields,
  replies: Type.Array(Type.Unsafe({ $ref: 'ThreadedComment' }))
}, { $id: 'ThreadedComment' })

export const CommentBody = Type.Object({
  content: Type.String({ minLength: 1, maxLength: COMMENT_MAX, description: 'Trimmed; must not be blank' })
})
