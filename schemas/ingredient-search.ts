// Search by ingredients (decisions.md "AI"): the ingredients you have, and the public recipes that use them, best
// match first. Failures use the import/AI envelope (EnvelopeError).
import { Type, type Static } from 'typebox'
import { ref } from './common.js'
import { Recipe } from './recipes.js'

export const INGREDIENT_SEARCH_LIMITS = { ingredients: 30, ingredient: 100, defaultLimit: 20, maxLimit: 50 } as const

export const IngredientSearchBody = Type.Object({
  ingredients: Type.Array(Type.String({ minLength: 1, maxLength: INGREDIENT_SEARCH_LIMITS.ingredient }), {
    minItems: 1,
    maxItems: INGREDIENT_SEARCH_LIMITS.ingredients,
    description: `The ingredients you have: 1 to ${INGREDIENT_SEARCH_LIMITS.ingredients} names of 1 to ` +
      `${INGREDIENT_SEARCH_LIMITS.ingredient} characters, not blank (e.g. ["chicken", "Tomatoes", "crème fraîche"]). ` +
      'Case, accents, punctuation and plurals do not matter; the same ingredient twice counts once.'
  }),
  limit: Type.Optional(Type.Integer({
    minimum: 1,
    maximum: INGREDIENT_SEARCH_LIMITS.maxLimit,
    default: INGREDIENT_SEARCH_LIMITS.defaultLimit,
    description: `How many recipes to return, best first (default ${INGREDIENT_SEARCH_LIMITS.defaultLimit}, at most ${INGREDIENT_SEARCH_LIMITS.maxLimit})`
  }))
})
export type IngredientSearchInput = Static<typeof IngredientSearchBody>

export const IngredientMatch = Type.Object({
  recipe: ref(Recipe),
  matchedIngredients: Type.Array(Type.String(), {
    description: 'The recipe\'s ingredients you have, as the recipe names them, in its order (each once)'
  }),
  missingIngredients: Type.Array(Type.String(), { description: 'The recipe\'s ingredients you do not have, likewise' }),
  matchScore: Type.Number({
    minimum: 0,
    maximum: 1,
    description: 'matchedIngredients / (matchedIngredients + missingIngredients): 1 when you have everything'
  })
}, { $id: 'IngredientMatch', description: 'A recipe and how well your ingredients cover it' })
export type IngredientMatchView = Static<typeof IngredientMatch>

export const IngredientSearchResponse = Type.Object({
  success: Type.Literal(true),
  recipes: Type.Array(ref(IngredientMatch), { description: 'Best match first; empty when no public recipe uses any of your ingredients' })
}, { $id: 'IngredientSearchResponse', description: 'The public recipes that use your ingredients, best match first' })
