// Ingredient name -> food. First the synonym list (synonyms.ts) on the name's last words ("boneless skinless chicken
// breasts" -> "chicken breast"), then on its first words for head-first languages, then a word index over the SR28
// descriptions, built once on first use: a name's words select the foods whose description holds all of them (a
// posting-list intersection, never a scan of every food), and a score prefers plain, raw, short descriptions with the
// words early on. Results are memoised per name (bounded).
import { allFoods, foodById, type Food } from './foods.js'
import { HEAD_FIRST, SYNONYMS } from './synonyms.js'
import { singular } from '../ingredient-vocabulary.js'
import { withoutAsides, words } from './text.js'

export interface FoodMatch {
  food: Food
  /** `synonym`: from the synonym list; `search`: the best description holding the name's words. */
  via: 'synonym' | 'search'
  /** The synonym that matched, as written in synonyms.ts. */
  phrase?: string
}

/** Compared with a name's words, which are singular. */
const wordSet = (list: string[]) => new Set(list.map(singular))

/** Words that never identify a food: articles, preparation, sizes, temperatures, containers (several languages). */
const FILLER = wordSet([
  // articles and links (English, German, Dutch, Nordic, Romance)
  'a', 'an', 'the', 'of', 'and', 'or', 'for', 'to', 'with', 'in', 'on', 'at', 'into', 'about', 'some', 'plus', 'more',
  'your', 'x', 'approx', 'approximately', 'each', 'other', 'any', 'such', 'as', 'like', 'de', 'd', 'di', 'du', 'des',
  'la', 'le', 'l', 'les', 'el', 'lo', 'los', 'las', 'il', 'gli', 'von', 'vom', 'der', 'die', 'das', 'den', 'et', 'e',
  'y', 'og', 'och', 'al', 'au', 'aux', 'da', 'do', 'dos', 'del', 'della', 'dello', 'delle', 'em', 'zum', 'zur', 'und',
  'oder', 'im', 'ca', 'etwa', 'ungefahr', 'sorte', 'alternativ',
  // preparation, sizes, temperatures, containers
  'finely', 'thinly', 'roughly', 'coarsely', 'chopped', 'diced', 'sliced', 'grated', 'shredded', 'crumbled', 'melted',
  'softened', 'cubed', 'peeled', 'seeded', 'deseeded', 'pitted', 'halved', 'quartered', 'trimmed', 'rinsed', 'drained',
  'divided', 'packed', 'lightly', 'loosely', 'firmly', 'heaped', 'heaping', 'level', 'leveled', 'levelled', 'spooned',
  'sifted', 'beaten', 'whisked', 'room', 'temperature', 'warm', 'cold', 'chilled', 'cooled', 'lukewarm', 'boiling',
  'optional', 'taste', 'garnish', 'garnishing', 'serving', 'needed', 'desired', 'large', 'medium', 'small', 'big',
  'extra', 'good', 'quality', 'organic', 'homemade', 'store', 'bought', 'storebought', 'pure', 'real', 'ripe', 'cut',
  'inch', 'cm', 'piece', 'bite', 'sized', 'lengthwise', 'crosswise', 'stem', 'removed', 'very', 'well', 'thick',
  'thin', 'type', 'can', 'jar', 'package', 'packet', 'bag', 'box', 'tin', 'container', 'carton', 'bottle', 'handful',
  'few', 'couple', 'generous', 'scant', 'rounded', 'uncooked', 'unpeeled', 'gehackt', 'gerieben', 'fino', 'fina',
  'fin', 'fint', 'grande', 'petit', 'petite', 'piccolo', 'bio', 'ruime', 'flinke', 'klein', 'groot', 'gross'
])

/** Words naming a part or a cut, dropped from the end of a name that does not match with them ("parsley leaves"). */
const TRAILING = wordSet(['leaf', 'sprig', 'stalk', 'stem', 'floret', 'chunk', 'wedge', 'half', 'slice', 'strip', 'cube',
  'round', 'ring', 'spear', 'kernel', 'crumb', 'zest', 'segment'])

/** Too vague to be a food on their own, when the rest of the name is unknown. */
const VAGUE = wordSet(['powder', 'paste', 'extract', 'mix', 'sauce', 'juice', 'leaf', 'seed', 'flake', 'oil', 'meat', 'liquid',
  'cheese', 'stock', 'red', 'green', 'white', 'black', 'yellow', 'sweet', 'hot', 'dry', 'dried', 'ground', 'whole',
  'raw', 'frozen', 'canned', 'light', 'dark', 'low', 'fat', 'sodium', 'free', 'reduced', 'salt', 'sugar', 'seasoning',
  'style', 'fruit', 'vegetable', 'soup', 'water', 'cream', 'filling', 'topping', 'food', 'plain', 'mixed'])

