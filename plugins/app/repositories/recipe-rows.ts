// The recipe as every family shows it: one select list and one mapper, shared by recipes, collections, bookmarks,
// cooking history and the feed. Queries join `recipes r` and `users a` (the author).
import type { recipes } from '../../../db/schema/index.js'
import { averageRating } from '../../../lib/ratings.js'
import type { IngredientLine, InstructionStep, RecipeView } from '../../../schemas/recipes.js'
import type { Db } from '../../external/db.js'
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

export function recipeColumns (db: Db, viewerId: string | null = null) {
  return db`
    r.id, r.slug, r.title, r.description, r.type, r.difficulty, r.visibility, r.published, r.moderation_status,
    r.cuisine, r.prep_time, r.cook_time, r.total_time, r.servings, r.ingredients, r.instructions, r.nutrition,
    r.image_url, r.source_url, r.like_count, r.comment_count, r.rating_count, r.rating_sum, r.created_at, r.updated_at,
    a.id as author_id, a.username as author_username, a.first_name as author_first_name,
    a.last_name as author_last_name, a.avatar_url as author_avatar_url,
    coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'slug', t.slug) order by t.name)
      from recipe_tags rt join tags t on t.id = rt.tag_id where rt.recipe_id = r.id), '[]') as tags,
    ${viewerId == null
      ? db`false as is_liked, false as is_bookmarked, null::int as user_rating`
      : db`exists (select 1 from likes l where l.user_id = ${viewerId} and l.recipe_id = r.id) as is_liked,
        exists (select 1 from bookmarks b where b.user_id = ${viewerId} and b.recipe_id = r.id) as is_bookmarked,
        (select rt2.rating from ratings rt2 where rt2.user_id = ${viewerId} and rt2.recipe_id = r.id) as user_rating`}`
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
