// Collections: lists and single reads carry the first items (a card's worth of each recipe) and the item count
// (decisions.md, Collections); all items, with the whole recipe, are paged apart.
import { Type, type Static } from 'typebox'
import { DateTime, Id, Nullable, ref, StringEnum } from './common.js'
import { Recipe } from './recipes.js'

export const COLLECTION_LIMITS = { name: 100, description: 1000, preview: 4, embeddedItems: 100, reorder: 1000 } as const
export const COLLECTION_TYPES = ['custom', 'saved'] as const

/** An item as a collection embeds it: where it stands, and enough of the recipe and its author for a card. */
export const CollectionItemSummary = Type.Object({
  recipeId: Id,
  sortOrder: Type.Integer(),
  addedAt: DateTime,
  recipe: Type.Object({
    id: Id,
    title: Type.String(),
    slug: Type.String(),
    imageUrl: Nullable(Type.String()),
    author: Type.Object({ id: Id, username: Type.String(), avatarUrl: Nullable(Type.String()) })
  })
}, { $id: 'CollectionItemSummary' })
export type CollectionItemSummaryView = Static<typeof CollectionItemSummary>

export const Collection = Type.Object({
  id: Id,
  userId: Id,
  name: Type.String(),
  slug: Type.String({ description: 'Unique among the owner\'s collections; a taken slug gets a short suffix' }),
  description: Nullable(Type.String()),
  isPublic: Type.Boolean(),
  type: StringEnum(COLLECTION_TYPES, { description: 'saved: the Saved Recipes collection bookmarks fill (cannot be deleted)' }),
  itemCount: Type.Integer({ description: 'Recipes in it that the caller can see, all of them (also those beyond `items`)' }),
  items: Type.Array(ref(CollectionItemSummary), {
    maxItems: COLLECTION_LIMITS.embeddedItems,
    description: `The first ${COLLECTION_LIMITS.embeddedItems} recipes the caller can see, in collection order (sortOrder). ` +
      'Recipes the caller can no longer see (made private, or by a deactivated or banned author) are left out here and in itemCount.'
  }),
  itemsTruncated: Type.Boolean({
    description: `true when the collection holds more than the ${COLLECTION_LIMITS.embeddedItems} embedded items: GET /api/collections/{collectionId}/recipes pages all of them`
  }),
  preview: Type.Array(Type.Object({ id: Id, title: Type.String(), imageUrl: Nullable(Type.String()) }), {
    maxItems: COLLECTION_LIMITS.preview,
    deprecated: true,
    description: `Kept for older clients: the first ${COLLECTION_LIMITS.preview} of \`items\`, as id, title and imageUrl. Read \`items\` instead.`
  }),
  createdAt: DateTime,
  updatedAt: DateTime
}, { $id: 'Collection' })
export type CollectionView = Static<typeof Collection>

/** An item of the paged list: the embedded item's fields, with the whole recipe as every recipe list shows it. */
export const CollectionItem = Type.Object({
  recipeId: Id,
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
