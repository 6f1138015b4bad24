// Search by ingredients, the parts that need no database: distinct terms, which recipe ingredients a term matches, a
// recipe's score and the ranking, and which words are rare enough to be looked up through the word index. The keys
// compared here come from PostgreSQL (`recipe_ingredient_names`, migrations 0023 and 0034, its singular rule generated
// from lib/ingredient-vocabulary.ts), the one definition of the normalisation: nothing in this file folds, lower-cases
// or singularises text. A key is words joined by single spaces.

/** A recipe the search considers: its id, the key of each ingredient in order ('' for none), likes and age. */
export interface IngredientCandidate {
  id: string
  names: string[]
  likeCount: number
  /** created_at in milliseconds since the epoch. */
  createdAt: number
}

export interface ScoredCandidate extends IngredientCandidate {
  /** Distinct ingredient keys of the recipe the terms match. */
  matched: number
  /** Distinct ingredient keys of the recipe. */
  total: number
  /** matched / total, in 0..1. */
  score: number
}

/** The distinct non-empty keys, in the order first seen (a term given twice counts once). */
export function distinctKeys (keys: readonly string[]): string[] {
  return [...new Set(keys.filter(key => key !== ''))]
}

/** The words of keys, each once. */
export function wordsOf (keys: readonly string[]): string[] {
  return [...new Set(keys.flatMap(key => key.split(' ')))]
}

/** How many keys' answers a term matcher remembers. */
const KEYS_REMEMBERED = 20_000

/**
 * Whether a recipe ingredient's key is matched by one of `terms`: a term matches when its words appear in the key,
 * one after the other, as whole words. "chicken" matches "boneless skinless chicken thigh" and "pepper" matches
 * "black pepper" and "red bell pepper", but "egg" does not match "eggplant" nor "red pepper" "red bell pepper".
 */
export function termMatcher (terms: readonly string[]): (key: string) => boolean {
  // Terms by their first word, so a key is checked word by word with one map lookup each; the answer for a key is
  // kept (a search meets the same keys in many recipes: salt, black pepper...).
  const byFirstWord = new Map<string, string[][]>()
  for (const term of terms) {
    const words = term.split(' ')
    const list = byFirstWord.get(words[0])
    if (list == null) byFirstWord.set(words[0], [words])
    else list.push(words)
  }
  const known = new Map<string, boolean>()
  const test = (key: string): boolean => {
    const words = key.split(' ')
    for (let i = 0; i < words.length; i++) {
      for (const term of byFirstWord.get(words[i]) ?? []) {
        if (i + term.length <= words.length && term.every((word, j) => words[i + j] === word)) return true
      }
    }
    return false
  }
  return key => {
    if (key === '') return false
    let answer = known.get(key)
    if (answer === undefined) {
      // A matcher may serve many searches: what it remembers stays bounded.
      if (known.size >= KEYS_REMEMBERED) known.clear()
      known.set(key, answer = test(key))
    }
    return answer
  }
}

/**
 * Best first: the higher score, then more ingredients matched, then more likes, then newer (then id, so the order
 * is total).
 */
function compareScored (a: ScoredCandidate, b: ScoredCandidate): number {
  return b.score - a.score || b.matched - a.matched || b.likeCount - a.likeCount || b.createdAt - a.createdAt ||
    (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
}

/**
 * The `limit` best candidates that match at least one ingredient (`matches`: a termMatcher of the terms) (candidates may repeat: each id counts once). A
 * search scores a few thousand candidates for a dozen places: only those that enter the best so far become objects,
 * kept in order (no sort of them all).
 */
export function rankCandidates (candidates: Iterable<IngredientCandidate>, matches: (key: string) => boolean, limit: number): ScoredCandidate[] {
  const seen = new Set<string>()
  const keys = new Set<string>()
  const best: ScoredCandidate[] = []
  // The candidate being scored, compared with the last of `best` before anything is made for it.
  const probe: ScoredCandidate = { id: '', names: [], likeCount: 0, createdAt: 0, matched: 0, total: 0, score: 0 }
  for (const candidate of candidates) {
    if (seen.has(candidate.id)) continue
    seen.add(candidate.id)
    keys.clear()
    let matched = 0
    for (const key of candidate.names) {
      if (key === '' || keys.has(key)) continue
      keys.add(key)
      if (matches(key)) matched++
    }
    if (matched === 0) continue
    probe.id = candidate.id
    probe.likeCount = candidate.likeCount
    probe.createdAt = candidate.createdAt
    probe.matched = matched
    probe.score = matched / keys.size
    if (best.length >= limit && (limit <= 0 || compareScored(probe, best[best.length - 1]) >= 0)) continue
    // Binary search for its place among the best so far.
    let low = 0
    let high = best.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (compareScored(best[middle], probe) <= 0) low = middle + 1
      else high = middle
    }
    best.splice(low, 0, { ...candidate, matched, total: keys.size, score: probe.score })
    if (best.length > limit) best.pop()
  }
  return best
}

/** What to read through the word index: recipes containing one of `words`, or both words of one of `pairs`. */
export interface IndexLookups { words: string[], pairs: Array<[string, string]> }

