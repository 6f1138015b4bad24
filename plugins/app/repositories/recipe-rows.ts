// The recipe as every family shows it: one select list and one mapper, shared by recipes, collections, bookmarks,
// cooking history and the feed. Queries join `recipes r` and `users a` (the author).
import type { recipes } from '../../../db/schema/index.js'
import { averageRating } from '../../../lib/ratings.js'
import type { IngredientLine, InstructionStep, RecipeView } from '../../../schemas/recipes.js'
import type { Db } from '../../external/db.js'
import { hiddenValue, type Fragment } from './sql.js'
import { recipeVisibleTo } from './visibility.js'

type RecipeRow = typeof recipes.$inferSelect

export interface RecipeViewRow extends Omit<RecipeRow, 'authorId' | 'ingredientsText' | 'ingredientNames' | 'ingredientWords' | 'ingredients' | 'instructions'> {
  ingredients: IngredientLine[]
  instructions: InstructionStep[]
  authorId: string
  authorUsername: string
  authorFirstName: string | null
  authorLastName: string | null
  authorAvatarUrl: string | null
  tags: Array<{ id: string, name: string, slug: string }>
  isLiked: boolean
  isBookmarked: boolean
  userRating: number | null
}

/** The recipe's tags as a JSON array of { id, name, slug }, by name. */
const tagsOf = (db: Db) => db`coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'slug', t.slug) order by t.name)
  from recipe_tags rt join tags t on t.id = rt.tag_id where rt.recipe_id = r.id), '[]')`

/** Whether the viewer likes and bookmarked the recipe, and their rating (false, false, null when anonymous). */
function viewerFlags (db: Db, id: string | Fragment | null) {
  if (id == null) return { liked: db`false`, bookmarked: db`false`, rating: db`null::int` }
  // Hidden from the planner: planned for each viewer's own likes, a page was planned anew on every request (1 ms).
  const viewerId = typeof id === 'string' ? hiddenValue(db, id, 'text') : id
  return {
    liked: db`exists (select 1 from likes l where l.user_id = ${viewerId} and l.recipe_id = r.id)`,
    bookmarked: db`exists (select 1 from bookmarks b where b.user_id = ${viewerId} and b.recipe_id = r.id)`,
    rating: db`(select rt2.rating from ratings rt2 where rt2.user_id = ${viewerId} and rt2.recipe_id = r.id)`
  }
}

export function recipeColumns (db: Db, viewerId: string | null = null) {
  const viewer = viewerFlags(db, viewerId)
  return db`
    r.id, r.slug, r.title, r.description, r.type, r.difficulty, r.visibility, r.published, r.moderation_status,
    r.cuisine, r.prep_time, r.cook_time, r.total_time, r.servings, r.ingredients, r.instructions, r.nutrition,
    r.image_url, r.source_url, r.source_image_url, r.like_count, r.comment_count, r.rating_count, r.rating_sum,
    r.created_at, r.updated_at,
    a.id as author_id, a.username as author_username, a.first_name as author_first_name,
    a.last_name as author_last_name, a.avatar_url as author_avatar_url, ${tagsOf(db)} as tags,
    ${viewer.liked} as is_liked, ${viewer.bookmarked} as is_bookmarked, ${viewer.rating} as user_rating`
}

/** A timestamp as JSON text the way Date.toISOString writes it (UTC, milliseconds, truncated like a parsed Date). */
const isoTime = (db: Db, column: Fragment) => db`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/**
 * mapRecipe's object built by PostgreSQL (a `json` value of `recipes r` and `users a`), for the reads sent as
 * RawJson. Every key is named here, so nothing else of the row leaves. Ingredients and instructions are stored in their
 * API shape (normalized at every write) and go out as stored. test/routes/api/recipes/raw-json.test.ts holds both
 * mappings equal.
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

export function mapRecipe (row: RecipeViewRow): RecipeView {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    description: row.description,
    type: row.type,
    difficulty: row.difficulty,
    visibility: row.visibility,
    published: row.published,
    moderationStatus: row.moderationStatus,
    cuisine: row.cuisine,
    prepTime: row.prepTime,
    cookTime: row.cookTime,
    totalTime: row.totalTime,
    servings: row.servings,
    ingredients: row.ingredients,
    instructions: row.instructions,
    nutrition: row.nutrition,
    imageUrl: row.imageUrl,
    sourceUrl: row.sourceUrl,
    sourceImageUrl: row.sourceImageUrl,
    tags: row.tags,
    author: {
      id: row.authorId,
      username: row.authorUsername,
      firstName: row.authorFirstName,
      lastName: row.authorLastName,
      avatarUrl: row.authorAvatarUrl
    },
    averageRating: averageRating(row.ratingSum, row.ratingCount),
    ratingCount: row.ratingCount,
    likeCount: row.likeCount,
    commentCount: row.commentCount,
    isLiked: row.isLiked,
    isBookmarked: row.isBookmarked,
    userRating: row.userRating,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString()
  }
}

/**
 * A page of the recipes a user marked (bookmarks, cooked marks: tables keyed by user and recipe with a created_at)
 * that they can still see, most recent mark first.
 */
export async function markedRecipes (db: Db, table: 'bookmarks' | 'cooked_recipes', userId: string, pageNo: number, limit: number) {
  const where = db`m.user_id = ${userId} and ${recipeVisibleTo(db, userId)}`
  const [rows, [{ total }]] = await Promise.all([
    db<Array<RecipeViewRow & { markedAt: Date }>>`select ${recipeColumns(db, userId)}, m.created_at as marked_at
      from ${db(table)} m join recipes r on r.id = m.recipe_id join users a on a.id = r.author_id
      where ${where} order by m.created_at desc, m.recipe_id limit ${limit} offset ${(pageNo - 1) * limit}`,
    db<Array<{ total: number }>>`select count(*)::int as total from ${db(table)} m join recipes r on r.id = m.recipe_id where ${where}`
  ])
  return { items: rows.map(row => ({ markedAt: row.markedAt.toISOString(), recipe: mapRecipe(row) })), total }
}
