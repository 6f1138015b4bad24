// The comment rules of both APIs: comment on a recipe you can see, reply within its recipe (threads capped at
// MAX_REPLY_DEPTH), edit your own, delete your own (the older API also lets the recipe's author delete). Insert or
// delete, the recipe's comment counter and the notifications commit in one transaction; comment writes of one recipe
// take the recipe's row lock first, so the counter stays exact when a thread is deleted while someone replies to it.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { CommentDeleteForbidden, CommentNotFound, NotCommentAuthor, validationError, WrongParentRecipe } from '../../../lib/errors.js'
import { MAX_REPLY_DEPTH, type CommentView, type ThreadedCommentView } from '../../../schemas/comments.js'
import type { Db } from '../../external/db.js'
import type { AuthUser } from '../auth.js'
import { commentView, type CommentRecord } from '../repositories/comments.js'
import type { Page } from '../repositories/recipes.js'

declare module 'fastify' {
  interface FastifyInstance {
    commentService: ReturnType<typeof createCommentService>
  }
}

/** Trimmed text; blank is a validation error. */
function commentText (content: string): string {
  const text = content.trim()
  if (text === '') throw validationError(['content: must not be blank'])
  return text
}

/**
 * Nests replies under their top-level comments without recursion. `replies` come shallowest first; a reply whose
 * parent is missing from the page (or that sits deeper than the cap) is attached to the deepest ancestor that fits.
 */
export function nest (roots: CommentRecord[], replies: CommentRecord[]): ThreadedCommentView[] {
  const nodes = new Map<string, { view: ThreadedCommentView, level: number, parent: string | null }>()
  const threads = roots.map(root => {
    const view = { ...commentView(root), replies: [] }
    nodes.set(root.id, { view, level: 0, parent: null })
    return view
  })
  for (const reply of replies) {
    let parent = nodes.get(reply.parentId ?? reply.rootId) ?? nodes.get(reply.rootId)
    if (parent == null) continue
    while (parent.level >= MAX_REPLY_DEPTH && parent.parent != null) parent = nodes.get(parent.parent)!
    const view = { ...commentView(reply), replies: [] }
    parent.view.replies.push(view)
    nodes.set(reply.id, { view, level: parent.level + 1, parent: parent.view.id })
  }
  return threads
}

