// Turns a validated request body into the columns a recipe stores, and a stored recipe back into input.
import { normalizeIngredients, ingredientsSearchText } from '../../../lib/ingredients.js'
import { slugOf } from '../../../lib/slug.js'
import { validationError } from '../../../lib/errors.js'
import type { InstructionStep, RecipeInput, RecipeView } from '../../../schemas/recipes.js'
import type { RecipeFields } from '../repositories/recipes.js'
import type { TagName } from '../repositories/tags.js'

export function normalizeTags (tags: RecipeInput['tags']): TagName[] {
  const seen = new Map<string, TagName>()
  for (const tag of tags ?? []) {
    const name = (typeof tag === 'string' ? tag : tag.name).trim().replace(/\s+/g, ' ')
    if (name === '') continue
    const slug = slugOf(name)
    if (!seen.has(slug)) seen.set(slug, { name, slug })
  }
  return [...seen.values()]
}

export function normalizeInstructions (items: NonNullable<RecipeInput['instructions']>): InstructionStep[] {
  const out: InstructionStep[] = []
  for (const item of items) {
    const text = (typeof item === 'string' ? item : item.text).trim()
    if (text === '') continue
    const section = typeof item === 'string' ? undefined : item.section
    out.push({ step: out.length + 1, text, ...(section != null && section !== '' && { section }) })
  }
  return out
}

/** Merges `input` over `base` (the current recipe on update) and derives the stored columns; a blank title is a 400. */
export function recipeFields (input: RecipeInput, base?: RecipeView): RecipeFields {
  const ingredients = input.ingredients !== undefined ? normalizeIngredients(input.ingredients) : (base?.ingredients ?? [])
  const prepTime = input.prepTime !== undefined ? input.prepTime : (base?.prepTime ?? null)
  const cookTime = input.cookTime !== undefined ? input.cookTime : (base?.cookTime ?? null)
  let totalTime = input.totalTime !== undefined ? input.totalTime : (base?.totalTime ?? null)
  // Derived when the client gives the parts but not the total.
  if (input.totalTime === undefined && (input.prepTime !== undefined || input.cookTime !== undefined || totalTime == null)) {
    totalTime = prepTime == null && cookTime == null ? null : (prepTime ?? 0) + (cookTime ?? 0)
  }
  const title = (input.title ?? base?.title ?? '').trim()
  if (title === '') throw validationError(['title: must not be blank'])
  const cuisine = input.cuisine !== undefined ? input.cuisine : (base?.cuisine ?? null)
  return {
    title,
    description: input.description !== undefined ? input.description : (base?.description ?? null),
    type: input.type ?? base?.type ?? 'food',
    difficulty: input.difficulty ?? base?.difficulty ?? 'medium',
    visibility: input.visibility ?? base?.visibility ?? 'public',
    published: input.published ?? base?.published ?? true,
    cuisine: cuisine?.trim() || null,
    prepTime,
    cookTime,
    totalTime,
    servings: input.servings !== undefined ? input.servings : (base?.servings ?? null),
    ingredients,
    instructions: input.instructions !== undefined ? normalizeInstructions(input.instructions) : (base?.instructions ?? []),
    nutrition: input.nutrition !== undefined ? input.nutrition : (base?.nutrition ?? null),
    imageUrl: input.imageUrl !== undefined ? input.imageUrl : (base?.imageUrl ?? null),
    sourceUrl: input.sourceUrl !== undefined ? input.sourceUrl : (base?.sourceUrl ?? null),
    ingredientsText: ingredientsSearchText(ingredients)
  }
}

/** A stored recipe as request input (restoring a revision goes through the same path as an edit). */
export function inputFromRecipe (recipe: RecipeView): RecipeInput {
  const { title, description, type, difficulty, visibility, published, cuisine, prepTime, cookTime, totalTime, servings, nutrition, imageUrl, sourceUrl } = recipe
  return {
    title,
    description,
    type,
    difficulty,
    visibility,
    published,
    cuisine,
    prepTime,
    cookTime,
    totalTime,
    servings,
    // Stored in the canonical shapes, which the input schemas accept as they are.
    ingredients: recipe.ingredients.map(({ quantity2: _range, ...rest }) => rest),
    instructions: recipe.instructions,
    nutrition,
    imageUrl,
    sourceUrl,
    tags: recipe.tags.map(t => t.name)
  }
}
