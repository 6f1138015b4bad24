// Search by ingredients, its ranking without the database: rankCandidates keeps only the best `limit` as it goes,
// and must answer what scoring every candidate and sorting them all answers.
import t from 'tap'
import { rankCandidates, termMatcher, type IngredientCandidate } from '../../lib/ingredient-names.js'

/** The ranking by its definition: every distinct candidate that matches, scored, sorted, cut. */
function reference (candidates: IngredientCandidate[], terms: string[], limit: number) {
  const matches = termMatcher(terms)
  const seen = new Set<string>()
  const scored = []
  for (const candidate of candidates) {
    if (seen.has(candidate.id)) continue
    seen.add(candidate.id)
    const keys = new Set(candidate.names.filter(key => key !== ''))
    const matched = [...keys].filter(matches).length
    if (matched > 0) scored.push({ ...candidate, matched, total: keys.size, score: matched / keys.size })
  }
  return scored.sort((a, b) => b.score - a.score || b.matched - a.matched || b.likeCount - a.likeCount ||
    b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1)).slice(0, limit)
}

/** A small deterministic generator, so a failure can be replayed. */
function random (seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed / 2147483648
  }
}

const INGREDIENTS = ['chicken', 'chicken thigh', 'garlic', 'onion', 'red onion', 'lemon', 'rice', 'salt', 'black pepper', 'water', 'egg', 'eggplant', '']

t.test('the same best matches, in the same order, as sorting every candidate', async t => {
  const next = random(7)
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]
  for (let round = 0; round < 40; round++) {
    const candidates: IngredientCandidate[] = Array.from({ length: 300 }, () => ({
      // Few ids, so many repeat: the first of each counts.
      id: `r${Math.floor(next() * 200)}`,
      names: Array.from({ length: 1 + Math.floor(next() * 6) }, () => pick(INGREDIENTS)),
      // Few like counts and dates: ties go down to the id.
      likeCount: Math.floor(next() * 3),
      createdAt: Math.floor(next() * 3)
    }))
    const terms = [...new Set(Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(['chicken', 'garlic', 'onion', 'rice', 'black pepper', 'egg'])))]
    for (const limit of [1, 5, 12, 500]) {
      t.same(rankCandidates(candidates, termMatcher(terms), limit), reference(candidates, terms, limit), `round ${round}, limit ${limit}`)
    }
  }
})

t.test('candidates that match nothing are left out, and a recipe counts each ingredient once', async t => {
  const ranked = rankCandidates([
    { id: 'a', names: ['eggplant', 'salt'], likeCount: 9, createdAt: 1 },
    { id: 'b', names: ['egg', 'egg', 'flour', ''], likeCount: 0, createdAt: 1 }
  ], termMatcher(['egg']), 12)
  t.same(ranked.map(c => [c.id, c.matched, c.total, c.score]), [['b', 1, 2, 0.5]])
})

t.test('a matcher that served many searches still answers right (what it remembers is bounded)', async t => {
  const matches = termMatcher(['red onion', 'rice'])
  let wrong = 0
  for (let i = 0; i < 50_000; i++) {
    if (matches(`red onion ${i}`) !== true || matches(`onion red ${i}`) !== false || matches(`wild rice ${i}`) !== true) wrong++
  }
  t.equal(wrong, 0)
  t.equal(matches('brown rice'), true)
  t.equal(matches('ricotta'), false)
})
