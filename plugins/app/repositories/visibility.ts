// Which recipes a viewer may see (decisions.md section 3), as one SQL condition every query reuses.
import type postgres from 'postgres'

/** Statuses shown to everyone but the author; `flagged` and `rejected` are hidden from all others. */
export const LISTED_MODERATION = ['approved', 'pending']

/**
 * `r` is the recipes alias. The author sees everything of theirs; others see published, non-hidden recipes that
 * are public, `friends` when author and viewer follow each other, or `custom` when the viewer is in its audience.
 */
export function recipeVisibleTo (sql: postgres.Sql, viewerId: string | null | undefined): postgres.PendingQuery<postgres.Row[]> {
  if (viewerId == null) {
    return sql`(r.published and r.moderation_status in ${sql(LISTED_MODERATION)} and r.visibility = 'public')`
  }
  return sql`(r.author_id = ${viewerId} or (r.published and r.moderation_status in ${sql(LISTED_MODERATION)} and (
    r.visibility = 'public'
    or (r.visibility = 'friends'
      and exists (select 1 from follows fa where fa.follower_id = ${viewerId} and fa.following_id = r.author_id)
      and exists (select 1 from follows fb where fb.follower_id = r.author_id and fb.following_id = ${viewerId}))
    or (r.visibility = 'custom'
      and exists (select 1 from recipe_audience ra where ra.recipe_id = r.id and ra.user_id = ${viewerId}))
  )))`
}

/** What lists, search, tags, popular and aggregates show: published, public, not hidden by moderation. */
export function recipeListed (sql: postgres.Sql): postgres.PendingQuery<postgres.Row[]> {
  return sql`(r.published and r.visibility = 'public' and r.moderation_status in ('approved', 'pending'))`
}
