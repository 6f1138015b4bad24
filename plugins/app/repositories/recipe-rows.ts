// The recipe as every family shows it: one select list and one mapper, shared by recipes, collections, bookmarks and
// cooking history. Queries join `recipes r` and `users a` (the author). The same recipe as JSON that PostgreSQL writes
// (the listing's pages) is hot/recipe-json.ts.
import type { bookmarks, recipes, users } from '../../../db/schema/index.js'
import { averageRating } from '../../../lib/ratings.js'
import type { RecipeView } from '../../../schemas/recipes.js'
import type { Db } from '../../external/db.js'
import type { Counted } from './sql.js'
import { tagsOf, viewerFlags } from './hot/recipe-json.js'
import { recipeVisibleTo } from './visibility.js'

type RecipeRow = typeof recipes.$inferSelect
type UserRow = typeof users.$inferSelect

export interface RecipeViewRow extends Omit<RecipeRow, 'authorId' | 'ingredientsText' | 'ingredientNames' | 'ingredientWords' | 'ingredients' | 'instructions'> {
  ingredients: RecipeView['ingredients']
  instructions: RecipeView['instructions']
  authorId: UserRow['id']
  authorUsername: UserRow['username']
  authorFirstName: UserRow['firstName']
  authorLastName: UserRow['lastName']
  authorAvatarUrl: UserRow['avatarUrl']
  tags: RecipeView['tags']
  isLiked: RecipeView['isLiked']
  isBookmarked: RecipeView['isBookmarked']
  userRating: RecipeView['userRating']
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
    db<Array<RecipeViewRow & Record<'markedAt', (typeof bookmarks.$inferSelect)['createdAt']>>>`select ${recipeColumns(db, userId)}, m.created_at as marked_at
      from ${db(table)} m join recipes r on r.id = m.recipe_id join users a on a.id = r.author_id
      where ${where} order by m.created_at desc, m.recipe_id limit ${limit} offset ${(pageNo - 1) * limit}`,
    db<Array<Counted<'total'>>>`select count(*)::int as total from ${db(table)} m join recipes r on r.id = m.recipe_id where ${where}`
  ])
  return { items: rows.map(row => ({ markedAt: row.markedAt.toISOString(), recipe: mapRecipe(row) })), total }
}