/** At most this many word pairs are looked up (each is one small index lookup). */
export const MAX_LOOKUP_PAIRS = 20
/** A pair is looked up only when its rarer word is expected in at most this many budgets of recipes. */
export const PAIR_SCAN_BUDGETS = 4

/**
 * What to read through the word index, given a sample: the recipes containing any term word among the `window` most
 * liked of `listed` listed recipes. A word found in h of them is in about h * listed / window recipes, and so is a pair
 * of words found together in h of them. Each term needs only its rarest word (a recipe matching "black pepper"
 * contains "black"). Those words are taken rarest first while the recipes they are expected to bring stay within
 * `budget` (a word never seen in the sample always is); then, within what is left of the budget, pairs of the other
 * terms' words, least often together first (at most MAX_LOOKUP_PAIRS, and only pairs whose rarer word is expected in
 * at most PAIR_SCAN_BUDGETS budgets of recipes: the index reads that word's entries): recipes using two of those. The
 * rest are common words (salt, water...): a recipe sharing only those with the terms is found only in the sample.
 */
export function indexLookups (terms: readonly string[], sample: readonly IngredientCandidate[], listed: number, window: number, budget: number): IndexLookups {
  const hits = new Map<string, number>(wordsOf(terms).map(word => [word, 0]))
  const rarestOf = (term: string) => term.split(' ').reduce((a, b) => hits.get(b)! < hits.get(a)! ? b : a)
  // Each recipe counts once per word: `counted` holds the index of the last recipe that counted it.
  const counted = new Map<string, number>()
  const termWordsOf = new Map<string, string[]>()
  const present: string[][] = sample.map((candidate, n) => {
    const found: string[] = []
    for (const key of candidate.names) {
      let words = termWordsOf.get(key)
      if (words === undefined) termWordsOf.set(key, words = key === '' ? [] : key.split(' ').filter(word => hits.has(word)))
      for (const word of words) {
        if (counted.get(word) === n) continue
        counted.set(word, n)
        hits.set(word, hits.get(word)! + 1)
        found.push(word)
      }
    }
    return found
  })
  const scale = listed / window
  const byHits = (a: string, b: string) => hits.get(a)! - hits.get(b)! || (a < b ? -1 : 1)
  const rarest = [...new Set(terms.map(rarestOf))].sort(byHits)
  const words: string[] = []
  let expected = 0
  for (const word of rarest) {
    const more = hits.get(word)! * scale
    if (more > 0 && expected + more > budget) break
    expected += more
    words.push(word)
  }

  const others = new Set(rarest.slice(words.length))
  const together = new Map<string, number>()
  for (const found of present) {
    const inside = found.filter(word => others.has(word)).sort()
    for (let i = 0; i < inside.length; i++) {
      for (let j = i + 1; j < inside.length; j++) {
        const pair = `${inside[i]} ${inside[j]}`
        together.set(pair, (together.get(pair) ?? 0) + 1)
      }
    }
  }
  const candidates: Array<[string, string, number]> = []
  const sorted = [...others].sort()
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length; j++) {
      // The index intersects the two words' entries at the cost of the rarer one: none of very common words.
      if (Math.min(hits.get(sorted[i])!, hits.get(sorted[j])!) * scale > PAIR_SCAN_BUDGETS * budget) continue
      candidates.push([sorted[i], sorted[j], together.get(`${sorted[i]} ${sorted[j]}`) ?? 0])
    }
  }
  const pairs: Array<[string, string]> = []
  for (const [a, b, n] of candidates.sort((x, y) => x[2] - y[2] || hits.get(x[0])! + hits.get(x[1])! - hits.get(y[0])! - hits.get(y[1])!)) {
    if (pairs.length === MAX_LOOKUP_PAIRS) break
    // Never seen together in the sample is not never together: each pair counts for at least one sample recipe.
    const more = (n + 1) * scale
    if (expected + more > budget) break
    expected += more
    pairs.push([a, b])
  }
  return { words, pairs }
}

/** What a recipe's ingredient is called where the search lists it: its name, or its line when the name is empty. */
function ingredientLabel (item: unknown): string {
  if (typeof item === 'string') return item.trim()
  if (item == null || typeof item !== 'object') return ''
  const name = 'name' in item && typeof item.name === 'string' ? item.name.trim() : ''
  return name !== '' ? name : ('text' in item && typeof item.text === 'string' ? item.text.trim() : '')
}

/**
 * The recipe's ingredients the terms match and those they do not, as the recipe names them: one entry per distinct
 * key (the first ingredient with that key), in the recipe's order. `names[i]` is the key of `ingredients[i]`.
 */
export function matchedIngredients (ingredients: readonly unknown[], names: readonly string[], matches: (key: string) => boolean): { matched: string[], missing: string[] } {
  const seen = new Set<string>()
  const matched: string[] = []
  const missing: string[] = []
  ingredients.forEach((item, i) => {
    const key = names[i] ?? ''
    if (key === '' || seen.has(key)) return
    seen.add(key)
    ;(matches(key) ? matched : missing).push(ingredientLabel(item))
  })
  return { matched, missing }
}
