// Comments and replies. The recipe's comment counter moves in the same transaction as the rows it counts
// (deleting a comment also removes its replies, and the counter drops by all of them).
import { createId } from '@paralleldrive/cuid2'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type postgres from 'postgres'
import { toIso } from '../../../lib/pg-values.js'

declare module 'fastify' {
  interface FastifyInstance {
    commentsRepository: ReturnType<typeof createCommentsRepository>
  }
}

export interface CommentView {
  id: string
  recipeId: string
  parentId: string | null
  content: string
  user: { id: string, username: string, firstName: string | null, lastName: string | null, avatarUrl: string | null }
  /** Written by the recipe's author. */
  isAuthor: boolean
  createdAt: string
  updatedAt: string
  replies?: CommentView[]
}

function mapComment (row: postgres.Row): CommentView {
  return {
    id: row.id,
    recipeId: row.recipe_id,
    parentId: row.parent_id,
    content: row.content,
    user: { id: row.user_id, username: row.username, firstName: row.first_name, lastName: row.last_name, avatarUrl: row.avatar_url },
    isAuthor: row.is_author,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at)
  }
}

export function createCommentsRepository (fastify: FastifyInstance) {
  const { sql } = fastify
  const columns = sql`c.id, c.recipe_id, c.parent_id, c.content, c.created_at, c.updated_at, c.user_id,
    u.username, u.first_name, u.last_name, u.avatar_url, (c.user_id = r.author_id) as is_author`

  async function one (id: string): Promise<CommentView | null> {
    const [row] = await sql`select ${columns} from comments c join users u on u.id = c.user_id join recipes r on r.id = c.recipe_id where c.id = ${id}`
    return row == null ? null : mapComment(row)
  }

  return {
    one,

    /** All comments of a recipe, oldest first; `threaded` nests replies under their parents. */
    async forRecipe (recipeId: string, threaded: boolean): Promise<CommentView[]> {
      const rows = await sql`select ${columns} from comments c join users u on u.id = c.user_id join recipes r on r.id = c.recipe_id
        where c.recipe_id = ${recipeId} order by c.created_at, c.id`
      const all = rows.map(mapComment)
      if (!threaded) return all
      const byId = new Map(all.map(c => [c.id, { ...c, replies: [] as CommentView[] }]))
      const roots: CommentView[] = []
      for (const comment of byId.values()) {
        const parent = comment.parentId == null ? undefined : byId.get(comment.parentId)
        if (parent != null) parent.replies.push(comment)
        else roots.push(comment)
      }
      return roots
    },

    async create (recipeId: string, userId: string, content: string, parentId: string | null = null): Promise<CommentView> {
      const id = createId()
      await sql.begin(async tx => {
        await tx`insert into comments (id, recipe_id, user_id, parent_id, content) values (${id}, ${recipeId}, ${userId}, ${parentId}, ${content})`
        await tx`update recipes set comment_count = comment_count + 1 where id = ${recipeId}`
      })
      return (await one(id))!
    },

    async edit (id: string, content: string): Promise<CommentView> {
      await sql`update comments set content = ${content}, updated_at = now() where id = ${id}`
      return (await one(id))!
    },

    async remove (id: string): Promise<void> {
      await sql.begin(async tx => {
        const removed = await tx`
          with recursive thread as (
            select id, recipe_id from comments where id = ${id}
            union all select c.id, c.recipe_id from comments c join thread t on c.parent_id = t.id
          ) delete from comments where id in (select id from thread) returning recipe_id`
        if (removed.length > 0) {
          await tx`update recipes set comment_count = greatest(comment_count - ${removed.length}, 0) where id = ${removed[0].recipe_id}`
        }
      })
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('commentsRepository', createCommentsRepository(fastify))
}, { name: 'comments-repository', dependencies: ['db'] })
