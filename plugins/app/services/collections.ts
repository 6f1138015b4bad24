// Collection rules: yours to change (anyone else's is 404), another user's readable only when public, names trimmed
// and required, slugs found in at most three inserts whatever how many collections share a name, the Saved Recipes
// collection created once per user and never deleted. Adding to or removing from Saved Recipes is bookmarking.
import { createId } from '@paralleldrive/cuid2'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { CollectionNotFound, NotInCollection, SavedCollectionUndeletable, validationError } from '../../../lib/errors.js'
import { slugOf } from '../../../lib/slug.js'
import type { CollectionInput, CollectionItemView, CollectionView } from '../../../schemas/collections.js'
import type { Db } from '../../external/db.js'
import type { NewCollection } from '../repositories/collections.js'
import type { Page } from '../repositories/recipes.js'

declare module 'fastify' {
  interface FastifyInstance {
    collectionService: ReturnType<typeof createCollectionService>
  }
}

export const SAVED_COLLECTION_NAME = 'Saved Recipes'

function nameOf (name: string): string {
  const trimmed = name.trim()
  if (trimmed === '') throw validationError(['name: must not be blank'])
  return trimmed
}

export function createCollectionService (fastify: FastifyInstance) {
  const { collectionsRepository: collections, bookmarksRepository: bookmarks } = fastify

  /**
   * Inserts under the plain slug, or, when the user has it already, under the slug with a short suffix from the new
   * id (then the whole id, which no one else can hold). Returns the id; for `saved`, the one that already exists.
   */
  async function insert (db: Db, fields: Omit<NewCollection, 'id' | 'slug'>): Promise<string> {
    const id = createId()
    const base = slugOf(fields.name, 'collection')
    for (const slug of [base, `${base}-${id.slice(0, 8)}`, `${base}-${id}`]) {
      if (await collections.insert(db, { ...fields, id, slug })) return id
      if (fields.type === 'saved') {
        const saved = await collections.savedId(db, fields.userId)
        if (saved != null) return saved
      }
    }
    throw new Error('collection slug clash on a fresh id')
  }

  async function get (id: string, viewerId: string, db: Db = fastify.db): Promise<CollectionView> {
    const collection = await collections.find(db, id, viewerId)
    if (collection == null) throw new CollectionNotFound()
    return collection
  }

  /** The user's own collection, or 404 (someone else's is never theirs to change). */
  async function own (db: Db, id: string, userId: string) {
    const collection = await collections.owned(db, id, userId)
    if (collection == null) throw new CollectionNotFound()
    return collection
  }

  return {
    get,

    async list (userId: string, page: number, limit: number): Promise<Page<CollectionView>> {
      return await collections.list(fastify.db, userId, page, limit)
    },

    async create (userId: string, input: CollectionInput & { name: string }): Promise<CollectionView> {
      const id = await insert(fastify.db, {
        userId,
        name: nameOf(input.name),
        description: input.description ?? null,
        isPublic: input.isPublic ?? false,
        type: 'custom'
      })
      return await get(id, userId)
    },

    /** Renames (the slug stays, so links keep working), describes, publishes or hides. */
    async update (userId: string, id: string, input: CollectionInput): Promise<CollectionView> {
      await own(fastify.db, id, userId)
      await collections.update(fastify.db, id, {
        name: input.name === undefined ? undefined : nameOf(input.name),
        description: input.description,
        isPublic: input.isPublic
      })
      return await get(id, userId)
    },

    async remove (userId: string, id: string): Promise<void> {
      const collection = await own(fastify.db, id, userId)
      if (collection.type === 'saved') throw new SavedCollectionUndeletable()
      await collections.remove(fastify.db, id)
    },

    /** A page of the recipes in a collection the viewer may see (their own, or a public one). */
    async items (id: string, viewerId: string, page: number, limit: number): Promise<Page<CollectionItemView>> {
      await get(id, viewerId)
      return await collections.items(fastify.db, id, viewerId, page, limit)
    },

    /** Adds a recipe the user can see; `created` is false (and the existing item returned) when it was there already. */
    async addRecipe (userId: string, id: string, recipeId: string) {
      return await fastify.transaction(async tx => {
        const collection = await own(tx, id, userId)
        await fastify.recipeService.get(recipeId, userId, tx)
        const created = await collections.addItem(tx, id, recipeId)
        if (collection.type === 'saved') await bookmarks.add(tx, userId, recipeId)
        const item = (await collections.item(tx, id, recipeId, userId))!
        return { created, item, collection: await get(id, userId, tx) }
      })
    },

    /** Takes a recipe out, whatever its visibility is now. */
    async removeRecipe (userId: string, id: string, recipeId: string): Promise<CollectionView> {
      return await fastify.transaction(async tx => {
        const collection = await own(tx, id, userId)
        if (!(await collections.removeItem(tx, id, recipeId))) throw new NotInCollection()
        if (collection.type === 'saved') await bookmarks.remove(tx, userId, recipeId)
        return await get(id, userId, tx)
      })
    },

    async reorder (userId: string, id: string, recipeIds: string[]): Promise<CollectionView> {
      await own(fastify.db, id, userId)
      await collections.reorder(fastify.db, id, recipeIds)
      return await get(id, userId)
    },

    /** The user's Saved Recipes collection, created on first use (once, even under concurrency). */
    async saved (db: Db, userId: string): Promise<string> {
      return await collections.savedId(db, userId) ??
        await insert(db, { userId, name: SAVED_COLLECTION_NAME, description: null, isPublic: false, type: 'saved' })
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('collectionService', createCollectionService(fastify))
}, { name: 'collection-service', dependencies: ['collections-repository', 'bookmarks-repository', 'recipe-service'] })