/** Description words that mark a processed form, which loses to a plain one unless the name asks for it. */
const PROCESSED = wordSet(['cooked', 'canned', 'frozen', 'dried', 'dehydrated', 'prepared', 'sweetened', 'imitation',
  'reduced', 'lowfat', 'nonfat', 'low', 'light', 'substitute', 'flavored', 'mix', 'condensed', 'instant', 'baked',
  'fried', 'roasted', 'boiled', 'breaded', 'toasted', 'smoked', 'cured', 'pickled', 'salted', 'unenriched', 'fortified',
  'powder', 'stewed', 'braised', 'broiled', 'frosted', 'glazed', 'candied', 'juice', 'syrup', 'concentrate', 'formula',
  'industrial', 'commercial', 'fast', 'restaurant', 'school', 'lunch', 'diet', 'free', 'dry'])

export function nameWords (text: string): string[] {
  return words(text).filter(w => !FILLER.has(w) && !/^\d+$/.test(w))
}

interface FoodWords {
  food: Food
  /** The first description part each word appears in. */
  segment: ReadonlyMap<string, number>
  /** The first two description parts when each is a single word ("Spices, paprika": spice, paprika). */
  heads: readonly string[]
  size: number
  raw: boolean
  processed: readonly string[]
}

interface Synonym { food: Food, phrase: string }

interface Index {
  suffix: ReadonlyMap<string, Synonym>
  prefix: ReadonlyMap<string, Synonym>
  /** Words in the longest synonym: no longer part of a name can match one. */
  longest: number
  postings: ReadonlyMap<string, readonly number[]>
  foods: readonly FoodWords[]
}

let index: Index | null = null

function phraseMap (pairs: ReadonlyArray<[string, string]>): Map<string, Synonym> {
  const out = new Map<string, Synonym>()
  for (const [phrase, id] of pairs) {
    const key = nameWords(phrase).join(' ')
    const food = foodById(id)
    if (food == null) throw new Error(`synonym "${phrase}" names food ${id}, which foods.json does not hold`)
    if (key === '') throw new Error(`synonym "${phrase}" has no words left once folded`)
    const taken = out.get(key)
    if (taken != null && taken.food !== food) throw new Error(`synonym "${phrase}" folds to "${key}", already ${taken.food.id}`)
    if (taken == null) out.set(key, { food, phrase })
  }
  return out
}

function buildIndex (): Index {
  const postings = new Map<string, number[]>()
  const foods = allFoods().map((food, i): FoodWords => {
    const segment = new Map<string, number>()
    const parts = food.description.split(',').map(part => words(part))
    parts.forEach((part, n) => {
      for (const word of part) if (!segment.has(word)) segment.set(word, n)
    })
    const heads = parts.slice(0, 2).filter(part => part.length === 1).map(([word]) => word)
    for (const word of segment.keys()) {
      let list = postings.get(word)
      if (list == null) postings.set(word, list = [])
      list.push(i)
    }
    return { food, segment, heads, size: segment.size, raw: segment.has('raw'), processed: [...segment.keys()].filter(w => PROCESSED.has(w)) }
  })
  const suffix = phraseMap(SYNONYMS)
  const prefix = phraseMap(HEAD_FIRST)
  const longest = Math.max(...[...suffix.keys(), ...prefix.keys()].map(key => key.split(' ').length))
  return { suffix, prefix, longest, postings, foods }
}

function getIndex (): Index {
  index ??= buildIndex()
  return index
}

/** Builds the index now (it is otherwise built by the first match). */
export function warmUp (): void {
  getIndex()
}

function score (entry: FoodWords, query: readonly string[]): number {
  let s = 0
  for (const word of query) s += [3, 2][entry.segment.get(word) ?? 2] ?? 1
  s -= 0.3 * (entry.size - query.length)
  if (entry.raw && !query.includes('cooked')) s += 1.5
  for (const word of entry.processed) if (!query.includes(word)) s -= 1.5
  return s
}

