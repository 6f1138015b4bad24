// Which notifications their recipient is shown, as SQL conditions. A notification about a recipe carries its title
// (in the message, and in the emails and pushes built from it), so it is shown only while its recipient may see that
// recipe (`recipeVisibleTo`, the one rule): a recipe made private, or otherwise hidden from them, takes it out of the
// list, every count, mark-read and delete, delivery jobs and digests; shown again, it comes back as it was. Authors
// always see their own recipes, so their notifications about them stay.
//
// The viewer is passed in, as a value or the column of one user row (`u.id`): written as `n.user_id`, a per-row
// column, PostgreSQL rebuilt the follows lookups of `friends` recipes for every notification (about 3x slower).
import type { Db } from '../../external/db.js'
import type { Fragment } from './sql.js'
import { recipeVisibleTo } from './visibility.js'

type Viewer = string | Fragment

/** The recipe `recipeId` (a column; null: no recipe) is none, or one `viewer` may see. */
const noneOrVisible = (db: Db, recipeId: Fragment, viewer: Viewer) => db`(${recipeId} is null or exists (
  select 1 from recipes r where r.id = ${recipeId} and ${recipeVisibleTo(db, viewer)}))`

/** The notification `n` of `viewer` (its recipient) is shown to them. */
export function notificationShown (db: Db, viewer: Viewer): Fragment {
  return noneOrVisible(db, db`n.recipe_id`, viewer)
}

/**
 * How many notifications `n` that match `where` (all of them `viewer`'s) are shown, as a scalar subquery. Counted per
 * recipe, so each recipe is looked up once: a popular author's thousand likes on one recipe are one lookup.
 */
export function countShown (db: Db, where: Fragment, viewer: Viewer): Fragment {
  return db`(select coalesce(sum(g.count), 0)::int from (
    select n.recipe_id, count(*) as count from notifications n where ${where} group by n.recipe_id) g
    where ${noneOrVisible(db, db`g.recipe_id`, viewer)})`
}
