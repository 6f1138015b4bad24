// Search by ingredients (POST /api/ai-recipes/search-by-ingredients): the public listing's recipes that use the
// caller's ingredients, ranked by the share of each recipe they cover. No AI provider is involved.
//
// The work is bounded whatever the ingredients (salt and water are in most recipes; measured at 100,000 recipes):
// 1. The terms are normalised by PostgreSQL, with the function that fills recipes.ingredient_names (migration 0023);
//    an instance asks once per term (KEYS_KEPT).
// 2. Complete matches (you have every ingredient): found through the pair index (recipes_ingredient_pairs_idx: the word
//    pairs of each recipe's two least common ingredients, migration 0023), which reads few other recipes. All of them
//    are found when the terms have at most MAX_PAIR_WORDS words and there are at most COVERING_CAP candidates. They
//    rank first: with `limit` of them, that is the answer.
// 3. Otherwise partial matches are added from bounded reads:
//    - the SEARCH_WINDOW most liked listed recipes containing a term's word (an index walk of fixed length, the same
//      for every search: kept per instance under the listing version for WINDOW_TTL_MS, so a new, edited or hidden
//      recipe is seen at once, and likes move the window within seconds). When the listing is no longer than the
//      window, that is every recipe and the answer is exact.
//    - the window is also a sample: a word found in h of its recipes is in about h * listed / window of all. Each
//      term's rarest word is looked up through the word index (recipes_ingredient_words_idx), rarest first, while the
//      recipes expected stay within RARE_BUDGET (a word not in the sample always is; INDEX_CAP bounds the read); then,
//      within the rest of the budget, pairs of the other terms' words (recipes using two of them: a small lookup each).
//    So a partial match is considered (and then scored exactly) when it contains one of your less common ingredients,
//    two of your fairly common ones, or is among the most liked; one sharing only very common ingredients (salt,
//    water, oil...) with the list and liked by few is not.
// 4. Candidates are scored in lib/ingredient-names.ts and the best `limit` read in full in one statement.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { LRUCache } from 'lru-cache'
import { validationError } from '../../../lib/errors.js'
import { distinctKeys, indexLookups, matchedIngredients, rankCandidates, termMatcher, wordsOf, type IndexLookups, type IngredientCandidate } from '../../../lib/ingredient-names.js'
import { INGREDIENT_SEARCH_LIMITS, type IngredientMatchView, type IngredientSearchInput } from '../../../schemas/ingredient-search.js'

/** At most this many recipes are read through the pair index (complete matches). */
export const COVERING_CAP = 600
/**
 * The pair index is looked up with the pairs of at most this many words of the terms (the least common ones: 90 keys),
 * as a lookup costs in proportion to its keys times the recipes found. With more words, complete matches are still
 * found when their two least common ingredients contain those words, but not surely all of them.
 */
export const MAX_PAIR_WORDS = 12
/** How many of the most liked listed recipes a search for partial matches reads (and samples word frequencies from). */
export const SEARCH_WINDOW = 500
/** How many recipes, by the sample's estimate, the word-index lookup of the rarer words may bring. */
export const RARE_BUDGET = 800
/** At most this many recipes are read through the word index, whatever the estimate said. */
export const INDEX_CAP = 2000

/** How long an instance reuses the most liked window while the listing version stays the same. */
export const WINDOW_TTL_MS = 10_000
/** How many terms' keys an instance remembers (a key depends on the term alone: the function is fixed by migrations). */
const KEYS_KEPT = 10_000
/** How many searches' plans (the window's recipes for their terms, their lookups) a window keeps. */
const PLANS_KEPT = 200

export interface SearchBounds { covering: number, window: number, budget: number, cap: number }
const BOUNDS: SearchBounds = { covering: COVERING_CAP, window: SEARCH_WINDOW, budget: RARE_BUDGET, cap: INDEX_CAP }

