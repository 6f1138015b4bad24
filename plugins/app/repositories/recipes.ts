// Recipe rows. Every read takes the viewer, so visibility is applied in the query itself. Methods take the caller's
// handle (pool or transaction) and return data or null; the rules live in services/recipes.ts. The reads the bench
// measures (the listing, search, feed and detail) are statements of hot/, which the methods below name.
import { createId } from '@paralleldrive/cuid2'
import fp from 'fastify-plugin'
import type { recipeCreationKeys, recipeListing, recipes } from '../../../db/schema/index.js'
import type { IngredientLine, RecipeFilters, RecipeView } from '../../../schemas/recipes.js'
import { json, type Db } from '../../external/db.js'
import { countUpTo, escapeLike, filtered, page, searchTerm, type Page } from './recipe-queries.js'
import { mapRecipe, recipeColumns, type RecipeViewRow } from './recipe-rows.js'
import type { Counted } from './sql.js'
import { listedRecipe, recipeVisibleTo } from './visibility.js'
import { feed } from './hot/feed.js'
import { findRecipe } from './hot/recipe-detail.js'
import { listedPage } from './hot/recipe-pages.js'
import { listPage } from './hot/recipe-search.js'

declare module 'fastify' {
  interface FastifyInstance {
    recipesRepository: typeof recipesRepository
  }
}

/** Every repository's page types live with the listing queries. */
export type { Page, Slice } from './recipe-queries.js'

type RecipeRow = typeof recipes.$inferSelect
/** recipe_listing's row as the listing reads it: the version as text, a cache key (services/listing-totals.ts). */
type ListingState = Pick<typeof recipeListing.$inferSelect, 'listedCount'> & Record<'version', string>

/** Columns a create or update writes (besides ids, counters and timestamps). */
export type RecipeFields = Omit<typeof recipes.$inferInsert,
  'id' | 'authorId' | 'authorHidden' | 'slug' | 'moderationStatus' | 'likeCount' | 'commentCount' | 'ratingCount' | 'ratingSum' | 'createdAt' | 'updatedAt'>

/** JSON columns go over the wire as JSON (a bare array would be sent as a PostgreSQL array). */
const columns = (db: Db, fields: RecipeFields) => ({
  ...fields,
  ingredients: json(db, fields.ingredients ?? []),
  instructions: json(db, fields.instructions ?? []),
  nutrition: fields.nutrition == null ? null : json(db, fields.nutrition)
})

