// The feed: recipes of the people the reader follows, one statement per attempt that also writes the page's JSON.
import type { Db } from '../../../external/db.js'
import type { Fragment } from '../sql.js'
import { recipeVisibleTo } from '../visibility.js'
import { bytesRow, integer, text } from './bytes-row.js'
import { pageItems, pageJson, pageSize } from './recipe-pages.js'
import { hiddenValue } from './sql.js'

/** How many of the newest recipes the feed looks through before it asks each followed author instead. */
const FEED_WINDOW = 1000

/**
 * Recipes of the people the user follows that the user may see, newest first. Keyset pagination: `before` is
 * the (createdAt, id) of the last recipe already shown, so pages stay stable while new recipes arrive. Each attempt
 * is one statement that also writes the page's JSON (recipeJson) and the next cursor. bench: feed, mixed.
 */
export async function feed (db: Db, userId: string, before: { createdAt: string, id: string } | null, limit: number) {
  const { limit: shown, take } = pageSize(db, limit)
  // The reader and the cursor are hidden from the planner: planned for them, the statement was planned anew on
  // every request (1 ms, twice its work).
  const viewer = hiddenValue(db, userId, 'text')
  const after = before == null
    ? db`true`
    : db`(r.created_at, r.id) < (${hiddenValue(db, before.createdAt, 'timestamptz')}, ${hiddenValue(db, before.id, 'text')})`
  const visible = recipeVisibleTo(db, viewer)
  // Whoever follows many active authors finds a page among the newest recipes of all: walk those (a bounded
  // window of the time index) and keep the followed ones.
  // The window carries the columns the filters read, so its time order holds and the scan stops at the page.
  const recent = db`
      select r.id, r.created_at from (
        select r.id, r.created_at, r.author_id, r.published, r.moderation_status, r.visibility, r.author_hidden from recipes r
        where ${after} order by r.created_at desc, r.id desc limit ${db.unsafe(String(FEED_WINDOW))}) r
      where exists (select 1 from follows f where f.follower_id = ${viewer} and f.following_id = r.author_id) and ${visible}
      order by r.created_at desc, r.id desc limit ${take}`
  // Otherwise: the newest `limit + 1` of each followed author (one index range scan each), then the newest of those.
  const perAuthor = db`
      select c.id, c.created_at from follows f
      cross join lateral (
        select r.id, r.created_at from recipes r
        where r.author_id = f.following_id and ${visible} and ${after}
        order by r.created_at desc, r.id desc limit ${take}
      ) c
      where f.follower_id = ${viewer}
      order by c.created_at desc, c.id desc limit ${take}`
  const pageOf = async (candidates: Fragment) => await bytesRow(db`
      with page as materialized (
        select c.id, c.created_at, row_number() over (order by c.created_at desc, c.id desc) as n from (${candidates}) c)
      select ${pageJson(db, userId, shown)},
        -- The cursor keeps PostgreSQL's microseconds (an ISO string would round them and skip or repeat rows).
        (select created_at::text from page where n = ${shown}) as cursor_at, (select id from page where n = ${shown}) as cursor_id`)
  let page = await pageOf(recent)
  if (integer(page.found) <= limit) page = await pageOf(perAuthor)
  const [cursorAt, cursorId] = [text(page.cursorAt), text(page.cursorId)]
  const next = integer(page.found) > limit && cursorAt != null && cursorId != null ? { createdAt: cursorAt, id: cursorId } : null
  return { recipes: pageItems(page), next }
}
