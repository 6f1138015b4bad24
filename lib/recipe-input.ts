// Turns a validated request body into the columns a recipe stores.
import slugify from 'slugify'
import type { RecipeFields, RecipeView } from '../plugins/app/repositories/recipes.js'
import type { RecipeInput } from '../schemas/recipes.js'
import { validationError } from './errors.js'
import { ingredientsSearchText, normalizeIngredients } from './ingredients.js'

export function slugOf (text: string): string {
  const slug = slugify(text, { lower: true, strict: true, trim: true }).slice(0, 80).replace(/-+$/, '')
  // Scripts slugify cannot transliterate (CJK...) leave nothing.
  return slug === '' ? 'recipe' : slug
}

export function normalizeTags (tags: RecipeInput['tags']): Array<{ name: string, slug: string }> {
  const seen = new Map<string, { name: string, slug: string }>()
  for (const tag of tags ?? []) {
    const name = (typeof tag === 'string' ? tag : tag.name).trim().replace(/\s+/g, ' ')
    if (name === '') continue
    const slug = slugOf(name)
    if (!seen.has(slug)) seen.set(slug, { name, slug })
  }
  return [...seen.values()]
}

export function normalizeInstructions (items: unknown[]): Array<{ step: number, text: string, section?: string }> {
  const out: Array<{ step: number, text: string, section?: string }> = []
  for (const item of items) {
    const text = (typeof item === 'string' ? item : (item as { text: string }).text).trim()
    if (text === '') continue
    const section = typeof item === 'object' && item != null ? (item as { section?: string }).section : undefined
    out.push({ step: out.length + 1, text, ...(section != null && section !== '' && { section }) })
  }
  return out
}

/** Merges `input` over `base` (an existing recipe on update) and derives the stored columns; a blank title is a 400. */
export function recipeFields (input: RecipeInput, base?: RecipeView): RecipeFields {
  const pick = <K extends keyof RecipeInput>(key: K, fallback: unknown) => (input[key] !== undefined ? input[key] : fallback)
  const ingredients = input.ingredients !== undefined ? normalizeIngredients(input.ingredients) : (base?.ingredients ?? [])
  const instructions = input.instructions !== undefined ? normalizeInstructions(input.instructions) : (base?.instructions ?? [])
  const prepTime = pick('prepTime', base?.prepTime ?? null) as number | null
  const cookTime = pick('cookTime', base?.cookTime ?? null) as number | null
  let totalTime = pick('totalTime', base?.totalTime ?? null) as number | null
  // Derived when the client gives the parts but not the total.
  if (input.totalTime === undefined && (input.prepTime !== undefined || input.cookTime !== undefined || totalTime == null)) {
    totalTime = prepTime == null && cookTime == null ? null : (prepTime ?? 0) + (cookTime ?? 0)
  }
  const title = (pick('title', base?.title) as string).trim()
  if (title === '') throw validationError(['title: must not be blank'])
  return {
    title,
    description: pick('description', base?.description ?? null) as string | null,
    type: pick('type', base?.type ?? 'food') as string,
    difficulty: pick('difficulty', base?.difficulty ?? 'medium') as string,
    visibility: pick('visibility', base?.visibility ?? 'public') as string,
    published: pick('published', base?.published ?? true) as boolean,
    cuisine: ((pick('cuisine', base?.cuisine ?? null) as string | null)?.trim() || null),
    prepTime,
    cookTime,
    totalTime,
    servings: pick('servings', base?.servings ?? null) as number | null,
    ingredients,
    instructions,
    nutrition: pick('nutrition', base?.nutrition ?? null) as Record<string, unknown> | null,
    imageUrl: pick('imageUrl', base?.imageUrl ?? null) as string | null,
    sourceUrl: pick('sourceUrl', base?.sourceUrl ?? null) as string | null,
    ingredientsText: ingredientsSearchText(ingredients as ReturnType<typeof normalizeIngredients>)
  }
}

/** A stored recipe as request input (restoring a revision goes through the same path as an edit). */
export function inputFromRecipe (recipe: RecipeView): RecipeInput {
  return {
    title: recipe.title,
    description: recipe.description,
    type: recipe.type,
    difficulty: recipe.difficulty,
    visibility: recipe.visibility,
    published: recipe.published,
    cuisine: recipe.cuisine,
    prepTime: recipe.prepTime,
    cookTime: recipe.cookTime,
    totalTime: recipe.totalTime,
    servings: recipe.servings,
    // Stored in the canonical shapes, which the input schemas accept as they are.
    ingredients: recipe.ingredients as NonNullable<RecipeInput['ingredients']>,
    instructions: recipe.instructions as NonNullable<RecipeInput['instructions']>,
    nutrition: recipe.nutrition,
    imageUrl: recipe.imageUrl,
    sourceUrl: recipe.sourceUrl,
    tags: (recipe.tags as Array<{ name: string }>).map(t => t.name)
  }
}
