// The shape every import path produces (decisions.md "Import": the `preview` object), before it becomes a recipe.
import { normalizeIngredients } from '../ingredients.js'

export interface PreviewIngredient {
  /** The line as written on the page, always kept. */
  text: string
  name: string
  quantity: number | null
  unit: string | null
  note: string | null
  /** Section heading, e.g. "For the sauce". */
  group: string | null
}

export interface PreviewStep {
  step: number
  text: string
  /** HowToSection name, or the heading the step sits under. */
  section?: string
}

export interface RecipePreview {
  title: string
  description: string | null
  ingredients: PreviewIngredient[]
  instructions: PreviewStep[]
  /** Minutes. */
  prepTime: number | null
  cookTime: number | null
  totalTime: number | null
  /** First number of the yield, e.g. 4 for "4 servings". */
  servings: number | null
  /** The yield as written, e.g. "4 servings" or "24 cookies". */
  yields: string | null
  /**
   * One absolute http(s) URL: the page's image address, as the page gives it. A preview stores nothing; the recipe made
   * from it gets a stored copy as `imageUrl` and keeps this address as `sourceImageUrl` (services/import-image.ts).
   */
  imageUrl: string | null
  cuisine: string | null
  category: string | null
  tags: string[]
  author: string | null
  /** schema.org NutritionInformation properties as written ("240 kcal"). */
  nutrition: Record<string, string> | null
  language: string | null
  sourceUrl: string | null
}

/** A preview as a client may send one to from-preview: a title and any of the rest (built by hand or edited). */
export type PreviewInput = Partial<Omit<RecipePreview, 'title' | 'ingredients' | 'instructions'>> & {
  title: string
  ingredients?: Array<string | { text?: string, name?: string, quantity?: number | null, unit?: string | null, note?: string | null, group?: string | null }>
  instructions?: Array<string | { step?: number, text: string, section?: string }>
}

/** The full preview of a client's partial one: ingredient lines parsed as in a new recipe, steps numbered, the rest null. */
export function previewFromInput (input: PreviewInput): RecipePreview {
  const instructions = (input.instructions ?? [])
    .map(step => typeof step === 'string' ? { text: step } : step)
    .filter(step => step.text.trim() !== '')
    .map((step, i): PreviewStep => ({ step: i + 1, text: step.text.trim(), ...('section' in step && step.section != null && { section: step.section }) }))
  return {
    title: input.title.trim(),
    description: input.description ?? null,
    ingredients: normalizeIngredients(input.ingredients ?? []).map(({ text, name, quantity, unit, note, group }) => ({ text, name, quantity, unit, note, group })),
    instructions,
    prepTime: input.prepTime ?? null,
    cookTime: input.cookTime ?? null,
    totalTime: input.totalTime ?? null,
    servings: input.servings ?? null,
    yields: input.yields ?? null,
    imageUrl: input.imageUrl ?? null,
    cuisine: input.cuisine ?? null,
    category: input.category ?? null,
    tags: input.tags ?? [],
    author: input.author ?? null,
    nutrition: input.nutrition ?? null,
    language: input.language ?? null,
    sourceUrl: input.sourceUrl ?? null
  }
}
