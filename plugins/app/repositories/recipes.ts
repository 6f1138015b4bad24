// Recipe reads and writes. Every read takes the viewer, so visibility is applied in the query itself.
import { createId } from '@paralleldrive/cuid2'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type postgres from 'postgres'
import { HttpError } from '../../../lib/errors.js'
import { jsonValue, toIso } from '../../../lib/pg-values.js'
import { recipeListed, recipeVisibleTo } from './visibility.js'

declare module 'fastify' {
  interface FastifyInstance {
    recipesRepository: ReturnType<typeof createRecipesRepository>
  }
}

export const RECIPE_NOT_FOUND = 'Recipe not found'

export const SORTS = ['newest', 'oldest', 'popular', 'rating', 'title'] as const
export type RecipeSort = typeof SORTS[number]

export interface RecipeFilters {
  search?: string
  type?: string
  difficulty?: string
  cuisine?: string
  tag?: string
  author?: string
  maxTime?: number
  sort: RecipeSort
}

/** Columns written by create and update (besides ids, counters and timestamps). */
export interface RecipeFields {
  title: string
  description: string | null
  type: string
  difficulty: string
  visibility: string
  published: boolean
  cuisine: string | null
  prepTime: number | null
  cookTime: number | null
  totalTime: number | null
  servings: number | null
  ingredients: unknown[]
  instructions: unknown[]
  nutrition: Record<string, unknown> | null
  imageUrl: string | null
  sourceUrl: string | null
  ingredientsText: string
}

export function recipeColumns (sql: postgres.Sql, viewerId: string | null = null) {
  return sql`
    r.id, r.slug, r.title, r.description, r.type, r.difficulty, r.visibility, r.published, r.moderation_status,
    r.cuisine, r.prep_time, r.cook_time, r.total_time, r.servings, r.ingredients, r.instructions, r.nutrition,
    r.image_url, r.source_url, r.like_count, r.comment_count, r.rating_count, r.rating_sum, r.created_at, r.updated_at,
    a.id as author_id, a.username as author_username, a.first_name as author_first_name,
    a.last_name as author_last_name, a.avatar_url as author_avatar_url,
    coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'slug', t.slug) order by t.name)
      from recipe_tags rt join tags t on t.id = rt.tag_id where rt.recipe_id = r.id), '[]') as tags,
    ${viewerId == null
      ? sql`false as is_liked, false as is_bookmarked, null::int as user_rating`
      : sql`exists (select 1 from likes l where l.user_id = ${viewerId} and l.recipe_id = r.id) as is_liked,
        exists (select 1 from bookmarks b where b.user_id = ${viewerId} and b.recipe_id = r.id) as is_bookmarked,
        (select rt2.rating from ratings rt2 where rt2.user_id = ${viewerId} and rt2.recipe_id = r.id) as user_rating`}`
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
    ingredients: jsonValue<unknown[]>(row.ingredients),
    instructions: jsonValue<unknown[]>(row.instructions),
    nutrition: jsonValue<Record<string, unknown> | null>(row.nutrition),
    imageUrl: row.image_url,
    sourceUrl: row.source_url,
    tags: jsonValue<Array<{ id: string, name: string, slug: string }>>(row.tags),
    author: {
      id: row.author_id,
      username: row.author_username,
      firstName: row.author_first_name,
      lastName: row.author_last_name,
      avatarUrl: row.author_avatar_url
    },
    // Exact: the counters change in the same transaction as the ratings they count.
    averageRating: row.rating_count > 0 ? Math.round((row.rating_sum / row.rating_count) * 100) / 100 : 0,
    ratingCount: row.rating_count,
    likeCount: row.like_count,
    commentCount: row.comment_count,
    isLiked: row.is_liked ?? false,
    isBookmarked: row.is_bookmarked ?? false,
    userRating: row.user_rating ?? null,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at)
  }
}
export type RecipeView = ReturnType<typeof mapRecipe>

const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&')

