// Which recipes a viewer may see (decisions.md section 3), as SQL conditions every query reuses. `r` is the recipes
// alias. The moderation list is written as literals, so the planner can match the partial listing indexes.
import { LISTED_MODERATION } from '../../../db/schema/index.js'
import type { Db } from '../../external/db.js'
import type { Fragment } from './sql.js'

const LISTED_STATUSES = LISTED_MODERATION.map(status => `'${status}'`).join(', ')

/**
 * Published, not hidden by moderation, its author neither deactivated nor banned (`author_hidden`, kept by triggers,
 * migration 0029): what anyone but the author may see, given the right visibility. The extra condition leaves the
 * partial listing indexes usable; it filters the few hidden rows they hold.
 */
const shown = (db: Db) => db.unsafe(`(r.published and r.moderation_status in (${LISTED_STATUSES}) and not r.author_hidden)`)

/** What lists, search, tags, popular and aggregates show: shown and public. */
export function listedRecipe (db: Db) {
  return db`(${shown(db)} and r.visibility = 'public')`
}

/**
 * The author sees everything of theirs; others see shown recipes that are public, `friends` when author and viewer
 * follow each other, or `custom` when the viewer is in its audience. The viewer is an id, or a column of the
 * statement (a batch of viewers).
 */
export function recipeVisibleTo (db: Db, viewerId: string | Fragment | null | undefined) {
  if (viewerId == null) return listedRecipe(db)
  return db`(r.author_id = ${viewerId} or (${shown(db)} and (
    r.visibility = 'public'
    or (r.visibility = 'friends'
      and exists (select 1 from follows fa where fa.follower_id = ${viewerId} and fa.following_id = r.author_id)
      and exists (select 1 from follows fb where fb.follower_id = r.author_id and fb.following_id = ${viewerId}))
    or (r.visibility = 'custom'
      and exists (select 1 from recipe_audience ra where ra.recipe_id = r.id and ra.user_id = ${viewerId}))
  )))`
}

/** Followers of the recipe's author who may see it (`f` is the follows alias: f.follower_id is the viewer). */
export function visibleToFollower (db: Db) {
  return db`(${shown(db)} and (
    r.visibility = 'public'
    or (r.visibility = 'friends' and exists (select 1 from follows b where b.follower_id = r.author_id and b.following_id = f.follower_id))
    or (r.visibility = 'custom' and exists (select 1 from recipe_audience ra where ra.recipe_id = r.id and ra.user_id = f.follower_id))))`
}
