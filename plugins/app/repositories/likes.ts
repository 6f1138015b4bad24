// Likes and the recipe's like counter. The counter moves only with a row that was really inserted or deleted, in
// the caller's transaction, so it stays equal to the rows under any concurrency.
import fp from 'fastify-plugin'
import type { recipes } from '../../../db/schema/index.js'
import type { Db } from '../../external/db.js'
import { recipeVisibleTo } from './visibility.js'

declare module 'fastify' {
  interface FastifyInstance {
    likesRepository: typeof likesRepository
  }
}

type LikeCountRow = Pick<typeof recipes.$inferSelect, 'likeCount'>

export const likesRepository = {
  /** Whether this call added the like (false when it was already there). */
  async add (db: Db, userId: string, recipeId: string): Promise<boolean> {
    const rows = await db`insert into likes (user_id, recipe_id) values (${userId}, ${recipeId}) on conflict do nothing returning 1`
    return rows.length > 0
  },

  /** Whether this call removed a like. */
  async remove (db: Db, userId: string, recipeId: string): Promise<boolean> {
    const rows = await db`delete from likes where user_id = ${userId} and recipe_id = ${recipeId} returning 1`
    return rows.length > 0
  },

  /** Moves the counter by `delta` (call in the transaction that added or removed the row); the new count. */
  async adjustCount (db: Db, recipeId: string, delta: 1 | -1): Promise<number> {
    const [row] = await db<LikeCountRow[]>`update recipes set like_count = like_count + ${delta} where id = ${recipeId} returning like_count`
    return row?.likeCount ?? 0
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