export function createCommentService (fastify: FastifyInstance) {
  const { commentsRepository: comments, recipesRepository: recipes } = fastify

  /** The comment if the caller can see it and its recipe; otherwise 404, as if it did not exist. */
  async function visible (db: Db, id: string, userId: string | null): Promise<CommentRecord> {
    const comment = await comments.find(db, id)
    if (comment == null || (comment.authorHidden && comment.user.id !== userId) ||
      (await recipes.find(db, comment.recipeId, userId)) == null) throw new CommentNotFound()
    return comment
  }

  /** Posts on a recipe the user can see, as a reply to `parentId` when given; notifies in the same transaction. */
  async function post (user: AuthUser, recipeId: string, content: string, parentId: string | null): Promise<CommentView> {
    const text = commentText(content)
    return await fastify.transaction(async tx => {
      await recipes.lock(tx, recipeId)
      const recipe = await fastify.recipeService.get(recipeId, user.id, tx)
      const parent = parentId == null ? null : await comments.find(tx, parentId)
      if (parentId != null && (parent == null || (parent.authorHidden && parent.user.id !== user.id))) throw new CommentNotFound()
      if (parent != null && parent.recipeId !== recipe.id) {
        // Only a parent the user could see anyway is named as being elsewhere.
        if ((await recipes.find(tx, parent.recipeId, user.id)) == null) throw new CommentNotFound()
        throw new WrongParentRecipe()
      }
      // A reply to a comment at the deepest level is filed next to it, under the same parent.
      const filedUnder = parent == null ? null : parent.depth >= MAX_REPLY_DEPTH ? parent.parentId : parent.id
      const id = await comments.insert(tx, {
        recipeId: recipe.id,
        userId: user.id,
        content: text,
        parentId: filedUnder,
        rootId: parent?.rootId ?? null,
        depth: parent == null ? 0 : Math.min(parent.depth + 1, MAX_REPLY_DEPTH)
      })
      await comments.addToCount(tx, recipe.id, 1)
      await fastify.notificationService.notify(tx, {
        type: 'comment',
        recipientId: recipe.author.id,
        actorId: user.id,
        recipeId: recipe.id,
        message: `${user.username} commented on your recipe "${recipe.title}"`,
        data: { commentId: id }
      })
      // The author of the comment answered hears of it (unless they already did as the recipe's author).
      if (parent != null && parent.user.id !== recipe.author.id) {
        await fastify.notificationService.notify(tx, {
          type: 'reply',
          recipientId: parent.user.id,
          actorId: user.id,
          recipeId: recipe.id,
          message: `${user.username} replied to your comment`,
          data: { commentId: id, parentId: parent.id }
        })
      }
      return commentView((await comments.find(tx, id))!)
    })
  }

  /** Deletes the comment and its replies in `tx`, moving the counter by as many rows as really went (returned). */
  async function removeThreadIn (tx: Db, comment: Pick<CommentRecord, 'id' | 'recipeId'>): Promise<number> {
    await recipes.lock(tx, comment.recipeId)
    const removed = await comments.removeWithReplies(tx, comment.id)
    if (removed > 0) await comments.addToCount(tx, comment.recipeId, -removed)
    return removed
  }

  async function removeThread (comment: CommentRecord): Promise<void> {
    await fastify.transaction(async tx => {
      if (await removeThreadIn(tx, comment) === 0) throw new CommentNotFound()
    })
  }

  /**
   * Who may delete: `mayDelete` decides for the comment's author and whoever else the API allows, whatever the
   * recipe's visibility is now. Anyone else gets 403 if they can see the recipe, 404 if not (nothing revealed).
   */
  async function remove (userId: string, comment: CommentRecord | null, mayDelete: (c: CommentRecord) => boolean): Promise<void> {
    if (comment == null) throw new CommentNotFound()
    if (!mayDelete(comment)) {
      if ((await recipes.find(fastify.db, comment.recipeId, userId)) == null) throw new CommentNotFound()
      throw new CommentDeleteForbidden()
    }
    await removeThread(comment)
  }

  return {
    /** A page of top-level comments of a recipe the viewer can see, each with its replies nested under it. */
    async threads (recipeId: string, viewerId: string | null, page: number, limit: number): Promise<Page<ThreadedCommentView>> {
      await fastify.recipeService.get(recipeId, viewerId)
      const { items: roots, total } = await comments.topLevel(fastify.db, recipeId, page, limit)
      const replies = await comments.replies(fastify.db, roots.map(root => root.id))
      return { items: nest(roots, replies), total }
    },

    /** A page of all comments of a recipe the viewer can see, replies included, oldest first (older API). */
    async flat (recipeId: string, viewerId: string, page: number, limit: number): Promise<Page<CommentView>> {
      await fastify.recipeService.get(recipeId, viewerId)
      const { items, total } = await comments.flat(fastify.db, recipeId, page, limit)
      return { items: items.map(commentView), total }
    },

    async post (user: AuthUser, recipeId: string, content: string, parentId: string | null = null): Promise<CommentView> {
      return await post(user, recipeId, content, parentId)
    },

    /** Replies to a comment the user can see. */
    async reply (user: AuthUser, commentId: string, content: string): Promise<CommentView> {
      const parent = await visible(fastify.db, commentId, user.id)
      return await post(user, parent.recipeId, content, parent.id)
    },

    /** Edits the user's own comment on a recipe they can still see. */
    async edit (userId: string, id: string, content: string): Promise<CommentView> {
      const text = commentText(content)
      const comment = await visible(fastify.db, id, userId)
      if (comment.user.id !== userId) throw new NotCommentAuthor()
      await comments.update(fastify.db, id, text)
      return commentView((await comments.find(fastify.db, id)) ?? comment)
    },

    /** Threaded API: only the comment's author deletes (with its replies). */
    async remove (userId: string, id: string): Promise<void> {
      await remove(userId, await comments.find(fastify.db, id), c => c.user.id === userId)
    },

    /** Older API: the comment's author or the recipe's author deletes; the comment must be on that recipe. */
    async removeFromRecipe (userId: string, recipeId: string, id: string): Promise<void> {
      const comment = await comments.find(fastify.db, id)
      await remove(userId, comment?.recipeId === recipeId ? comment : null, c => c.user.id === userId || c.recipeAuthorId === userId)
    },

    /**
     * Moderation (admin report actions): deletes the comment and its replies in the caller's transaction, counter
     * included, whoever wrote it; false when it does not exist (any more).
     */
    async removeAsModerator (tx: Db, id: string): Promise<boolean> {
      const comment = await comments.find(tx, id)
      return comment != null && await removeThreadIn(tx, comment) > 0
    },

    /** The comment if the viewer can see its recipe (reports check their target with it). */
    async get (id: string, viewerId: string | null): Promise<CommentView> {
      return commentView(await visible(fastify.db, id, viewerId))
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('commentService', createCommentService(fastify))
}, { name: 'comment-service', dependencies: ['comments-repository', 'recipes-repository', 'recipe-service', 'notification-service'] })
