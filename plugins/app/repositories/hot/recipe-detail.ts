// One recipe as the viewer may see it: the detail page, and what the anonymous detail's kept copy is rendered from
// (services/recipe-view-cache.ts).
import type { RecipeView } from '../../../../schemas/recipes.js'
import type { Db } from '../../../external/db.js'
import { mapRecipe, recipeColumns, type RecipeViewRow } from '../recipe-rows.js'
import { recipeVisibleTo } from '../visibility.js'

/** The recipe, or null when the viewer may not see it. bench: detail, detail-same-statement, login-detail, mixed. */
export async function findRecipe (db: Db, id: string, viewerId: string | null): Promise<RecipeView | null> {
  const [row] = await db<RecipeViewRow[]>`select ${recipeColumns(db, viewerId)} from recipes r join users a on a.id = r.author_id
      where r.id = ${id} and ${recipeVisibleTo(db, viewerId)}`
  return row == null ? null : mapRecipe(row)
}
