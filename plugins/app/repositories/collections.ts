// Collections and their items, including each user's Saved Recipes collection (type `saved`, one per user).
// Reads take the viewer: counts and items only show recipes the viewer may see.
import fp from 'fastify-plugin'
import type { collectionItems, collections } from '../../../db/schema/index.js'
import { COLLECTION_LIMITS, type CollectionItemSummaryView, type CollectionItemView, type CollectionView } from '../../../schemas/collections.js'
import type { Db } from '../../external/db.js'
import { mapRecipe, recipeColumns, type RecipeViewRow } from './recipe-rows.js'
import type { Page } from './recipes.js'
import type { Fragment, Counted } from './sql.js'
import { recipeVisibleTo } from './visibility.js'

declare module 'fastify' {
  interface FastifyInstance {
    collectionsRepository: typeof collectionsRepository
  }
}

type Collection = typeof collections.$inferSelect
export type NewCollection = Pick<typeof collections.$inferSelect, 'id' | 'userId' | 'name' | 'slug' | 'description' | 'isPublic' | 'type'>
export type CollectionChanges = Partial<Pick<typeof collections.$inferInsert, 'name' | 'description' | 'isPublic'>>

type CollectionRow = Collection & Pick<CollectionView, 'itemCount'> & { items: CollectionItemSummaryView[] }
type ItemRow = RecipeViewRow & Pick<typeof collectionItems.$inferSelect, 'sortOrder' | 'addedAt'>

const itemOrder = (db: Db) => db`ci.sort_order, ci.added_at, ci.recipe_id`