export function createIngredientSearchService (fastify: FastifyInstance) {
  const { db, ingredientSearchRepository: repo } = fastify
  // The most liked window with the listing version and size it was read for (concurrent searches share one read),
  // each candidate with its words, split once per read rather than on every search; and what searches made of it:
  // its recipes that use a term's word and the lookups they imply depend on the terms and the window alone, so a
  // search repeated within the window's life (common pantries are) reuses them.
  type Liked = Array<{ candidate: IngredientCandidate, keyWords: string[] }>
  interface Plan { liked: IngredientCandidate[], lookups: IndexLookups | null }
  let window: { key: string, readAt: number, rows: Promise<Liked>, plans: LRUCache<string, Plan> } | null = null

  // Most searches repeat common terms (chicken, garlic...): their keys are asked of PostgreSQL once per instance.
  const termKeys = new LRUCache<string, string>({ max: KEYS_KEPT })

  // A term matcher remembers which keys it matches: kept for the terms searched most, so a repeated search asks again
  // only about keys it never met.
  const matchers = new LRUCache<string, (key: string) => boolean>({ max: PLANS_KEPT })
  function matcherFor (terms: string[]): (key: string) => boolean {
    const key = terms.join('\n')
    let matches = matchers.get(key)
    if (matches == null) matchers.set(key, matches = termMatcher(terms))
    return matches
  }

  async function keysOf (terms: string[]): Promise<string[]> {
    const keys = new Map<string, string>()
    for (const term of terms) {
      const key = termKeys.get(term)
      if (key !== undefined) keys.set(term, key)
    }
    const unknown = [...new Set(terms.filter(term => !keys.has(term)))]
    if (unknown.length > 0) {
      (await repo.keys(db, unknown)).forEach((key, i) => {
        keys.set(unknown[i], key)
        termKeys.set(unknown[i], key)
      })
    }
    return terms.map(term => keys.get(term)!)
  }

  async function mostLiked (version: string, size: number) {
    const key = `${version}:${size}`
    if (window == null || window.key !== key || Date.now() - window.readAt > WINDOW_TTL_MS) {
      const rows = repo.mostLiked(db, size).then(found => found.map(candidate => ({ candidate, keyWords: wordsOf(candidate.names) })))
      const read = { key, readAt: Date.now(), rows, plans: new LRUCache<string, Plan>({ max: PLANS_KEPT }) }
      window = read
      rows.catch(() => { if (window === read) window = null })
    }
    const { rows, plans } = window
    return { rows: await rows, plans }
  }

  /** The window's recipes that use one of `terms`' words, and what to look up beyond it (none: the window is all). */
  async function planFor (terms: string[], listed: number, version: string, bounds: SearchBounds): Promise<Plan> {
    const { rows, plans } = await mostLiked(version, bounds.window)
    const key = `${listed}:${bounds.budget}:${terms.join('\n')}`
    let plan = plans.get(key)
    if (plan == null) {
      const wanted = new Set(wordsOf(terms))
      const liked = rows.filter(({ keyWords }) => keyWords.some(word => wanted.has(word))).map(({ candidate }) => candidate)
      plan = { liked, lookups: listed > bounds.window ? indexLookups(terms, liked, listed, bounds.window, bounds.budget) : null }
      plans.set(key, plan)
    }
    return plan
  }

  return {
    /** The best `limit` matches for the caller's ingredients; `bounds` exist for tests. */
    async search (viewerId: string, input: IngredientSearchInput, bounds: SearchBounds = BOUNDS): Promise<IngredientMatchView[]> {
      const blank = input.ingredients.flatMap((term, i) => term.trim() === '' ? [`ingredients[${i}]: must not be blank`] : [])
      if (blank.length > 0) throw validationError(blank)
      const terms = distinctKeys(await keysOf(input.ingredients))
      if (terms.length === 0) throw validationError(['ingredients: must name at least one ingredient (letters or digits)'])
      const words = wordsOf(terms)
      const matches = matcherFor(terms)
      const limit = input.limit ?? INGREDIENT_SEARCH_LIMITS.defaultLimit

      // Complete matches rank first: with `limit` of them nothing else can rank (and when the read was whole and the
      // terms have at most MAX_PAIR_WORDS words, these are all of them: the answer is exact).
      // The listing's state is read beside them (one round trip): most searches go on to partial matches.
      const [covering, { listedCount: listed, version }] = await Promise.all([
        repo.covering(db, words, MAX_PAIR_WORDS, bounds.covering),
        fastify.recipesRepository.listing(db)
      ])
      let best = rankCandidates(covering, matches, limit)
      if (best.length < limit || best[limit - 1].score < 1) {
        const { liked, lookups } = await planFor(terms, listed, version, bounds)
        let candidates = [...covering, ...liked]
        if (lookups != null) {
          const [one, two] = await Promise.all([
            lookups.words.length > 0 ? repo.containing(db, lookups.words, bounds.cap) : [],
            repo.containingBoth(db, lookups.pairs, Math.ceil(bounds.budget / Math.max(1, lookups.pairs.length)))
          ])
          candidates = [...candidates, ...one, ...two]
        }
        best = rankCandidates(candidates, matches, limit)
      }

      // The lists and the score come from the row read here: a recipe deleted or hidden since is left out, one edited
      // since is shown as it is now (in the place its earlier ingredients earned).
      return (await repo.recipes(db, best.map(candidate => candidate.id), viewerId)).map(({ recipe, names }) => {
        const { matched, missing } = matchedIngredients(recipe.ingredients, names, matches)
        const total = matched.length + missing.length
        return { recipe, matchedIngredients: matched, missingIngredients: missing, matchScore: total === 0 ? 0 : matched.length / total }
      })
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    ingredientSearchService: ReturnType<typeof createIngredientSearchService>
  }
}

export default fp(async fastify => {
  fastify.decorate('ingredientSearchService', createIngredientSearchService(fastify))
}, { name: 'ingredient-search-service', dependencies: ['ingredient-search-repository', 'recipes-repository', 'db'] })
