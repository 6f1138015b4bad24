// Collections and their items, including each user's Saved Recipes collection (type `saved`, one per user).
// Reads take the viewer: counts, previews and items only show recipes the viewer may see.
import fp from 'fastify-plugin'
import type { collections } from '../../../db/schema/index.js'
import { COLLECTION_LIMITS, type CollectionItemView, type CollectionView } from '../../../schemas/collections.js'
import type { Db } from '../../external/db.js'
import { mapRecipe, recipeColumns, type RecipeViewRow } from './recipe-rows.js'
import type { Page } from './recipes.js'
import { recipeVisibleTo } from './visibility.js'

declare module 'fastify' {
  interface FastifyInstance {
    collectionsRepository: typeof collectionsRepository
  }
}

type CollectionType = CollectionView['type']
export type NewCollection = Pick<typeof collections.$inferSelect, 'id' | 'userId' | 'name' | 'slug' | 'description' | 'isPublic' | 'type'>
export type CollectionChanges = Partial<Pick<typeof collections.$inferInsert, 'name' | 'description' | 'isPublic'>>

type CollectionRow = typeof collections.$inferSelect & { itemCount: number, preview: CollectionView['preview'] }
type ItemRow = RecipeViewRow & { sortOrder: number, addedAt: Date }

const itemOrder = (db: Db) => db`ci.sort_order, ci.added_at, ci.recipe_id`

/** The collection columns with the viewer's item count and preview (`c` is the collections alias). */
const summary = (db: Db, viewerId: string | null) => db`
  c.id, c.user_id, c.name, c.slug, c.description, c.is_public, c.type, c.created_at, c.updated_at,
  (select count(*)::int from collection_items ci join recipes r on r.id = ci.recipe_id
    where ci.collection_id = c.id and ${recipeVisibleTo(db, viewerId)}) as item_count,
  (select coalesce(json_agg(json_build_object('id', p.id, 'title', p.title, 'imageUrl', p.image_url) order by p.n), '[]')
    from (select r.id, r.title, r.image_url, row_number() over (order by ${itemOrder(db)}) as n
      from collection_items ci join recipes r on r.id = ci.recipe_id
      where ci.collection_id = c.id and ${recipeVisibleTo(db, viewerId)}
      order by ${itemOrder(db)} limit ${COLLECTION_LIMITS.preview}) p) as preview`

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
    preview: row.preview,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString()
  }
}

const item = (row: ItemRow): CollectionItemView => ({ recipe: mapRecipe(row), sortOrder: row.sortOrder, addedAt: row.addedAt.toISOString() })

export const collectionsRepository = {
  /** A page of the user's collections: Saved Recipes first, then oldest first. */
  async list (db: Db, userId: string, pageNo: number, limit: number): Promise<Page<CollectionView>> {
    const [rows, [{ total }]] = await Promise.all([
      db<CollectionRow[]>`select ${summary(db, userId)} from collections c where c.user_id = ${userId}
        order by (c.type = 'saved') desc, c.created_at, c.id limit ${limit} offset ${(pageNo - 1) * limit}`,
      db<Array<{ total: number }>>`select count(*)::int as total from collections where user_id = ${userId}`
    ])
    return { items: rows.map(view), total }
  },

  /** The collection if it is the viewer's own or public. */
  async find (db: Db, id: string, viewerId: string): Promise<CollectionView | null> {
    const [row] = await db<CollectionRow[]>`select ${summary(db, viewerId)} from collections c
      where c.id = ${id} and (c.is_public or c.user_id = ${viewerId})`
    return row == null ? null : view(row)
  },

  /** The collection if it belongs to the user. */
  async owned (db: Db, id: string, userId: string): Promise<{ id: string, type: CollectionType } | null> {
    const [row] = await db<Array<{ id: string, type: CollectionType }>>`select id, type from collections where id = ${id} and user_id = ${userId}`
    return row ?? null
  },

  async savedId (db: Db, userId: string): Promise<string | null> {
    const [row] = await db<Array<{ id: string }>>`select id from collections where user_id = ${userId} and type = 'saved'`
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
      db<Array<{ total: number }>>`select count(*)::int as total from collection_items ci join recipes r on r.id = ci.recipe_id where ${where}`
    ])
    return { items: rows.map(item), total }
  },

  async item (db: Db, collectionId: string, recipeId: string, viewerId: string): Promise<CollectionItemView | null> {
    const [row] = await db<ItemRow[]>`select ci.sort_order, ci.added_at, ${recipeColumns(db, viewerId)}
      from collection_items ci join recipes r on r.id = ci.recipe_id join users a on a.id = r.author_id
      where ci.collection_id = ${collectionId} and ci.recipe_id = ${recipeId}`
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
