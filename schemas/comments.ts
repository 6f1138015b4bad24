// Comments of both APIs (threaded /api/comments and the older flat /api/social/.../comments).
import { Type, type Static, type TSchema } from 'typebox'
import { MAX_REPLY_DEPTH } from '../db/schema/social.js'
import { DateTime, Id, Nullable } from './common.js'

export { MAX_REPLY_DEPTH }
export const COMMENT_MAX = 10_000

const commentFields = {
  id: Id,
  recipeId: Id,
  parentId: Nullable(Id, { description: 'The comment this one is filed under; null for a top-level comment' }),
  content: Type.String(),
  user: Type.Object({
    id: Id,
    username: Type.String(),
    firstName: Nullable(Type.String()),
    lastName: Nullable(Type.String()),
    avatarUrl: Nullable(Type.String())
  }),
  isAuthor: Type.Boolean({ description: 'Written by the recipe\'s author' }),
  createdAt: DateTime,
  updatedAt: DateTime
}

export const Comment = Type.Object(commentFields, { $id: 'Comment' })
export type CommentView = Static<typeof Comment>

/** A comment with its replies nested under it, oldest first. */
export interface ThreadedCommentView extends CommentView { replies: ThreadedCommentView[] }

/**
 * The nesting is spelled out level by level (no recursive `$ref`), so the serializer's work is bounded by
 * MAX_REPLY_DEPTH whatever the data holds.
 */
function level (depth: number): TSchema {
  const replies = depth === MAX_REPLY_DEPTH
    ? Type.Array(Type.Object({}), { maxItems: 0, description: 'Always empty: replies to a comment at the deepest level are filed next to it' })
    : Type.Array(level(depth + 1))
  return Type.Object({ ...commentFields, replies })
}

export const ThreadedComment = Type.Unsafe<ThreadedCommentView>({
  ...level(0),
  $id: 'ThreadedComment',
  description: `A top-level comment with its replies nested under it. Threads are at most ${MAX_REPLY_DEPTH} replies deep: ` +
    `a reply to a comment at depth ${MAX_REPLY_DEPTH} is filed next to it, under the same parent.`
})

const Content = Type.String({ minLength: 1, maxLength: COMMENT_MAX, description: `Trimmed; must not be blank; at most ${COMMENT_MAX} characters` })

export const CommentBody = Type.Object({ content: Content })

export const NewCommentBody = Type.Object({
  content: Content,
  parentId: Type.Optional(Nullable(Id, { description: 'Reply to this comment of the same recipe' }))
})
