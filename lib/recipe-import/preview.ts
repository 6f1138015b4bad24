// The shape every import path produces (decisions.md "Import": the `preview` object), before it becomes a recipe.

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
  /** One absolute http(s) URL. */
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
