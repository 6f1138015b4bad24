// What each source (JSON-LD, microdata, page heuristics) finds, before the sources are merged into a RecipePreview.
// A field left undefined was not found and may be filled from the next source.

export interface RawIngredient {
  text: string
  group: string | null
}

export interface RawStep {
  text: string
  section?: string
}

export interface RawRecipe {
  title?: string
  description?: string
  ingredients?: RawIngredient[]
  instructions?: RawStep[]
  prepTime?: number
  cookTime?: number
  totalTime?: number
  yields?: string
  servings?: number
  imageUrl?: string
  cuisine?: string
  category?: string
  tags?: string[]
  author?: string
  nutrition?: Record<string, string>
  language?: string
  /** Set when the steps were split from one text (not a list of steps): that text, to refine from the page. */
  instructionsText?: string
}

/** What the mappers need to know about the page. */
export interface PageContext {
  /** Base for relative URLs: <base href>, else the page URL, else its canonical URL. */
  base: URL | null
}
