// Who follows whom. Rows are unique per pair (the primary key), so repeating a follow never duplicates it.
import fp from 'fastify-plugin'
import type { Db } from '../../external/db.js'
import { followerCount as shownFollowers } from './user-views.js'
import type { Counted } from './sql.js'

declare module 'fastify' {
  interface FastifyInstance {
    followsRepository: typeof followsRepository
  }
}

export const followsRepository = {
  /** Whether this call added the follow (false when it was already there). */
  async add (db: Db, followerId: string, followingId: string): Promise<boolean> {
    const rows = await db`insert into follows (follower_id, following_id) values (${followerId}, ${followingId}) on conflict do nothing returning 1`
    return rows.length > 0
  },

  /** Whether this call removed a follow. */
  async remove (db: Db, followerId: string, followingId: string): Promise<boolean> {
    const rows = await db`delete from follows where follower_id = ${followerId} and following_id = ${followingId} returning 1`
    return rows.length > 0
  },

  /** Followers as profiles count them: only active, unbanned users. */
  async followerCount (db: Db, userId: string): Promise<number> {
    const [{ n }] = await db<Array<Counted<'n'>>>`select ${shownFollowers(db)} as n from users u where u.id = ${userId}`
    return n
  }
}

export default fp(async fastify => {
  fastify.decorate('followsRepository', followsRepository)
}, { name: 'follows-repository' })
