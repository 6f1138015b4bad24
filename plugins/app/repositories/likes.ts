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

/** One user's like (`like` true) or unlike of the recipe a batch is for. */
export interface LikeOp { userId: string, like: boolean }
/** What a LikeOp did: null when the recipe does not exist. */
export interface LikeOutcome {
  /** Whether the user may see the recipe. */
  visible: boolean
  /** Whether the statement inserted (like) or deleted (unlike) the user's row. */
  changed: boolean
  /** The count after the statement when it moved, else the count it read. */
  likeCount: number
  authorId: string
  title: string
}

interface OutcomeRow { visible: boolean, changed: boolean, likeCount: number, newCount: number | null, authorId: string, title: string }

export const likesRepository = {
  /**
   * Applies the likes and unlikes of several users (one operation each) to one recipe in one statement: the rows,
   * and the counter moved once by what was really inserted and deleted, so it stays equal to the rows. A like needs
   * a recipe the user may see; an unlike removes the like whoever may see the recipe now. Committed without waiting
   * for the disk (quickCommit). One outcome per operation, in order; all null when the recipe does not exist.
   */
  async apply (db: Db, recipeId: string, ops: LikeOp[]): Promise<Array<LikeOutcome | null>> {
    const rows = await db<OutcomeRow[]>`
      with ${quickCommit(db)},
      ops as (
        select o.user_id, o.is_like, o.n
        from unnest(${ops.map(op => op.userId)}::text[], ${db.array(ops.map(op => op.like))}::boolean[]) with ordinality as o(user_id, is_like, n)),
      seen as (
        select o.user_id, o.is_like, o.n, r.id as recipe_id, r.author_id, r.title, r.like_count, ${recipeVisibleTo(db, db`o.user_id`)} as visible
        from ops o join recipes r on r.id = ${recipeId} cross join quick_commit),
      added as (
        insert into likes (user_id, recipe_id) select s.user_id, s.recipe_id from seen s where s.is_like and s.visible
        on conflict do nothing returning user_id),
      -- Joined on both key columns, so each unlike is one primary-key probe: with the recipe as a constant the planner
      -- would scan all of the recipe's index entries, dead ones of a like storm included.
      removed as (
        delete from likes l using seen s where not s.is_like and l.user_id = s.user_id and l.recipe_id = s.recipe_id
        returning l.user_id),
      counted as (
        update recipes r set like_count = r.like_count + (select count(*) from added) - (select count(*) from removed)
        where r.id = ${recipeId} and exists (select 1 from added union all select 1 from removed)
        returning r.like_count)
      select s.visible, s.author_id, s.title, s.like_count, (select like_count from counted) as new_count,
        case when s.is_like then exists (select 1 from added a where a.user_id = s.user_id)
          else exists (select 1 from removed d where d.user_id = s.user_id) end as changed
      from seen s order by s.n`
    if (rows.length === 0) return ops.map(() => null)
    return rows.map(row => ({
      visible: row.visible, changed: row.changed, likeCount: row.newCount ?? row.likeCount, authorId: row.authorId, title: row.title
    }))
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
