// Likes and the recipe's like counter. The counter moves only with a row that was really inserted or deleted, in
// the same statement, so it stays equal to the rows under any concurrency.
import fp from 'fastify-plugin'
import type { recipes } from '../../../db/schema/index.js'
import type { Db } from '../../external/db.js'
import { quickCommit } from './sql.js'
import { recipeVisibleTo } from './visibility.js'

declare module 'fastify' {
  interface FastifyInstance {
    likesRepository: typeof likesRepository
  }
}

type LikeCountRow = Pick<typeof recipes.$inferSelect, 'likeCount'>

export interface Liked { added: boolean, likeCount: number, authorId: string, title: string }
export interface Unliked { removed: boolean, likeCount: number, visible: boolean }

export const likesRepository = {
  /**
   * Likes the recipe when the viewer may see it (null otherwise): the row and the counter in one statement, so a
   * storm of likes costs one round trip each, committed without waiting for the disk (quickCommit). `likeCount` is
   * the new count, or the one read when it was already liked.
   */
  async like (db: Db, userId: string, recipeId: string): Promise<Liked | null> {
    const [row] = await db<Array<{ authorId: string, title: string, likeCount: number, newCount: number | null }>>`
      with ${quickCommit(db)},
      target as (
        select r.id, r.author_id, r.title, r.like_count from recipes r, quick_commit
        where r.id = ${recipeId} and ${recipeVisibleTo(db, userId)}),
      added as (
        insert into likes (user_id, recipe_id) select ${userId}, id from target on conflict do nothing returning recipe_id),
      counted as (
        update recipes r set like_count = r.like_count + 1 from added where r.id = added.recipe_id returning r.like_count)
      select t.author_id, t.title, t.like_count, (select like_count from counted) as new_count from target t`
    if (row == null) return null
    return { added: row.newCount != null, likeCount: row.newCount ?? row.likeCount, authorId: row.authorId, title: row.title }
  },

  /** Removes the like whoever may see the recipe now, with the counter, in one statement (null: no such recipe). */
  async unlike (db: Db, userId: string, recipeId: string): Promise<Unliked | null> {
    const [row] = await db<Array<{ visible: boolean, likeCount: number, newCount: number | null }>>`
      with ${quickCommit(db)},
      target as (
        select r.like_count, ${recipeVisibleTo(db, userId)} as visible from recipes r, quick_commit where r.id = ${recipeId}),
      removed as (
        delete from likes where user_id = ${userId} and recipe_id = ${recipeId} returning recipe_id),
      counted as (
        update recipes r set like_count = r.like_count - 1 from removed where r.id = removed.recipe_id returning r.like_count)
      select t.visible, t.like_count, (select like_count from counted) as new_count from target t`
    if (row == null) return null
    return { removed: row.newCount != null, likeCount: row.newCount ?? row.likeCount, visible: row.visible }
  },

  /** The recipe's like count, or null when the viewer may not see the recipe (or it does not exist). */
  async countVisibleTo (db: Db, recipeId: string, viewerId: string): Promise<number | null> {
    const [row] = await db<LikeCountRow[]>`select r.like_count from recipes r where r.id = ${recipeId} and ${recipeVisibleTo(db, viewerId)}`
    return row?.likeCount ?? null
  }
}

export default fp(async fastify => {
  fastify.decorate('likesRepository', likesRepository)
}, { name: 'likes-repository' })
