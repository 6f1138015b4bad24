// Turns a validated request body into the columns a recipe stores, and a stored recipe back into input.
import { normalizeIngredients, ingredientsSearchText, type Ingredient } from '../../../lib/ingredients.js'
import { slugOf } from '../../../lib/slug.js'
import { validationError } from '../../../lib/errors.js'
import { RECIPE_LIMITS, type InstructionStep, type RecipeInput, type RecipeView } from '../../../schemas/recipes.js'
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

// Recipes made from outside text (an imported page, a model's answer): every field cut to the recipe bounds.

/** Trimmed and cut to `max`; blank is null. */
export const cutText = (value: string | null | undefined, max: number): string | null =>
  value == null || value.trim() === '' ? null : value.trim().slice(0, max)

/** Whole minutes within 0..100,000, or null. */
export const boundedMinutes = (value: number | null | undefined): number | null =>
  value == null || !Number.isFinite(value) ? null : Math.min(100_000, Math.max(0, Math.round(value)))

/** Whole servings within 1..1,000, or null. */
export const boundedServings = (value: number | null | undefined): number | null =>
  value == null || !Number.isFinite(value) ? null : Math.min(1000, Math.max(1, Math.round(value)))

/** Ingredient lines from outside, at most RECIPE_LIMITS.ingredients, each field cut; an empty name becomes the line. */
export function boundedIngredients (lines: Array<Pick<Ingredient, 'text' | 'name' | 'quantity' | 'unit' | 'note' | 'group'>>): Ingredient[] {
  return lines.slice(0, RECIPE_LIMITS.ingredients).map(line => ({
    text: line.text.slice(0, 500),
    name: (line.name.trim() === '' ? line.text : line.name).slice(0, 200),
    quantity: line.quantity != null && Number.isFinite(line.quantity) && line.quantity >= 0 ? line.quantity : null,
    unit: cutText(line.unit, 50),
    note: cutText(line.note, 500),
    group: cutText(line.group, 100)
  }))
}
