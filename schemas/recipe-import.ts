// Recipe import (decisions.md "Import"): request bodies, the preview shape and the envelope answers.
import { Type, type Static } from 'typebox'
import { Id, Nullable, ref } from './common.js'
import { RECIPE_LIMITS, Recipe } from './recipes.js'

/** Captured pages and images may be large: these routes take bodies up to this. */
export const IMPORT_BODY_LIMIT = 5 * 1024 * 1024
export const IMAGE_BODY_LIMIT = 8 * 1024 * 1024
export const MAX_IMPORT_TEXT = 50_000

const PageUrl = Type.String({ minLength: 1, maxLength: 2000, description: 'The recipe page (http or https)' })
const Minutes = Nullable(Type.Integer({ minimum: 0, maximum: 100_000 }))
const Short = (max: number) => Nullable(Type.String({ maxLength: max }))

export const PreviewIngredient = Type.Object({
  text: Type.String({ maxLength: 1000, description: 'The line as written on the page' }),
  name: Type.String({ maxLength: 500 }),
  quantity: Nullable(Type.Number({ minimum: 0 })),
  unit: Short(50),
  note: Short(500),
  group: Short(200)
})

export const PreviewStep = Type.Object({
  step: Type.Integer({ minimum: 1 }),
  text: Type.String({ maxLength: 5000 }),
  section: Type.Optional(Type.String({ maxLength: 200 }))
})

export const RecipePreviewSchema = Type.Object({
  title: Type.String({ minLength: 1, maxLength: RECIPE_LIMITS.title }),
  description: Short(RECIPE_LIMITS.description),
  ingredients: Type.Array(PreviewIngredient, { maxItems: RECIPE_LIMITS.ingredients }),
  instructions: Type.Array(PreviewStep, { maxItems: RECIPE_LIMITS.instructions }),
  prepTime: Minutes,
  cookTime: Minutes,
  totalTime: Minutes,
  servings: Nullable(Type.Integer({ minimum: 1, maximum: 1000 })),
  yields: Short(200),
  imageUrl: Short(2000),
  cuisine: Short(100),
  category: Short(100),
  tags: Type.Array(Type.String({ maxLength: RECIPE_LIMITS.tagName }), { maxItems: 50 }),
  author: Short(200),
  nutrition: Nullable(Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 200 }), { maxProperties: 50 })),
  language: Short(35),
  sourceUrl: Short(2000)
}, { $id: 'RecipePreview', description: 'A recipe read from a page, text or image, before it is saved' })

const SaveAsDraft = Type.Optional(Type.Boolean({ default: true, description: 'Save unpublished (default); false publishes it at once' }))
const CapturedHtml = Type.Optional(Type.String({
  maxLength: IMPORT_BODY_LIMIT,
  description: 'The page as the caller\'s browser captured it (extension, bookmarklet): parsed instead of fetching `url`'
}))

