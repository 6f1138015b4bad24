// Collections: a summary (item count and a small preview) for lists and single reads; the recipes are paged apart.
import { Type, type Static } from 'typebox'
import { DateTime, Id, Nullable, ref, StringEnum } from './common.js'
import { Recipe } from './recipes.js'

export const COLLECTION_LIMITS = { name: 100, description: 1000, preview: 4, reorder: 1000 } as const
export const COLLECTION_TYPES = ['custom', 'saved'] as const

export const Collection = Type.Object({
  id: Id,
  userId: Id,
  name: Type.String(),
  slug: Type.String({ description: 'Unique among the owner\'s collections; a taken slug gets a short suffix' }),
  description: Nullable(Type.String()),
  isPublic: Type.Boolean(),
  type: StringEnum(COLLECTION_TYPES, { description: 'saved: the Saved Recipes collection bookmarks fill (cannot be deleted)' }),
  itemCount: Type.Integer({ description: 'Recipes in it that the caller can see' }),
  preview: Type.Array(Type.Object({ id: Id, title: Type.String(), imageUrl: Nullable(Type.String()) }), {
    maxItems: COLLECTION_LIMITS.preview,
    description: `The first ${COLLECTION_LIMITS.preview} recipes the caller can see, in collection order (all of them: GET /api/collections/{id}/recipes)`
  }),
  createdAt: DateTime,
  updatedAt: DateTime
}, { $id: 'Collection' })
export type CollectionView = Static<typeof Collection>

export const CollectionItem = Type.Object({
  recipe: ref(Recipe),
  sortOrder: Type.Integer(),
  addedAt: DateTime
}, { $id: 'CollectionItem' })
export type CollectionItemView = Static<typeof CollectionItem>

const name = Type.String({ minLength: 1, maxLength: COLLECTION_LIMITS.name, description: `Trimmed; must not be blank; at most ${COLLECTION_LIMITS.name} characters` })
const description = Nullable(Type.String({ maxLength: COLLECTION_LIMITS.description }))

export const CollectionBody = Type.Object({
  name,
  description: Type.Optional(description),
  isPublic: Type.Optional(Type.Boolean())
})
export const CollectionPatchBody = Type.Partial(CollectionBody)
export type CollectionInput = Static<typeof CollectionPatchBody>
