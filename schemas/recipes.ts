// The recipe object of decisions.md section 3, its inputs and list filters, and the types derived from them.
import { Type, type Static } from 'typebox'
import { DateTime, Id, Nullable, PaginationQuery, ref, StringEnum } from './common.js'
import { DIFFICULTIES, RECIPE_TYPES, VISIBILITIES } from '../db/schema/recipes.js'

export const RECIPE_SORTS = ['newest', 'oldest', 'popular', 'rating', 'title'] as const
export type RecipeSort = typeof RECIPE_SORTS[number]

export const RECIPE_LIMITS = { title: 200, description: 5000, tags: 20, tagName: 50, ingredients: 200, instructions: 200 } as const

export const Ingredient = Type.Object({
  text: Type.String({ description: 'The line as written, e.g. "1 1/2 cups flour, sifted"' }),
  name: Type.String({ description: 'What it is, e.g. "flour"' }),
  quantity: Type.Optional(Nullable(Type.Number())),
  quantity2: Type.Optional(Nullable(Type.Number({ description: 'Upper end of a range such as "2-3 cloves"' }))),
  unit: Type.Optional(Nullable(Type.String())),
  note: Type.Optional(Nullable(Type.String())),
  group: Type.Optional(Nullable(Type.String({ description: 'Section, e.g. "For the sauce"' })))
}, { $id: 'Ingredient', description: 'A parsed ingredient line' })
export type IngredientLine = Static<typeof Ingredient>

export const Instruction = Type.Object({
  step: Type.Integer({ minimum: 1 }),
  text: Type.String(),
  section: Type.Optional(Type.String())
}, { $id: 'Instruction', description: 'One step of the method' })
export type InstructionStep = Static<typeof Instruction>

export const RecipeAuthor = Type.Object({
  id: Id,
  username: Type.String(),
  firstName: Nullable(Type.String()),
  lastName: Nullable(Type.String()),
  avatarUrl: Nullable(Type.String())
})

export const TagRef = Type.Object({ id: Id, name: Type.String(), slug: Type.String() })

export const Recipe = Type.Object({
  id: Id,
  slug: Type.String(),
  title: Type.String(),
  description: Nullable(Type.String()),
  type: StringEnum(RECIPE_TYPES),
  difficulty: StringEnum(DIFFICULTIES),
  visibility: StringEnum(VISIBILITIES),
  published: Type.Boolean(),
  moderationStatus: Type.String({ description: 'pending, approved, flagged or rejected' }),
  cuisine: Nullable(Type.String()),
  prepTime: Nullable(Type.Integer({ description: 'Minutes' })),
  cookTime: Nullable(Type.Integer({ description: 'Minutes' })),
  totalTime: Nullable(Type.Integer({ description: 'Minutes' })),
  servings: Nullable(Type.Integer()),
  ingredients: Type.Array(ref(Ingredient)),
  instructions: Type.Array(ref(Instruction)),
  nutrition: Nullable(Type.Record(Type.String(), Type.Unknown())),
  imageUrl: Nullable(Type.String()),
  sourceUrl: Nullable(Type.String()),
  sourceImageUrl: Nullable(Type.String(), {
    description: 'An imported recipe\'s picture as its page (or preview) gave it, kept for credit and provenance. ' +
      '`imageUrl` is our stored copy of it, or null when it could not be copied; null when nothing was imported'
  }),
  tags: Type.Array(TagRef),
  author: RecipeAuthor,
  averageRating: Type.Number({ description: 'Mean of all ratings, 0 when there are none' }),
  ratingCount: Type.Integer(),
  likeCount: Type.Integer(),
  commentCount: Type.Integer(),
  isLiked: Type.Boolean({ description: 'Whether the caller likes it (false when anonymous)' }),
  isBookmarked: Type.Boolean({ description: 'Whether the caller bookmarked it' }),
  userRating: Nullable(Type.Integer({ minimum: 1, maximum: 5 }), { description: 'The caller\'s rating' }),
  createdAt: DateTime,
  updatedAt: DateTime
}, { $id: 'Recipe' })
export type RecipeView = Static<typeof Recipe>

const Minutes = Nullable(Type.Integer({ minimum: 0, maximum: 100_000 }))
const HttpUrl = Type.String({ maxLength: 2000, pattern: '^https?://', description: 'An http(s) URL' })
const IngredientInput = Type.Union([
  Type.String({ maxLength: 500 }),
  Type.Object({
    name: Type.Optional(Type.String({ maxLength: 200 })),
    text: Type.Optional(Type.String({ maxLength: 500 })),
    quantity: Type.Optional(Nullable(Type.Number({ minimum: 0 }))),
    unit: Type.Optional(Nullable(Type.String({ maxLength: 50 }))),
    note: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
    group: Type.Optional(Nullable(Type.String({ maxLength: 100 })))
  })
], { description: 'A line such as "1 1/2 cups flour, sifted", or { name, quantity?, unit?, note?, group? }' })
const InstructionInput = Type.Union([
  Type.String({ maxLength: 5000 }),
  Type.Object({ step: Type.Optional(Type.Integer({ minimum: 1 })), text: Type.String({ maxLength: 5000 }), section: Type.Optional(Type.String({ maxLength: 100 })) })
])
const TagInput = Type.Union([
  Type.String({ minLength: 1, maxLength: RECIPE_LIMITS.tagName }),
  Type.Object({ name: Type.String({ minLength: 1, maxLength: RECIPE_LIMITS.tagName }) })
])

