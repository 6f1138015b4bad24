import { Type } from 'typebox'
import { DateTime, Id, ref } from './common.js'
import { Recipe } from './recipes.js'

export const Collection = Type.Object({
  id: Id,
  userId: Id,
  name: Type.String(),
  slug: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  isPublic: Type.Boolean(),
  type: Type.Union([Type.Literal('custom'), Type.Literal('saved')], { description: 'saved: the Saved Recipes collection bookmarks fill' }),
  itemCount: Type.Integer({ description: 'Items the caller can see' }),
  items: Type.Array(Type.Object({ recipe: ref(Recipe), sortOrder: Type.Integer(), addedAt: DateTime })),
  createdAt: DateTime,
  updatedAt: DateTime
}, { $id: 'Collection' })

export const CollectionBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  description: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
  isPublic: Type.Optional(Type.Boolean())
})
