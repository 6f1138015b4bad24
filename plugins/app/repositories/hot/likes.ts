// A batch of likes and unlikes of one recipe in one statement: the rows, the counter, each session's check.
import type { Db } from '../../../external/db.js'
import { recipeVisibleTo } from '../visibility.js'
import { sessionValid, type SessionCheck } from './session.js'
import { quickCommit } from './sql.js'

/** One user's like (`like` true) or unlike of the recipe a batch is for, signed in by the token `session`. */
export interface LikeOp { session: SessionCheck, like: boolean }
/** What a LikeOp did. */
export interface LikeOutcome {
  /** Whether the token is a valid session of its user now; nothing was done otherwise. */
  signedIn: boolean
  /** The user's username (null without such a user). */
  username: string | null
  /** Whether the recipe exists. */
  found: boolean
  /** Whether the user may see the recipe. */
  visible: boolean
  /** Whether the statement inserted (like) or deleted (unlike) the user's row. */
  changed: boolean
  /** The count after the statement when it moved, else the count it read. */
  likeCount: number
  authorId: string
  title: string
}

/**
 * Applies the likes and unlikes of several users (one operation each) to one recipe in one statement: the rows,
 * and the counter moved once by what was really inserted and deleted, so it stays equal to the rows. Each
 * operation's session is checked in the statement (sessionValid); a like needs a recipe the user may see; an unlike
 * removes the like whoever may see the recipe now. Committed without waiting for the disk (quickCommit). One
 * outcome per operation, in order. bench: like-storm, mixed.
 */
export async function applyLikes (db: Db, recipeId: string, ops: LikeOp[]): Promise<LikeOutcome[]> {
  const rows = await db<LikeOutcome[]>`
      with ${quickCommit(db)},
      ops as (
        select o.user_id, o.is_like, o.n, u.username, coalesce(${sessionValid(db, db`o.jti`, db`o.ver`)}, false) as signed_in
        from unnest(${ops.map(op => op.session.userId)}::text[], ${ops.map(op => op.session.jti)}::text[],
          ${ops.map(op => op.session.ver)}::int[], ${db.array(ops.map(op => op.like))}::boolean[]) with ordinality as o(user_id, jti, ver, is_like, n)
        left join users u on u.id = o.user_id),
      seen as (
        select o.user_id, o.is_like, o.n, o.username, o.signed_in, r.id as recipe_id, r.author_id, r.title, r.like_count,
          coalesce(${recipeVisibleTo(db, db`o.user_id`)}, false) as visible
        from ops o cross join quick_commit left join recipes r on r.id = ${recipeId}),
      added as (
        insert into likes (user_id, recipe_id) select s.user_id, s.recipe_id from seen s where s.signed_in and s.is_like and s.visible
        on conflict do nothing returning user_id),
      -- Joined on both key columns, so each unlike is one primary-key probe: with the recipe as a constant the planner
      -- would scan all of the recipe's index entries, dead ones of a like storm included.
      removed as (
        delete from likes l using seen s where s.signed_in and not s.is_like and l.user_id = s.user_id and l.recipe_id = s.recipe_id
        returning l.user_id),
      counted as (
        update recipes r set like_count = r.like_count + (select count(*) from added) - (select count(*) from removed)
        where r.id = ${recipeId} and exists (select 1 from added union all select 1 from removed)
        returning r.like_count)
      select s.signed_in, s.username, s.recipe_id is not null as found, s.visible, s.author_id, s.title,
        coalesce((select like_count from counted), s.like_count) as like_count,
        case when s.is_like then exists (select 1 from added a where a.user_id = s.user_id)
          else exists (select 1 from removed d where d.user_id = s.user_id) end as changed
      from seen s order by s.n`
  return rows
}
