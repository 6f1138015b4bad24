// The recipe object of decisions.md section 3 (the social fields arrive with the social issue).
import { Type } from 'typebox'
import { DateTime, Id } from './common.js'

const Nullable = <T extends ReturnType<typeof Type.String | typeof Type.Integer>>(schema: T) => Type.Union([schema, Type.Null()])

export const RecipeAuthor = Type.Object({
  id: Id,
  username: Type.String(),
  firstName: Type.Union([Type.String(), Type.Null()]),
  lastName: Type.Union([Type.String(), Type.Null()]),
  avatarUrl: Type.Union([Type.String(), Type.Null()])
})

export const Recipe = Type.Object({
  id: Id,
  slug: Type.String(),
  title: Type.String(),
  description: Nullable(Type.String()),
  type: Type.Union([Type.Literal('food'), Type.Literal('drink')]),
  difficulty: Type.Union([Type.Literal('easy'), Type.Literal('medium'), Type.Literal('hard')]),
  visibility: Type.Union([Type.Literal('public'), Type.Literal('private'), Type.Literal('friends'), Type.Literal('custom')]),
  published: Type.Boolean(),
  moderationStatus: Type.String(),
  cuisine: Nullable(Type.String()),
  prepTime: Nullable(Type.Integer({ description: 'Minutes' })),
  cookTime: Nullable(Type.Integer({ description: 'Minutes' })),
  totalTime: Nullable(Type.Integer({ description: 'Minutes' })),
  servings: Nullable(Type.Integer()),
  ingredients: Type.Array(Type.Unknown()),
  instructions: Type.Array(Type.Unknown()),
  nutrition: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  imageUrl: Nullable(Type.String()),
  sourceUrl: Nullable(Type.String()),
  tags: Type.Array(Type.Object({ id: Id, name: Type.String(), slug: Type.String() })),
  author: RecipeAuthor,
  averageRating: Type.Number({ description: 'Mean of all ratings, 0 when there are none' }),
  ratingCount: Type.Integer(),
  likeCount: Type.Integer(),
  commentCount: Type.Integer(),
  createdAt: DateTime,
  updatedAt: DateTime
}, { $id: 'Recipe' })

export const RECIPE_SCHEMAS = [Recipe]
