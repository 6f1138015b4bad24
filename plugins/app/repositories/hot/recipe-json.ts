// The recipe as JSON that PostgreSQL writes, for the pages sent as they are (RawJson), and the viewer's flags that
// every recipe read selects (recipe-rows.ts's recipeColumns too). Queries join `recipes r` and `users a` (the author).
import type { Db } from '../../../external/db.js'
import type { Fragment } from '../sql.js'
import { hiddenValue } from './sql.js'

/** The recipe's tags as a JSON array of { id, name, slug }, by name. */
export const tagsOf = (db: Db) => db`coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'slug', t.slug) order by t.name)
  from recipe_tags rt join tags t on t.id = rt.tag_id where rt.recipe_id = r.id), '[]')`

/**
 * Whether the viewer likes and bookmarked the recipe, and their rating (false, false, null when anonymous).
 * bench: list-signed-in, feed, and every signed-in recipe read.
 */
export function viewerFlags (db: Db, id: string | Fragment | null) {
  if (id == null) return { liked: db`false`, bookmarked: db`false`, rating: db`null::int` }
  // Hidden from the planner: planned for each viewer's own likes, a page was planned anew on every request (1 ms).
  const viewerId = typeof id === 'string' ? hiddenValue(db, id, 'text') : id
  return {
    liked: db`exists (select 1 from likes l where l.user_id = ${viewerId} and l.recipe_id = r.id)`,
    bookmarked: db`exists (select 1 from bookmarks b where b.user_id = ${viewerId} and b.recipe_id = r.id)`,
    rating: db`(select rt2.rating from ratings rt2 where rt2.user_id = ${viewerId} and rt2.recipe_id = r.id)`
  }
}

/** A timestamp as JSON text the way Date.toISOString writes it (UTC, milliseconds, truncated like a parsed Date). */
export const isoTime = (db: Db, column: Fragment): Fragment => db`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/**
 * mapRecipe's object built by PostgreSQL (a `json` value of `recipes r` and `users a`), for the reads sent as
 * RawJson. Every key is named here, so nothing else of the row leaves. Ingredients and instructions are stored in their
 * API shape (normalized at every write) and go out as stored. test/routes/api/recipes/raw-json.test.ts holds both
 * mappings equal (mapRecipe is in recipe-rows.ts).
 * bench: list, list-signed-in, search-common, search-rare, feed, deep-page.
 */
export function recipeJson (db: Db, viewerId: string | Fragment | null) {
  const viewer = viewerFlags(db, viewerId)
  return db`json_build_object(
    'id', r.id, 'slug', r.slug, 'title', r.title, 'description', r.description, 'type', r.type,
    'difficulty', r.difficulty, 'visibility', r.visibility, 'published', r.published,
    'moderationStatus', r.moderation_status, 'cuisine', r.cuisine, 'prepTime', r.prep_time, 'cookTime', r.cook_time,
    'totalTime', r.total_time, 'servings', r.servings, 'ingredients', r.ingredients, 'instructions', r.instructions,
    'nutrition', r.nutrition, 'imageUrl', r.image_url, 'sourceUrl', r.source_url,
    'sourceImageUrl', r.source_image_url, 'tags', ${tagsOf(db)},
    'author', json_build_object('id', a.id, 'username', a.username, 'firstName', a.first_name,
      'lastName', a.last_name, 'avatarUrl', a.avatar_url),
    'averageRating', case when r.rating_count > 0 then round(r.rating_sum::numeric / r.rating_count, 2)::float8 else 0 end,
    'ratingCount', r.rating_count, 'likeCount', r.like_count, 'commentCount', r.comment_count,
    'isLiked', ${viewer.liked}, 'isBookmarked', ${viewer.bookmarked}, 'userRating', ${viewer.rating},
    'createdAt', ${isoTime(db, db`r.created_at`)}, 'updatedAt', ${isoTime(db, db`r.updated_at`)})`
}
