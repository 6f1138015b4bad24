// POST /api/ai-recipes/search-by-ingredients: the public recipes you can make with what you have, best match first.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { COVERING_CAP, MAX_PAIR_WORDS, SEARCH_WINDOW } from '../../../plugins/app/services/ingredient-search.js'
import { described, EnvelopeError, ref } from '../../../schemas/common.js'
import { INGREDIENT_SEARCH_LIMITS, IngredientSearchBody, IngredientSearchResponse } from '../../../schemas/ingredient-search.js'

const Envelope = ref(EnvelopeError)

const DESCRIPTION = 'Every public, published recipe of the listing (as `GET /api/recipes` shows it to anyone: not ' +
  'private, friends-only, custom, draft, flagged or rejected ones, nor those of deactivated or banned users; yours ' +
  'only when public) that uses at least one of your ingredients. An ingredient matches a recipe ingredient whose name ' +
  'contains it as whole words, whatever the case, accents, punctuation and plurals: "chicken" matches "boneless ' +
  'skinless chicken thighs", "pepper" matches "black pepper" and "red bell peppers", "egg" does not match "eggplant". ' +
  '`matchScore` is the share of the recipe\'s ingredients you have (each distinct ingredient counts once). Order: ' +
  'higher `matchScore`, then more ingredients matched, then more likes, then newer. ' +
  `Not paged: a ranked top-N, the best \`limit\` matches (default ${INGREDIENT_SEARCH_LIMITS.defaultLimit}, at most ` +
  `${INGREDIENT_SEARCH_LIMITS.maxLimit}). The work is bounded: every recipe you have all the ingredients of is found ` +
  `(for lists of up to ${MAX_PAIR_WORDS} words; that lookup reads at most ${COVERING_CAP} recipes), and ranks first; recipes you lack ingredients for are considered ` +
  `when they use one of your less common ingredients or two of your fairly common ones, or are among the ${SEARCH_WINDOW} ` +
  'most liked: one sharing only very common ingredients (salt, water, oil...) with your list and liked by few may be left out.'

const search: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.ingredientSearchService

  fastify.post('/search-by-ingredients', {
    config: { envelope: true },
    schema: {
      operationId: 'aiRecipes.searchByIngredients',
      summary: 'Find public recipes that use the ingredients you have',
      description: DESCRIPTION,
      body: IngredientSearchBody,
      response: { 200: described('The recipes that use your ingredients, best match first', ref(IngredientSearchResponse)), 400: Envelope }
    }
  }, async request => {
    return { success: true as const, recipes: await service.search(currentUser(request).id, request.body) }
  })
}

export default search