export const PreviewBody = Type.Object({ url: PageUrl, html: CapturedHtml })
export const FromUrlBody = Type.Object({ url: PageUrl, html: CapturedHtml, saveAsDraft: SaveAsDraft })
/** What from-preview takes: a title and at least one ingredient or step (checked by the service); the rest optional. */
export const RecipePreviewInputSchema = Type.Object({
  title: Type.String({ minLength: 1, maxLength: RECIPE_LIMITS.title, pattern: '\\S' }),
  description: Type.Optional(Short(RECIPE_LIMITS.description)),
  ingredients: Type.Optional(Type.Array(Type.Union([
    Type.String({ maxLength: 1000 }),
    Type.Object({
      text: Type.Optional(Type.String({ maxLength: 1000 })),
      name: Type.Optional(Type.String({ maxLength: 500 })),
      quantity: Type.Optional(Nullable(Type.Number({ minimum: 0 }))),
      unit: Type.Optional(Short(50)),
      note: Type.Optional(Short(500)),
      group: Type.Optional(Short(200))
    })
  ], { description: 'A line such as "2 cups flour", or { text?, name?, quantity?, unit?, note?, group? }' }), { maxItems: RECIPE_LIMITS.ingredients })),
  instructions: Type.Optional(Type.Array(Type.Union([
    Type.String({ maxLength: 5000 }),
    Type.Object({ step: Type.Optional(Type.Integer({ minimum: 1 })), text: Type.String({ maxLength: 5000 }), section: Type.Optional(Type.String({ maxLength: 200 })) })
  ], { description: 'A step\'s text, or { step?, text, section? }; steps are numbered in order' }), { maxItems: RECIPE_LIMITS.instructions })),
  prepTime: Type.Optional(Minutes),
  cookTime: Type.Optional(Minutes),
  totalTime: Type.Optional(Minutes),
  servings: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1000 }))),
  yields: Type.Optional(Short(200)),
  imageUrl: Type.Optional(Nullable(Type.String({ maxLength: 2000, pattern: '^https?://' }))),
  cuisine: Type.Optional(Short(100)),
  category: Type.Optional(Short(100)),
  tags: Type.Optional(Type.Array(Type.String({ maxLength: RECIPE_LIMITS.tagName }), { maxItems: 50 })),
  author: Type.Optional(Short(200)),
  nutrition: Type.Optional(Nullable(Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 200 }), { maxProperties: 50 }))),
  language: Type.Optional(Short(35)),
  sourceUrl: Type.Optional(Nullable(Type.String({ maxLength: 2000, pattern: '^https?://' })))
}, {
  $id: 'RecipePreviewInput',
  description: 'A preview to save: as returned by preview (possibly edited), or built by hand. Needs `title` and at least one ingredient or step.',
  examples: [{ title: 'Lemon pancakes', ingredients: ['1 1/2 cups flour', '2 eggs', '1 1/4 cups milk'], instructions: ['Whisk everything.', 'Cook on a hot griddle.'], servings: 4 }]
})
export type RecipePreviewInput = Static<typeof RecipePreviewInputSchema>

export const FromPreviewBody = Type.Object({ preview: ref(RecipePreviewInputSchema), saveAsDraft: SaveAsDraft })
const ImportText = Type.String({ minLength: 1, maxLength: MAX_IMPORT_TEXT, pattern: '\\S', description: 'The recipe as text (not blank)' })
const ImportImage = Type.String({ minLength: 100, maxLength: IMAGE_BODY_LIMIT, description: 'The image, base64 (a data: URL prefix is accepted)' })
const ImageType = Type.Optional(Type.String({ maxLength: 100 }))
/** The text and photo previews take what from-text and from-image take, less `saveAsDraft` (nothing is saved). */
export const TextPreviewBody = Type.Object({ text: ImportText })
export const ImagePreviewBody = Type.Object({ image: ImportImage, mimeType: ImageType })
export const FromTextBody = Type.Object({ text: ImportText, saveAsDraft: SaveAsDraft })
export const FromImageBody = Type.Object({ image: ImportImage, mimeType: ImageType, saveAsDraft: SaveAsDraft })
export const LegacyImportBody = Type.Object({
  url: PageUrl,
  userId: Type.String({ minLength: 1, maxLength: 64, description: 'Must be your own id (403 otherwise)' }),
  saveAsDraft: SaveAsDraft
})

export const Duplicate = Type.Object({
  id: Id,
  title: Type.String(),
  slug: Type.String(),
  sourceUrl: Type.String(),
  createdAt: Type.String({ format: 'date-time' })
})

export const PreviewResponse = Type.Object({
  success: Type.Literal(true),
  preview: ref(RecipePreviewSchema),
  duplicates: Type.Array(Duplicate, { description: 'Your recipes from the same page (source URL without tracking parameters); at most 10' })
}, { description: 'What the page holds; nothing is saved' })

export const ReadPreviewResponse = Type.Object({
  success: Type.Literal(true),
  preview: ref(RecipePreviewSchema)
}, { description: 'What the text or photo holds; nothing is saved (no `duplicates`: there is no source page)' })

export const ImportedResponse = Type.Object({
  success: Type.Literal(true),
  recipe: ref(Recipe)
}, { description: 'The recipe as saved (a draft unless saveAsDraft was false)' })