/** A timestamp as JSON text the way Date.toISOString writes it (UTC, milliseconds), like the paged items' addedAt. */
const isoTime = (db: Db, column: Fragment) => db`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/**
 * The collections `page` selects (`c`, whole rows), each with the viewer's item count and first items, in one
 * statement whether it is one collection or a page of them (no statement per collection). The items of all of them
 * are read together, numbered per collection in collection order; only the first ones are written as JSON. Who may
 * see a recipe is visibility.ts's rule (which also hides deactivated and banned authors' recipes from others).
 * Each item's recipe is read by its key (the `offset 0` keeps the lateral read from being turned into a join): as a
 * join, the planner hashed the items and scanned every recipe, 100k rows for a page holding 1,700 items (400 ms).
 */
function withItems (db: Db, page: Fragment, viewerId: string): Fragment {
  return db`with page as materialized (${page}),
    counted as (
      select v.collection_id, count(*)::int as item_count,
        json_agg(json_build_object(
          'recipeId', v.recipe_id, 'sortOrder', v.sort_order, 'addedAt', ${isoTime(db, db`v.added_at`)},
          'recipe', json_build_object('id', v.recipe_id, 'title', v.title, 'slug', v.slug, 'imageUrl', v.image_url,
            'author', (select json_build_object('id', a.id, 'username', a.username, 'avatarUrl', a.avatar_url)
              from users a where a.id = v.author_id))
        ) order by v.n) filter (where v.n <= ${COLLECTION_LIMITS.embeddedItems}) as items
      from (
        select ci.collection_id, ci.recipe_id, ci.sort_order, ci.added_at, r.title, r.slug, r.image_url, r.author_id,
          row_number() over (partition by ci.collection_id order by ${itemOrder(db)}) as n
        from page c join collection_items ci on ci.collection_id = c.id
        cross join lateral (select r.title, r.slug, r.image_url, r.author_id from recipes r
          where r.id = ci.recipe_id and ${recipeVisibleTo(db, viewerId)} offset 0) r
      ) v
      group by v.collection_id
    )
    select c.id, c.user_id, c.name, c.slug, c.description, c.is_public, c.type, c.created_at, c.updated_at,
      coalesce(s.item_count, 0) as item_count, coalesce(s.items, '[]') as items
    from page c left join counted s on s.collection_id = c.id
    order by (c.type = 'saved') desc, c.created_at, c.id`
}

function view (row: CollectionRow): CollectionView {
  return {
    id: row.id,
    userId: row.userId,
    name: row.name,
    slug: row.slug,
    description: row.description,
    isPublic: row.isPublic,
    type: row.type,
    itemCount: row.itemCount,
    items: row.items,
    itemsTruncated: row.itemCount > row.items.length,
    preview: row.items.slice(0, COLLECTION_LIMITS.preview).map(({ recipe }) => ({ id: recipe.id, title: recipe.title, imageUrl: recipe.imageUrl })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString()
  }
}

const item = (row: ItemRow): CollectionItemView => ({ recipeId: row.id, recipe: mapRecipe(row), sortOrder: row.sortOrder, addedAt: row.addedAt.toISOString() })

export const collectionsRepository = {
  /** A page of the user's collections: Saved Recipes first, then oldest first. */
  async list (db: Db, userId: string, pageNo: number, limit: number): Promise<Page<CollectionView>> {
    const [rows, [{ total }]] = await Promise.all([
      db<CollectionRow[]>`${withItems(db, db`select * from collections c where c.user_id = ${userId}
        order by (c.type = 'saved') desc, c.created_at, c.id limit ${limit} offset ${(pageNo - 1) * limit}`, userId)}`,
      db<Array<Counted<'total'>>>`select count(*)::int as total from collections where user_id = ${userId}`
    ])
    return { items: rows.map(view), total }
  },

  /** The collection if it is the viewer's own or public. */
  async find (db: Db, id: string, viewerId: string): Promise<CollectionView | null> {
    const [row] = await db<CollectionRow[]>`${withItems(db, db`select * from collections c
      where c.id = ${id} and (c.is_public or c.user_id = ${viewerId})`, viewerId)}`
    return row == null ? null : view(row)
  },

  /** The collection if it belongs to the user. */
  async owned (db: Db, id: string, userId: string): Promise<Pick<Collection, 'id' | 'type'> | null> {
    const [row] = await db<Array<Pick<Collection, 'id' | 'type'>>>`select id, type from collections where id = ${id} and user_id = ${userId}`
    return row ?? null
  },

  async savedId (db: Db, userId: string): Promise<string | null> {
    const [row] = await db<Array<Pick<Collection, 'id'>>>`select id from collections where user_id = ${userId} and type = 'saved'`
    return row?.id ?? null
  },

  /** Inserts unless the slug (or, for `saved`, the user's one Saved Recipes collection) is taken; true if inserted. */
  async insert (db: Db, collection: NewCollection): Promise<boolean> {
    const rows = await db`insert into collections ${db(collection)} on conflict do nothing returning 1`
    return rows.length > 0
  },

  async update (db: Db, id: string, changes: CollectionChanges): Promise<void> {
    const set = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined))
    if (Object.keys(set).length === 0) return
    await db`update collections set ${db(set)}, updated_at = now() where id = ${id}`
  },

  async remove (db: Db, id: string): Promise<void> {
    await db`delete from collections where id = ${id}`
  },

  /** A page of the recipes in a collection that the viewer may see, in collection order. */
  async items (db: Db, collectionId: string, viewerId: string, pageNo: number, limit: number): Promise<Page<CollectionItemView>> {
    const where = db`ci.collection_id = ${collectionId} and ${recipeVisibleTo(db, viewerId)}`
    const [rows, [{ total }]] = await Promise.all([
      db<ItemRow[]>`select ci.sort_order, ci.added_at, ${recipeColumns(db, viewerId)}
        from collection_items ci join recipes r on r.id = ci.recipe_id join users a on a.id = r.author_id
        where ${where} order by ${itemOrder(db)} limit ${limit} offset ${(pageNo - 1) * limit}`,
      db<Array<Counted<'total'>>>`select count(*)::int as total from collection_items ci join recipes r on r.id = ci.recipe_id where ${where}`
    ])
    return { items: rows.map(item), total }
  },

  /** One item of the collection, if the viewer may see its recipe. */
  async item (db: Db, collectionId: string, recipeId: string, viewerId: string): Promise<CollectionItemView | null> {
    const [row] = await db<ItemRow[]>`select ci.sort_order, ci.added_at, ${recipeColumns(db, viewerId)}
      from collection_items ci join recipes r on r.id = ci.recipe_id join users a on a.id = r.author_id
      where ci.collection_id = ${collectionId} and ci.recipe_id = ${recipeId} and ${recipeVisibleTo(db, viewerId)}`
    return row == null ? null : item(row)
  },

  /** Appends the recipe; false when it was already there. */
  async addItem (db: Db, collectionId: string, recipeId: string): Promise<boolean> {
    const rows = await db`insert into collection_items (collection_id, recipe_id, sort_order)
      values (${collectionId}, ${recipeId}, (select coalesce(max(sort_order), -1) + 1 from collection_items where collection_id = ${collectionId}))
      on conflict do nothing returning 1`
    return rows.length > 0
  },

  async removeItem (db: Db, collectionId: string, recipeId: string): Promise<boolean> {
    const rows = await db`delete from collection_items where collection_id = ${collectionId} and recipe_id = ${recipeId} returning 1`
    return rows.length > 0
  },

  /** Takes the recipe out of the user's Saved Recipes collection; false when it was not there. */
  async removeFromSaved (db: Db, userId: string, recipeId: string): Promise<boolean> {
    const rows = await db`delete from collection_items ci using collections c
      where ci.collection_id = c.id and c.user_id = ${userId} and c.type = 'saved' and ci.recipe_id = ${recipeId} returning 1`
    return rows.length > 0
  },

  /** Renumbers the items: listed recipes first, in the given order, then the others in their current order. */
  async reorder (db: Db, collectionId: string, recipeIds: string[]): Promise<void> {
    await db`update collection_items ci set sort_order = o.position
      from (
        select x.recipe_id, (row_number() over (order by p.position nulls last, x.sort_order, x.added_at, x.recipe_id) - 1)::int as position
        from collection_items x left join unnest(${recipeIds}::text[]) with ordinality as p(recipe_id, position) on p.recipe_id = x.recipe_id
        where x.collection_id = ${collectionId}
      ) o
      where ci.collection_id = ${collectionId} and ci.recipe_id = o.recipe_id`
  }
}

export default fp(async fastify => {
  fastify.decorate('collectionsRepository', collectionsRepository)
}, { name: 'collections-repository' })
