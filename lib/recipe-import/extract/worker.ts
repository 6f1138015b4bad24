// The extractor as a worker-thread task (plugins/external/extractor.ts runs it off the event loop).
import { extractRecipe } from './index.js'
import type { RecipePreview } from '../preview.js'

export default function extract ({ html, url }: { html: string, url: string }): RecipePreview | null {
  return extractRecipe(html, url)
}
