// Comment rows. Threads are stored flat with their top-level comment (root_id) and depth, so a page of threads is
// two indexed queries and nothing here recurses further than MAX_REPLY_DEPTH levels. The recipe's comment counter
// is moved by the caller, in the transaction of the insert or delete.
import { createId } from '@paralleldrive/cuid2'
import fp from 'fastify-plugin'
import type { comments, recipes, users } from '../../../db/schema/index.js'
import type { CommentView } from '../../../schemas/comments.js'
import type { Db } from '../../external/db.js'
import type { Counted, Flagged, Fragment } from './sql.js'
import type { Page } from './recipes.js'

declare module 'fastify' {
  interface FastifyInstance {
    commentsRepository: typeof commentsRepository
  }
}

type CommentRow = Pick<typeof comments.$inferSelect, 'id' | 'recipeId' | 'userId' | 'parentId' | 'rootId' | 'depth' | 'content' | 'createdAt' | 'updatedAt'> &
  Pick<typeof users.$inferSelect, 'username' | 'firstName' | 'lastName' | 'avatarUrl'> & Flagged<'isAuthor' | 'authorHidden'> & {
    recipeAuthorId: (typeof recipes.$inferSelect)['authorId']
  }

/** A comment with what the rules need: its thread, depth and the recipe's author. */
export interface CommentRecord extends CommentView {
  rootId: string
  depth: number
  recipeAuthorId: string
  /** Its writer is deactivated or banned: shown to nobody else (decisions.md). */
  authorHidden: boolean
}

export interface NewComment {
  recipeId: string
  userId: string
  content: string
  /** Null for a top-level comment. */
  parentId: string | null
  /** The thread's top-level comment; null for a top-level comment (it is its own root). */
  rootId: string | null
  depth: number
}

function record (row: CommentRow): CommentRecord {
  return {
    id: row.id,
    recipeId: row.recipeId,
    parentId: row.parentId,
    content: row.content,
    user: { id: row.userId, username: row.username, firstName: row.firstName, lastName: row.lastName, avatarUrl: row.avatarUrl },
    isAuthor: row.isAuthor,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    rootId: row.rootId,
    depth: row.depth,
    recipeAuthorId: row.recipeAuthorId,
    authorHidden: row.authorHidden
  }
}

/** The public shape (what the rules need stays inside). */
export function commentView ({ rootId, depth, recipeAuthorId, authorHidden, ...view }: CommentRecord): CommentView {
  return view
}

const select = (db: Db) => db`
  select c.id, c.recipe_id, c.parent_id, c.root_id, c.depth, c.content, c.created_at, c.updated_at,
    u.id as user_id, u.username, u.first_name, u.last_name, u.avatar_url,
    (c.user_id = r.author_id) as is_author, r.author_id as recipe_author_id, not ${shownWriter(db)} as author_hidden
  from comments c join users u on u.id = c.user_id join recipes r on r.id = c.recipe_id`

/**
 * The writer (`users u`) is neither deactivated nor banned: lists leave the others' comments out, and with a hidden
 * top-level comment its thread (replies to a hidden reply move up to their thread, as nest() does for any missing
 * parent). The writer cannot sign in meanwhile; reactivation shows them again.
 */
const shownWriter = (db: Db) => db`(u.active and u.banned_at is null)`

/** How many comments of `where` (over `comments c`) have a shown writer. */
const countShown = async (db: Db, where: Fragment) => await db<Array<Counted<'total'>>>`
  select count(*)::int as total from comments c join users u on u.id = c.user_id where ${where} and ${shownWriter(db)}`

export const commentsRepository = {
  async find (db: Db, id: string): Promise<CommentRecord | null> {
    const [row] = await db<CommentRow[]>`${select(db)} where c.id = ${id}`
    return row == null ? null : record(row)
  },

  async insert (db: Db, comment: NewComment): Promise<string> {
    const id = createId()
    await db`insert into comments (id, recipe_id, user_id, parent_id, root_id, depth, content)
      values (${id}, ${comment.recipeId}, ${comment.userId}, ${comment.parentId}, ${comment.rootId ?? id}, ${comment.depth}, ${comment.content})`
    return id
  },

  async update (db: Db, id: string, content: string): Promise<void> {
    await db`update comments set content = ${content}, updated_at = now() where id = ${id}`
  },

  /** Deletes the comment and every reply under it; returns how many rows went. */
  async removeWithReplies (db: Db, id: string): Promise<number> {
    // Depth is capped, so this recursion takes at most MAX_REPLY_DEPTH steps.
    const removed = await db`
      with recursive thread as (
        select id from comments where id = ${id}
        union all select c.id from comments c join thread t on c.parent_id = t.id
      ) delete from comments where id in (select id from thread) returning 1`
    return removed.length
  },

  /** Moves the recipe's comment counter by `delta`. */
  async addToCount (db: Db, recipeId: string, delta: number): Promise<void> {
    await db`update recipes set comment_count = greatest(comment_count + ${delta}, 0) where id = ${recipeId}`
  },

  /** A page of a recipe's top-level comments, oldest first. */
  async topLevel (db: Db, recipeId: string, pageNo: number, limit: number): Promise<Page<CommentRecord>> {
    const [rows, [{ total }]] = await Promise.all([
      db<CommentRow[]>`${select(db)} where c.recipe_id = ${recipeId} and c.parent_id is null and ${shownWriter(db)}
        order by c.created_at, c.id limit ${limit} offset ${(pageNo - 1) * limit}`,
      countShown(db, db`c.recipe_id = ${recipeId} and c.parent_id is null`)
    ])
    return { items: rows.map(record), total }
  },

  /** Every reply in the threads of these top-level comments, shallowest first, then oldest first. */
  async replies (db: Db, rootIds: string[]): Promise<CommentRecord[]> {
    if (rootIds.length === 0) return []
    const rows = await db<CommentRow[]>`${select(db)} where c.root_id = any(${rootIds}::text[]) and c.parent_id is not null and ${shownWriter(db)}
      order by c.depth, c.created_at, c.id`
    return rows.map(record)
  },

  /** A page of all of a recipe's comments, replies included, oldest first (the older, unthreaded API). */
  async flat (db: Db, recipeId: string, pageNo: number, limit: number): Promise<Page<CommentRecord>> {
    const [rows, [{ total }]] = await Promise.all([
      db<CommentRow[]>`${select(db)} where c.recipe_id = ${recipeId} and ${shownWriter(db)}
        order by c.created_at, c.id limit ${limit} offset ${(pageNo - 1) * limit}`,
      countShown(db, db`c.recipe_id = ${recipeId}`)
    ])
    return { items: rows.map(record), total }
  }
}

export default fp(async fastify => {
  fastify.decorate('commentsRepository', commentsRepository)
}, { name: 'comments-repository' })