export const recipesRepository = {
  /** The recipe, or null when the viewer may not see it (hot/recipe-detail.ts). */
  find: findRecipe,

  /** Whether the recipe exists, whoever may see it (removing one's own like or bookmark must not depend on that). */
  async exists (db: Db, id: string): Promise<boolean> {
    const [row] = await db`select 1 from recipes where id = ${id}`
    return row != null
  },

  /** Locks the recipe row for the rest of the transaction (edits of one recipe apply one after the other). */
  async lock (db: Db, id: string): Promise<void> {
    await db`select 1 from recipes where id = ${id} for update`
  },

  /** The recipe a creation key made within the last `withinSeconds`, if it still exists (recipe_creation_keys). */
  async createdFor (db: Db, authorId: string, key: string, withinSeconds: number): Promise<string | null> {
    const [row] = await db<Array<Pick<typeof recipeCreationKeys.$inferSelect, 'recipeId'>>>`
      select recipe_id from recipe_creation_keys
      where user_id = ${authorId} and key = ${key} and created_at > now() - make_interval(secs => ${withinSeconds})`
    return row?.recipeId ?? null
  },

  /** Records that `key` made `recipeId` (replacing an expired entry of the same key). */
  async rememberCreation (db: Db, authorId: string, key: string, recipeId: string): Promise<void> {
    await db`
      insert into recipe_creation_keys (user_id, key, recipe_id) values (${authorId}, ${key}, ${recipeId})
      on conflict (user_id, key) do update set recipe_id = excluded.recipe_id, created_at = now()`
  },

  async countByAuthor (db: Db, authorId: string): Promise<number> {
    const [{ n }] = await db<Array<Counted<'n'>>>`select count(*)::int as n from recipes where author_id = ${authorId}`
    return n
  },

  /** The lowest free slug for this author: base, base-1, base-2... (call with the author locked). */
  async freeSlug (db: Db, authorId: string, base: string): Promise<string> {
    const rows = await db<Array<Pick<RecipeRow, 'slug'>>>`
      select slug from recipes where author_id = ${authorId} and (slug = ${base} or slug like ${escapeLike(base) + '-%'})`
    const taken = new Set(rows.map(r => r.slug))
    if (!taken.has(base)) return base
    for (let n = 1; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`
  },

  async insert (db: Db, authorId: string, slug: string, fields: RecipeFields): Promise<string> {
    const id = createId()
    await db`insert into recipes ${db({ id, authorId, slug, ...columns(db, fields) })}`
    return id
  },

  async update (db: Db, id: string, fields: RecipeFields): Promise<void> {
    await db`update recipes set ${db(columns(db, fields))}, updated_at = now() where id = ${id}`
  },

  async remove (db: Db, id: string): Promise<void> {
    await db`delete from recipes where id = ${id}`
  },

  /**
   * Drops a picture the author deleted from their recipes. Matched on the key at the end of the URL (keys are unique),
   * so URLs stored under an earlier public base are cleared too.
   */
  async clearImage (db: Db, authorId: string, key: string): Promise<void> {
    await db`update recipes set image_url = null, updated_at = now()
      where author_id = ${authorId} and right(image_url, ${key.length + 1}) = ${'/' + key}`
  },

  /** Replaces a custom recipe's audience; unknown user ids are dropped rather than failing the write. */
  async setAudience (db: Db, recipeId: string, userIds: string[]): Promise<void> {
    await db`delete from recipe_audience where recipe_id = ${recipeId}`
    if (userIds.length === 0) return
    await db`insert into recipe_audience (recipe_id, user_id)
      select ${recipeId}, u.id from users u where u.id = any(${userIds}::text[]) on conflict do nothing`
  },

  /** A page of the public listing for these filters, a search's included (hot/recipe-search.ts). */
  list: listPage,

  /** A page of the whole public listing with its count and version (hot/recipe-pages.ts). */
  listedPage,

  /** How many recipes list() finds for these filters, counting no further than `cap` + 1. */
  async count (db: Db, filters: RecipeFilters, cap: number): Promise<number> {
    const search = searchTerm(filters)
    const where = search.text === ''
      ? filtered(db, filters)
      : db`${filtered(db, filters)} and (lower(r.title) like ${search.pattern} or r.ingredients_text like ${search.pattern})`
    return await countUpTo(db, where, cap + 1)
  },

  /** The trigger-kept listed count and listing version (migration 0011). */
  async listing (db: Db): Promise<ListingState> {
    const [row] = await db<ListingState[]>`
      select listed_count::int as listed_count, version::text as version from recipe_listing`
    return row ?? { listedCount: 0, version: '0' }
  },

  /** An author's recipes that the viewer may see, newest first. */
  async byAuthor (db: Db, authorId: string, viewerId: string | null, pageNo: number, limit: number): Promise<Page<RecipeView>> {
    return await page(db, db`r.author_id = ${authorId} and ${recipeVisibleTo(db, viewerId)}`, 'newest', viewerId, pageNo, limit)
  },

  /** An author's recipe by its slug, as the viewer may see it. */
  async bySlug (db: Db, authorId: string, slug: string, viewerId: string | null): Promise<RecipeView | null> {
    const [row] = await db<RecipeViewRow[]>`select ${recipeColumns(db, viewerId)} from recipes r join users a on a.id = r.author_id
      where r.author_id = ${authorId} and r.slug = ${slug} and ${recipeVisibleTo(db, viewerId)}`
    return row == null ? null : mapRecipe(row)
  },

  /** Recipes of the people the user follows, newest first, a page at a time (hot/feed.ts). */
  feed,

  /** The first page of the listing in its popular order: the listing's one measured statement (hot/recipe-pages.ts). bench: popular. */
  async popular (db: Db, limit: number, viewerId: string | null) {
    return (await listedPage(db, 'popular', viewerId, 1, limit)).items
  },

  async cuisines (db: Db) {
    return await db<Array<Record<'cuisine', NonNullable<RecipeRow['cuisine']>> & Counted<'count'>>>`
      select min(r.cuisine) as cuisine, count(*)::int as count from recipes r
      where ${listedRecipe(db)} and r.cuisine is not null and btrim(r.cuisine) <> ''
      group by lower(btrim(r.cuisine)) order by count desc, cuisine limit 100`
  },

  async commonIngredients (db: Db) {
    return await db<Array<Record<'name', IngredientLine['name']> & Counted<'count'>>>`
      select lower(btrim(i ->> 'name')) as name, count(distinct r.id)::int as count
      from recipes r cross join lateral jsonb_array_elements(
        case when jsonb_typeof(r.ingredients) = 'array' then r.ingredients else '[]'::jsonb end) i
      where ${listedRecipe(db)} and jsonb_typeof(i) = 'object' and coalesce(btrim(i ->> 'name'), '') <> ''
      group by 1 order by count desc, name limit 50`
  }
}

export default fp(async fastify => {
  fastify.decorate('recipesRepository', recipesRepository)
}, { name: 'recipes-repository' })