function search (idx: Index, query: readonly string[]): Food | null {
  const known = query.filter(w => idx.postings.has(w))
  for (let start = 0; start < known.length; start++) {
    const terms = known.slice(start)
    if (terms.length === 1 && VAGUE.has(terms[0])) return null
    const lists = terms.map(w => idx.postings.get(w) ?? []).sort((a, b) => a.length - b.length)
    let candidates = lists[0]
    for (const list of lists.slice(1)) {
      const has = new Set(list)
      candidates = candidates.filter(i => has.has(i))
      if (candidates.length === 0) break
    }
    let best: FoodWords | null = null
    let bestScore = -Infinity
    for (const i of candidates) {
      const entry = idx.foods[i]
      // A single word must name the food itself (all of the description's first or second part), not a detail of it.
      if (terms.length === 1 && !entry.heads.includes(terms[0])) continue
      const s = score(entry, terms)
      if (s > bestScore || (s === bestScore && best != null && entry.food.description.length < best.food.description.length)) {
        best = entry
        bestScore = s
      }
    }
    if (best != null) return best.food
  }
  return null
}

function synonymOf (idx: Index, query: readonly string[]): FoodMatch | null {
  // Only word runs no longer than the longest synonym are looked up, so a long name costs linear work.
  if (query.length <= idx.longest) {
    const exact = idx.suffix.get(query.join(' ')) ?? idx.prefix.get(query.join(' '))
    if (exact != null) return { ...exact, via: 'synonym' }
  }
  for (let start = Math.max(1, query.length - idx.longest); start < query.length; start++) {
    const found = idx.suffix.get(query.slice(start).join(' '))
    if (found != null) return { ...found, via: 'synonym' }
  }
  for (let end = Math.min(query.length - 1, idx.longest); end > 0; end--) {
    const found = idx.prefix.get(query.slice(0, end).join(' '))
    if (found != null) return { ...found, via: 'synonym' }
  }
  return null
}

/** Words of a name the matcher considers: real ingredient names are short; a longer text is cut, not scanned. */
const MAX_NAME_WORDS = 12
/** Trailing detail words ("chopped", "fresh"...) dropped one by one at most this many times. */
const MAX_TRAILING = 3

function matchWords (idx: Index, all: readonly string[]): FoodMatch | null {
  const query = all.slice(0, MAX_NAME_WORDS)
  let words = query
  for (let dropped = 0; dropped < MAX_TRAILING && words.length > 1 && TRAILING.has(words[words.length - 1]); dropped++) {
    const found = synonymOf(idx, words)
    if (found != null) return found
    words = words.slice(0, -1)
  }
  const found = synonymOf(idx, words)
  if (found != null) return found
  const food = search(idx, query)
  return food == null ? null : { food, via: 'search' }
}

/** The name's first clause: what precedes a comma, an asterisk, a sentence end or a dash, without asides. */
function clause (name: string): string {
  return withoutAsides(name).split(/[,;*:]|\.\s|\s[-–]\s/)[0]
}

/** The clause without a trailing "for dusting", "to taste", "with fat cap on", "such as"... */
const essential = (text: string) =>
  text.replace(/\s(for|to taste|such as|if|as needed|plus|at room|optional|i used|with|zum|om|pour|per|para)\b.*$/i, '')

const MEMO_LIMIT = 20_000
const memo = new Map<string, FoodMatch | null>()

/** The food an ingredient name means, or null. Cheap after the first call (index built once, results memoised). */
export function matchFood (name: string): FoodMatch | null {
  const cached = memo.get(name)
  if (cached !== undefined) return cached
  const idx = getIndex()
  const whole = clause(name)
  const phrase = essential(whole)
  // "buttermilk or milk", "button or cremini mushrooms": the first alternative a synonym knows; "half and half",
  // "salt and pepper": the whole phrase, then each part.
  const choices = phrase.split(/\s(?:or|oder|ou|o|eller)\s|\//i)
  let found: FoodMatch | null = null
  if (choices.length > 1) {
    for (const choice of choices) {
      found = synonymOf(idx, nameWords(choice).slice(0, MAX_NAME_WORDS))
      if (found != null) break
    }
  }
  const candidates = [phrase, ...phrase.split(/\s(?:or|and|oder|und|ou|o|en|eller|et|e|y|og)\s|[/&+]/i), whole]
  for (const candidate of candidates) {
    if (found != null) break
    found = matchWords(idx, nameWords(candidate))
  }
  if (memo.size >= MEMO_LIMIT) memo.clear()
  memo.set(name, found)
  return found
}
