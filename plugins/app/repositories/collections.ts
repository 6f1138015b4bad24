// Recipe collections, including each user's Saved Recipes collection that bookmarks fill.
import { createId } from '@paralleldrive/cuid2'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type postgres from 'postgres'
import { slugOf } from '../../../lib/recipe-input.js'
import { toIso } from '../../../lib/pg-values.js'
import { mapRecipe, recipeColumns } from './recipes.js'
import { recipeVisibleTo } from './visibility.js'

declare module 'fastify' {
  interface FastifyInstance {
    collectionsRepository: ReturnType<typeof createCollectionsRepository>
  }
}

export const SAVED_COLLECTION_NAME = 'Saved Recipes'

export interface CollectionFields { name: string, description?: string | null, isPublic?: boolean }

export function createCollectionsRepository (fastify: FastifyInstance) {
  const { sql } = fastify

  /** Items of the given collections, as the viewer may see them, in their order. */
  async function items (collectionIds: string[], viewerId: string | null) {
    if (collectionIds.length === 0) return new Map<string, Array<{ recipe: ReturnType<typeof mapRecipe>, sortOrder: number, addedAt: string }>>()
    const rows = await sql`
      select ci.collection_id, ci.sort_order, ci.added_at, ${recipeColumns(sql, viewerId)}
      from collection_items ci join recipes r on r.id = ci.recipe_id join users a on a.id = r.author_id
      where ci.collection_id in ${sql(collectionIds)} and ${recipeVisibleTo(sql, viewerId)}
      order by ci.sort_order, ci.added_at, r.id`
    const byCollection = new Map<string, Array<{ recipe: ReturnType<typeof mapRecipe>, sortOrder: number, addedAt: string }>>()
    for (const row of rows) {
      const list = byCollection.get(row.collection_id) ?? []
      list.push({ recipe: mapRecipe(row), sortOrder: row.sort_order, addedAt: toIso(row.added_at) })
      byCollection.set(row.collection_id, list)
    }
    return byCollection
  }

  async function withItems (rows: postgres.Row[], viewerId: string | null) {
    const itemMap = await items(rows.map(r => r.id), viewerId)
    return rows.map(row => {
      const list = itemMap.get(row.id) ?? []
      return {
        id: row.id as string,
        userId: row.user_id as string,
        name: row.name as string,
        slug: row.slug as string,
        description: row.description as string | null,
        isPublic: row.is_public as boolean,
        type: row.type as 'custom' | 'saved',
        itemCount: list.length,
        items: list,
        createdAt: toIso(row.created_at),
        updatedAt: toIso(row.updated_at)
      }
    })
  }

  async function insert (userId: string, fields: CollectionFields, type: 'custom' | 'saved') {
    const base = slugOf(fields.name)
    // The unique (user, slug) index settles races; try the next suffix on a clash.
    for (let n = 0; ; n++) {
      const slug = n === 0 ? base : `${base}-${n}`
      const [row] = await sql`insert into collections (id, user_id, name, slug, description, is_public, type)
        values (${createId()}, ${userId}, ${fields.name}, ${slug}, ${fields.description ?? null}, ${fields.isPublic ?? false}, ${type})
        on conflict do nothing returning id`
      if (row != null) return row.id as string
      if (type === 'saved') {
        const [saved] = await sql`select id from collections where user_id = ${userId} and type = 'saved'`
        if (saved != null) return saved.id as string
      }
      if (n > 1000) throw new Error('no free collection slug')
    }
  }

  return {
    async listForUser (userId: string) {
      const rows = await sql`select * from collections where user_id = ${userId} order by (type = 'saved') desc, created_at, id`
      return await withItems(rows, userId)
    },

    /** The owner sees their collection; others only a public one. */
    async get (id: string, viewerId: string | null) {
      const [row] = await sql`select * from collections where id = ${id} and (is_public or user_id = ${viewerId ?? ''})`
      if (row == null) return null
      return (await withItems([row], viewerId))[0]
    },

    async owned (id: string, userId: string) {
      const [row] = await sql`select id, type from collections where id = ${id} and user_id = ${userId}`
      return row == null ? null : { id: row.id as string, type: row.type as 'custom' | 'saved' }
    },

    async create (userId: string, fields: CollectionFields): Promise<string> {
      return await insert(userId, fields, 'custom')
    },

    async update (id: string, fields: Partial<CollectionFields>): Promise<void> {
      const set: Record<string, unknown> = {}
      if (fields.name !== undefined) set.name = fields.name
      if (fields.description !== undefined) set.description = fields.description
      if (fields.isPublic !== undefined) set.is_public = fields.isPublic
      if (Object.keys(set).length > 0) await sql`update collections set ${sql(set)}, updated_at = now() where id = ${id}`
    },

    async remove (id: string): Promise<void> {
      await sql`delete from collections where id = ${id}`
    },

    async addItem (collectionId: string, recipeId: string): Promise<void> {
      await sql`insert into collection_items (collection_id, recipe_id, sort_order)
        values (${collectionId}, ${recipeId}, (select coalesce(max(sort_order), -1) + 1 from collection_items where collection_id = ${collectionId}))
        on conflict do nothing`
    },

    async removeItem (collectionId: string, recipeId: string): Promise<boolean> {
      return (await sql`delete from collection_items where collection_id = ${collectionId} and recipe_id = ${recipeId} returning 1`).length > 0
    },

    /** Listed recipes take positions 0..n-1 in the given order; any others follow, keeping their order. */
    async reorder (collectionId: string, recipeIds: string[]): Promise<void> {
      await sql.begin(async tx => {
        await tx`update collection_items ci set sort_order = ordered.position - 1
          from unnest(${recipeIds}::text[]) with ordinality as ordered(recipe_id, position)
          where ci.collection_id = ${collectionId} and ci.recipe_id = ordered.recipe_id`
        await tx`update collection_items set sort_order = ${recipeIds.length} + sort_order
          where collection_id = ${collectionId} and not (recipe_id = any(${recipeIds}::text[]))`
      })
    },

    /** The user's Saved Recipes collection, created on first use (once, even under concurrency). */
    async saved (userId: string): Promise<string> {
      const [existing] = await sql`select id from collections where user_id = ${userId} and type = 'saved'`
      return existing?.id ?? await insert(userId, { name: SAVED_COLLECTION_NAME }, 'saved')
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('collectionsRepository', createCollectionsRepository(fastify))
}, { name: 'collections-repository', dependencies: ['db'] })
