// Likes and the recipe's like counter. The counter moves only with a row that was really inserted or deleted, in
// the same statement, so it stays equal to the rows under any concurrency (hot/likes.ts).
import fp from 'fastify-plugin'
import type { recipes } from '../../../db/schema/index.js'
import type { Db } from '../../external/db.js'
import { recipeVisibleTo } from './visibility.js'
import { applyLikes } from './hot/likes.js'

declare module 'fastify' {
  interface FastifyInstance {
    likesRepository: typeof likesRepository
  }
}

type LikeCountRow = Pick<typeof recipes.$inferSelect, 'likeCount'>

export const likesRepository = {
  /** Several users' likes and unlikes of one recipe in one statement, one outcome each, in order (hot/likes.ts). */
  apply: applyLikes,

  /** The recipe's like count, or null when the viewer may not see the recipe (or it does not exist). */
  async countVisibleTo (db: Db, recipeId: string, viewerId: string): Promise<number | null> {
    const [row] = await db<LikeCountRow[]>`select r.like_count from recipes r where r.id = ${recipeId} and ${recipeVisibleTo(db, viewerId)}`
    return row?.likeCount ?? null
  }
}

export default fp(async fastify => {
  fastify.decorate('likesRepository', likesRepository)
}, { name: 'likes-repository' })