const recipeInputFields = {
  title: Type.String({ minLength: 1, maxLength: RECIPE_LIMITS.title }),
  description: Type.Optional(Nullable(Type.String({ maxLength: RECIPE_LIMITS.description }))),
  type: Type.Optional(StringEnum(RECIPE_TYPES)),
  difficulty: Type.Optional(StringEnum(DIFFICULTIES)),
  visibility: Type.Optional(StringEnum(VISIBILITIES)),
  published: Type.Optional(Type.Boolean()),
  cuisine: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  prepTime: Type.Optional(Minutes),
  cookTime: Type.Optional(Minutes),
  totalTime: Type.Optional(Minutes),
  servings: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1000 }))),
  ingredients: Type.Array(IngredientInput, {
    maxItems: RECIPE_LIMITS.ingredients,
    description: 'Required, and may be empty: a recipe is often saved while still being written (a draft, a drink, a technique)'
  }),
  instructions: Type.Optional(Type.Array(InstructionInput, { maxItems: RECIPE_LIMITS.instructions })),
  nutrition: Type.Optional(Nullable(Type.Record(Type.String({ maxLength: 64 }), Type.Unknown(), { maxProperties: 50 }))),
  imageUrl: Type.Optional(Nullable(Type.String({
    maxLength: 2000,
    pattern: '^(https?://|uploads/)',
    description: 'An http(s) URL, or one of your uploads (its `key` or `url` from POST /api/upload/image)'
  }))),
  sourceUrl: Type.Optional(Nullable(HttpUrl)),
  tags: Type.Optional(Type.Array(TagInput, { maxItems: RECIPE_LIMITS.tags, description: 'Tag names (at most 20); replaced on update' })),
  audienceUserIds: Type.Optional(Type.Array(Id, { maxItems: 500, description: 'Who may see a custom-visibility recipe' }))
}

export const RecipeCreateBody = Type.Object(recipeInputFields, {
  examples: [{
    title: 'Lemon pancakes',
    description: 'Fluffy pancakes with lemon zest',
    type: 'food',
    difficulty: 'easy',
    visibility: 'public',
    cuisine: 'American',
    prepTime: 10,
    cookTime: 15,
    servings: 4,
    ingredients: ['1 1/2 cups flour', '2 eggs', '1 1/4 cups milk', { name: 'lemon zest', quantity: 1, unit: 'tbsp' }],
    instructions: ['Whisk the dry ingredients.', 'Beat in the eggs and milk, then the zest.', 'Cook on a hot griddle, 2 minutes a side.'],
    imageUrl: 'https://example.com/images/lemon-pancakes.jpg',
    sourceUrl: 'https://example.com/recipes/lemon-pancakes',
    tags: ['breakfast', 'quick']
  }]
})
export const RecipePatchBody = Type.Partial(Type.Object(recipeInputFields))
/** What create, replace and patch take (patch: any subset). */
export type RecipeInput = Static<typeof RecipePatchBody>

export const RecipeListQuery = Type.Object({
  ...PaginationQuery.properties,
  search: Type.Optional(Type.String({ maxLength: 200 })),
  type: Type.Optional(StringEnum(RECIPE_TYPES)),
  difficulty: Type.Optional(StringEnum(DIFFICULTIES)),
  cuisine: Type.Optional(Type.String({ maxLength: 100 })),
  tag: Type.Optional(Type.String({ maxLength: 100, description: 'Tag slug' })),
  author: Type.Optional(Type.String({ maxLength: 100, description: 'Username' })),
  maxTime: Type.Optional(Type.Integer({ minimum: 0, description: 'Minutes of total time; recipes with no time set are left out' })),
  sort: Type.Optional(StringEnum(RECIPE_SORTS, { default: 'newest' }))
})
export type RecipeFilters = Omit<Static<typeof RecipeListQuery>, 'page' | 'limit'>

export const RecipeResponse = Type.Object({ recipe: ref(Recipe) })

export const Revision = Type.Object({
  id: Id,
  version: Type.Integer({ minimum: 1 }),
  editorId: Nullable(Id),
  createdAt: DateTime
}, { $id: 'Revision', description: 'An earlier version of a recipe (fetch one to see its content)' })
export type RevisionView = Static<typeof Revision>

export const Tag = Type.Object({
  id: Id,
  name: Type.String(),
  slug: Type.String(),
  recipeCount: Type.Integer({ description: 'Listed recipes with this tag' })
}, { $id: 'Tag' })
export type TagView = Static<typeof Tag>
