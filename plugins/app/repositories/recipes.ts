// Recipe reads shared by families (user pages now; the recipes family builds on the same columns).
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type postgres from 'postgres'
import { toIso } from '../../../lib/time.js'
import { recipeVisibleTo } from './visibility.js'

declare module 'fastify' {
  interface FastifyInstance {
    recipesRepository: ReturnType<typeof createRecipesRepository>
  }
}

export function recipeColumns (sql: postgres.Sql) {
  return sql`
    r.id, r.slug, r.title, r.description, r.type, r.difficulty, r.visibility, r.published, r.moderation_status,
    r.cuisine, r.prep_time, r.cook_time, r.total_time, r.servings, r.ingredients, r.instructions, r.nutrition,
    r.image_url, r.source_url, r.like_count, r.comment_count, r.rating_count, r.rating_sum, r.created_at, r.updated_at,
    a.id as author_id, a.username as author_username, a.first_name as author_first_name,
    a.last_name as author_last_name, a.avatar_url as author_avatar_url,
    coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'slug', t.slug) order by t.name)
      from recipe_tags rt join tags t on t.id = rt.tag_id where rt.recipe_id = r.id), '[]') as tags`
}

export function mapRecipe (row: postgres.Row) {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    description: row.description,
    type: row.type,
    difficulty: row.difficulty,
    visibility: row.visibility,
    published: row.published,
    moderationStatus: row.moderation_status,
    cuisine: row.cuisine,
    prepTime: row.prep_time,
    cookTime: row.cook_time,
    totalTime: row.total_time,
    servings: row.servings,
    ingredients: row.ingredients,
    instructions: row.instructions,
    nutrition: row.nutrition,
    imageUrl: row.image_url,
    sourceUrl: row.source_url,
    tags: row.tags,
    author: {
      id: row.author_id,
      username: row.author_username,
      firstName: row.author_first_name,
      lastName: row.author_last_name,
      avatarUrl: row.author_avatar_url
    },
    // Exact: kept in counters updated with the ratings themselves.
    averageRating: row.rating_count > 0 ? Math.round((row.rating_sum / row.rating_count) * 100) / 100 : 0,
    ratingCount: row.rating_count,
    likeCount: row.like_count,
    commentCount: row.comment_count,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at)
  }
}

export function createRecipesRepository (fastify: FastifyInstance) {
  const { sql } = fastify
  return {
    /** An author's recipes the viewer may see, newest first. */
    async byAuthor (authorId: string, viewerId: string | null, page: number, limit: number) {
      const visible = sql`r.author_id = ${authorId} and ${recipeVisibleTo(sql, viewerId)}`
      const [rows, [{ total }]] = await Promise.all([
        sql`select ${recipeColumns(sql)} from recipes r join users a on a.id = r.author_id
            where ${visible} order by r.created_at desc, r.id limit ${limit} offset ${(page - 1) * limit}`,
        sql`select count(*)::int as total from recipes r where ${visible}`
      ])
      return { recipes: rows.map(mapRecipe), total }
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('recipesRepository', createRecipesRepository(fastify))
}, { name: 'recipes-repository', dependencies: ['db'] })