export function createRecipesRepository (fastify: FastifyInstance) {
  const { sql } = fastify

  const orderBy = (sort: RecipeSort) => {
    switch (sort) {
      // Tie-breakers run in the same direction as the main key, so the listing indexes serve the order directly.
      case 'oldest': return sql`r.created_at asc, r.id asc`
      case 'popular': return sql`r.like_count desc, r.created_at desc, r.id desc`
      case 'rating': return sql`(case when r.rating_count = 0 then 0 else r.rating_sum::numeric / r.rating_count end) desc, r.rating_count desc, r.id`
      case 'title': return sql`lower(r.title) asc, r.id`
      default: return sql`r.created_at desc, r.id desc`
    }
  }

  async function page (where: postgres.PendingQuery<postgres.Row[]>, order: postgres.PendingQuery<postgres.Row[]>, viewerId: string | null, pageNo: number, limit: number) {
    const [rows, [{ total }]] = await Promise.all([
      sql`select ${recipeColumns(sql, viewerId)} from recipes r join users a on a.id = r.author_id
          where ${where} order by ${order} limit ${limit} offset ${(pageNo - 1) * limit}`,
      // Filters never need the author row (the author filter resolves the id first), so counting skips the join.
      sql`select count(*)::int as total from recipes r where ${where}`
    ])
    return { recipes: rows.map(mapRecipe), total }
  }

  async function setTags (tx: postgres.TransactionSql, recipeId: string, tags: Array<{ name: string, slug: string }>) {
    await tx`delete from recipe_tags where recipe_id = ${recipeId}`
    for (const tag of tags) {
      // Upsert by slug; "Vegan" and "vegan" are one tag, named by whoever used it first.
      const [row] = await tx`
        insert into tags (id, name, slug) values (${createId()}, ${tag.name}, ${tag.slug})
        on conflict (slug) do update set slug = excluded.slug returning id`
      await tx`insert into recipe_tags (recipe_id, tag_id) values (${recipeId}, ${row.id}) on conflict do nothing`
    }
  }

  async function setAudience (tx: postgres.TransactionSql, recipeId: string, userIds: string[] | undefined) {
    if (userIds == null) return
    await tx`delete from recipe_audience where recipe_id = ${recipeId}`
    if (userIds.length === 0) return
    // Only existing users; unknown ids are dropped rather than failing the whole write.
    await tx`insert into recipe_audience (recipe_id, user_id)
      select ${recipeId}, u.id from users u where u.id in ${sql(userIds)} on conflict do nothing`
  }

  /** The lowest free slug for this author: base, base-1, base-2... */
  async function freeSlug (tx: postgres.TransactionSql, authorId: string, base: string): Promise<string> {
    const rows = await tx`select slug from recipes where author_id = ${authorId} and (slug = ${base} or slug like ${escapeLike(base) + '-%'})`
    const taken = new Set(rows.map(r => r.slug as string))
    if (!taken.has(base)) return base
    for (let n = 1; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`
  }

  const fieldsSql = (f: RecipeFields) => ({
    title: f.title,
    description: f.description,
    type: f.type,
    difficulty: f.difficulty,
    visibility: f.visibility,
    published: f.published,
    cuisine: f.cuisine,
    prep_time: f.prepTime,
    cook_time: f.cookTime,
    total_time: f.totalTime,
    servings: f.servings,
    ingredients: JSON.stringify(f.ingredients),
    instructions: JSON.stringify(f.instructions),
    nutrition: f.nutrition == null ? null : JSON.stringify(f.nutrition),
    image_url: f.imageUrl,
    source_url: f.sourceUrl,
    ingredients_text: f.ingredientsText
  })

  return {
    async find (id: string, viewerId: string | null) {
      const [row] = await sql`select ${recipeColumns(sql, viewerId)} from recipes r join users a on a.id = r.author_id
        where r.id = ${id} and ${recipeVisibleTo(sql, viewerId)}`
      return row == null ? null : mapRecipe(row)
    },

    /** The recipe as the viewer sees it; 404 when it does not exist or they may not see it. */
    async visible (id: string, viewerId: string | null) {
      const recipe = await this.find(id, viewerId)
      if (recipe == null) throw new HttpError(404, RECIPE_NOT_FOUND)
      return recipe
    },

    /**
     * Creates a recipe for `authorId`. The author's row is locked for the transaction, so the plan limit check
     * and the slug choice are exact even when the same author creates many recipes at once.
     */
    async create (authorId: string, fields: RecipeFields, extra: { slugBase: string, tags: Array<{ name: string, slug: string }>, audienceUserIds?: string[], recipeLimit: number | null }) {
      return await sql.begin(async tx => {
        await tx`select 1 from users where id = ${authorId} for update`
        if (extra.recipeLimit != null) {
          const [{ used }] = await tx`select count(*)::int as used from recipes where author_id = ${authorId}`
          if (used >= extra.recipeLimit) return { limitReached: { limit: extra.recipeLimit, used } as const }
        }
        const id = createId()
        const slug = await freeSlug(tx, authorId, extra.slugBase)
        await tx`insert into recipes ${sql({ id, author_id: authorId, slug, ...fieldsSql(fields) })}`
        await setTags(tx, id, extra.tags)
        await setAudience(tx, id, extra.audienceUserIds)
        return { id }
      })
    },

    /** Updates a recipe, keeping its previous version as a revision. */
    async update (id: string, editorId: string, fields: RecipeFields, extra: { tags?: Array<{ name: string, slug: string }>, audienceUserIds?: string[] }) {
      await sql.begin(async tx => {
        const [current] = await tx`select ${recipeColumns(sql)} from recipes r join users a on a.id = r.author_id where r.id = ${id} for update of r`
        const snapshot = mapRecipe(current)
        await tx`insert into recipe_revisions (id, recipe_id, version, snapshot, editor_id)
          values (${createId()}, ${id},
            (select coalesce(max(version), 0) + 1 from recipe_revisions where recipe_id = ${id}),
            ${JSON.stringify(snapshot)}::jsonb, ${editorId})`
        await tx`update recipes set ${sql(fieldsSql(fields))}, updated_at = now() where id = ${id}`
        if (extra.tags != null) await setTags(tx, id, extra.tags)
        await setAudience(tx, id, extra.audienceUserIds)
      })
    },

    async remove (id: string): Promise<void> {
      await sql`delete from recipes where id = ${id}`
    },

    async list (filters: RecipeFilters, viewerId: string | null, pageNo: number, limit: number) {
      const conditions = [recipeListed(sql)]
      let rank = sql``
      if (filters.search != null && filters.search.trim() !== '') {
        const pattern = `%${escapeLike(filters.search.trim().toLowerCase())}%`
        conditions.push(sql`(lower(r.title) like ${pattern} or r.ingredients_text like ${pattern})`)
        // Title matches rank above ingredient-only matches.
        rank = sql`(lower(r.title) like ${pattern}) desc,`
      }
      if (filters.type != null) conditions.push(sql`r.type = ${filters.type}`)
      if (filters.difficulty != null) conditions.push(sql`r.difficulty = ${filters.difficulty}`)
      if (filters.cuisine != null) conditions.push(sql`lower(r.cuisine) = ${filters.cuisine.toLowerCase()}`)
      if (filters.maxTime != null) conditions.push(sql`coalesce(r.total_time, coalesce(r.prep_time, 0) + coalesce(r.cook_time, 0)) <= ${filters.maxTime}`)
      if (filters.author != null) conditions.push(sql`r.author_id = (select id from users where username_key = ${filters.author.normalize('NFKC').toLowerCase()})`)
      if (filters.tag != null) {
        conditions.push(sql`exists (select 1 from recipe_tags rt join tags t on t.id = rt.tag_id where rt.recipe_id = r.id and t.slug = ${filters.tag})`)
      }
      const where = conditions.reduce((acc, c) => sql`${acc} and ${c}`)
      return await page(where, sql`${rank} ${orderBy(filters.sort)}`, viewerId, pageNo, limit)
    },

    /** An author's recipes that the viewer may see, newest first. */
    async byAuthor (authorId: string, viewerId: string | null, pageNo: number, limit: number) {
      return await page(sql`r.author_id = ${authorId} and ${recipeVisibleTo(sql, viewerId)}`, orderBy('newest'), viewerId, pageNo, limit)
    },

    /**
     * Recipes of the people the user follows that the user may see, newest first. Keyset pagination: `before` is
     * the (createdAt, id) of the last recipe already shown, so pages stay stable while new recipes arrive.
     */
    async feed (userId: string, before: { createdAt: string, id: string } | null, limit: number) {
      // Newest `limit + 1` visible recipes of each followed author (one index range scan each), then the newest of
      // those; the full recipe columns are computed for that page only.
      const after = before == null ? sql`` : sql`and (r.created_at, r.id) < (${before.createdAt}::timestamptz, ${before.id})`
      const rows = await sql`
        with page as (
          select c.id, c.created_at from follows f
          cross join lateral (
            select r.id, r.created_at from recipes r
            where r.author_id = f.following_id and ${recipeVisibleTo(sql, userId)} ${after}
            order by r.created_at desc, r.id desc limit ${limit + 1}
          ) c
          where f.follower_id = ${userId}
          order by c.created_at desc, c.id desc limit ${limit + 1}
        )
        -- The cursor keeps PostgreSQL's microseconds (an ISO string would round them and skip or repeat rows).
        select ${recipeColumns(sql, userId)}, r.created_at::text as cursor_at
        from page p join recipes r on r.id = p.id join users a on a.id = r.author_id
        order by r.created_at desc, r.id desc`
      const recipes = rows.slice(0, limit).map(mapRecipe)
      const last = rows.length > limit ? rows[limit - 1] : null
      return { recipes, next: last == null ? null : { createdAt: last.cursor_at as string, id: last.id as string } }
    },

    async popular (limit: number, viewerId: string | null) {
      const rows = await sql`select ${recipeColumns(sql, viewerId)} from recipes r join users a on a.id = r.author_id
        where ${recipeListed(sql)} order by ${orderBy('popular')} limit ${limit}`
      return rows.map(mapRecipe)
    },

    async cuisines () {
      return await sql<Array<{ cuisine: string, count: number }>>`
        select min(r.cuisine) as cuisine, count(*)::int as count from recipes r
        where ${recipeListed(sql)} and r.cuisine is not null and btrim(r.cuisine) <> ''
        group by lower(btrim(r.cuisine)) order by count desc, cuisine limit 100`
    },

    async commonIngredients () {
      return await sql<Array<{ name: string, count: number }>>`
        select lower(btrim(i ->> 'name')) as name, count(distinct r.id)::int as count
        from recipes r cross join lateral jsonb_array_elements(
          case when jsonb_typeof(r.ingredients) = 'array' then r.ingredients else '[]'::jsonb end) i
        where ${recipeListed(sql)} and jsonb_typeof(i) = 'object' and coalesce(btrim(i ->> 'name'), '') <> ''
        group by 1 order by count desc, name limit 50`
    },

    async tags () {
      return await sql<Array<{ id: string, name: string, slug: string, recipeCount: number }>>`
        select t.id, t.name, t.slug,
          (select count(*) from recipe_tags rt join recipes r on r.id = rt.recipe_id where rt.tag_id = t.id and ${recipeListed(sql)})::int as "recipeCount"
        from tags t order by "recipeCount" desc, t.name`
    },

    async tagBySlug (slug: string) {
      const [row] = await sql`select id, name, slug from tags where slug = ${slug}`
      return row ?? null
    },

    async revisions (recipeId: string) {
      const rows = await sql`select id, version, snapshot, editor_id, created_at from recipe_revisions
        where recipe_id = ${recipeId} order by version desc`
      return rows.map(r => ({ id: r.id, version: r.version, editorId: r.editor_id, createdAt: toIso(r.created_at), recipe: jsonValue<RecipeView>(r.snapshot) }))
    },

    async revision (recipeId: string, revisionId: string) {
      const [row] = await sql`select snapshot from recipe_revisions where recipe_id = ${recipeId} and id = ${revisionId}`
      if (row == null) return null
      return jsonValue<RecipeView>(row.snapshot)
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('recipesRepository', createRecipesRepository(fastify))
}, { name: 'recipes-repository', dependencies: ['db'] })
