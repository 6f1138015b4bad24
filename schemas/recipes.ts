// The recipe object of decisions.md section 3 (the social fields arrive with the social issue).
import { Type } from 'typebox'
import { DateTime, Id, PaginationQuery, StringEnum } from './common.js'
import { DIFFICULTIES, RECIPE_TYPES, VISIBILITIES } from '../db/schema/recipes.js'
import { SORTS } from '../plugins/app/repositories/recipes.js'

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
  isLiked: Type.Boolean({ description: 'Whether the caller likes it (false when anonymous)' }),
  isBookmarked: Type.Boolean({ description: 'Whether the caller bookmarked it' }),
  userRating: Type.Union([Type.Integer({ minimum: 1, maximum: 5 }), Type.Null()], { description: 'The caller\'s rating' }),
  createdAt: DateTime,
  updatedAt: DateTime
}, { $id: 'Recipe' })

export const RECIPE_SCHEMAS = [Recipe]

export const RECIPE_LIMITS = { title: 200, description: 5000, tags: 20, tagName: 50, ingredients: 200, instructions: 200 } as const

const Minutes = Type.Union([Type.Integer({ minimum: 0, maximum: 100_000 }), Type.Null()])
const IngredientInput = Type.Union([
  Type.String({ maxLength: 500 }),
  Type.Object({
    name: Type.Optional(Type.String({ maxLength: 200 })),
    text: Type.Optional(Type.String({ maxLength: 500 })),
    quantity: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Null()])),
    unit: Type.Optional(Type.Union([Type.String({ maxLength: 50 }), Type.Null()])),
    note: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
    group: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()]))
  })
], { description: 'A line such as "1 1/2 cups flour, sifted", or { name, quantity?, unit?, note?, group? }' })
const InstructionInput = Type.Union([
  Type.String({ maxLength: 5000 }),
  Type.Object({ step: Type.Optional(Type.Integer({ minimum: 1 })), text: Type.String({ maxLength: 5000 }), section: Type.Optional(Type.String({ maxLength: 100 })) })
])
const TagInput = Type.Union([Type.String({ minLength: 1, maxLength: RECIPE_LIMITS.tagName }), Type.Object({ name: Type.String({ minLength: 1, maxLength: RECIPE_LIMITS.tagName }) })])

const recipeInputFields = {
  title: Type.String({ minLength: 1, maxLength: RECIPE_LIMITS.title }),
  description: Type.Optional(Type.Union([Type.String({ maxLength: RECIPE_LIMITS.description }), Type.Null()])),
  type: Type.Optional(StringEnum(RECIPE_TYPES)),
  difficulty: Type.Optional(StringEnum(DIFFICULTIES)),
  visibility: Type.Optional(StringEnum(VISIBILITIES)),
  published: Type.Optional(Type.Boolean()),
  cuisine: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  prepTime: Type.Optional(Minutes),
  cookTime: Type.Optional(Minutes),
  totalTime: Type.Optional(Minutes),
  servings: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 1000 }), Type.Null()])),
  ingredients: Type.Array(IngredientInput, { maxItems: RECIPE_LIMITS.ingredients }),
  instructions: Type.Optional(Type.Array(InstructionInput, { maxItems: RECIPE_LIMITS.instructions })),
  nutrition: Type.Optional(Type.Union([Type.Record(Type.String({ maxLength: 64 }), Type.Unknown(), { maxProperties: 50 }), Type.Null()])),
  imageUrl: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
  sourceUrl: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
  tags: Type.Optional(Type.Array(TagInput, { maxItems: RECIPE_LIMITS.tags, description: 'Tag names (at most 20); replaced on update' })),
  audienceUserIds: Type.Optional(Type.Array(Id, { maxItems: 500, description: 'Who may see a custom-visibility recipe' }))
}

export const RecipeCreateBody = Type.Object(recipeInputFields)
export const RecipePatchBody = Type.Partial(Type.Object(recipeInputFields))
export type RecipeInput = Partial<import('typebox').Static<typeof RecipeCreateBody>>

export const RecipeListQuery = Type.Object({
  ...PaginationQuery.properties,
  search: Type.Optional(Type.String({ maxLength: 200 })),
  type: Type.Optional(StringEnum(RECIPE_TYPES)),
  difficulty: Type.Optional(StringEnum(DIFFICULTIES)),
  cuisine: Type.Optional(Type.String({ maxLength: 100 })),
  tag: Type.Optional(Type.String({ maxLength: 100, description: 'Tag slug' })),
  author: Type.Optional(Type.String({ maxLength: 100, description: 'Username' })),
  maxTime: Type.Optional(Type.Integer({ minimum: 0, description: 'Minutes, total time' })),
  sort: StringEnum(SORTS, { default: 'newest' })
})
