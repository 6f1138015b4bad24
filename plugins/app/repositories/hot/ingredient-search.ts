// Search by ingredients (POST /api/ai-recipes/search-by-ingredients): the terms' keys (normalised by PostgreSQL, the
// function that fills recipes.ingredient_names), the ways candidates are read (the recipes a list covers completely,
// through recipes_ingredient_pairs_idx; the most liked listed recipes; the listed recipes containing a given word, or
// two, through recipes_ingredient_words_idx) and the page's recipes. The ranking is lib/ingredient-names.ts.
import type { IngredientCandidate } from '../../../../lib/ingredient-names.js'
import type { RecipeView } from '../../../../schemas/recipes.js'
import { json, type Db } from '../../../external/db.js'
import { mapRecipe, recipeColumns, type RecipeViewRow } from '../recipe-rows.js'
import { inOrder } from '../recipe-queries.js'
import { listedRecipe } from '../visibility.js'

/**
 * The candidate columns. They are read for up to a few thousand rows, so in the cheapest forms to send and parse: the
 * keys as one text (split in JS), created_at as epoch milliseconds.
 */
const candidateColumns = (db: Db) => db`r.id, array_to_string(r.ingredient_names, E'\\n') as names, r.like_count,
  (extract(epoch from r.created_at) * 1000)::float8 as created_ms`

interface CandidateRow { id: string, names: string, likeCount: number, createdMs: number }

const candidates = (rows: CandidateRow[]): IngredientCandidate[] =>
  rows.map(row => ({ id: row.id, names: row.names.split('\n'), likeCount: row.likeCount, createdAt: row.createdMs }))

/** The key of each term, in order ('' for a term without letters or digits). bench: ai-search. */
export async function keys (db: Db, terms: string[]): Promise<string[]> {
  const [row] = await db<Array<{ keys: string[] }>>`select recipe_ingredient_names(to_jsonb(${terms}::text[])) as keys`
  return row.keys
}

/**
 * The `window` most liked listed recipes of shown authors (recipe_popularity_listed_idx, the order of GET
 * /api/recipes?sort=popular). A bounded walk, the same for every search (the service keeps it briefly).
 * bench: ai-search.
 */
export async function mostLiked (db: Db, window: number): Promise<IngredientCandidate[]> {
  const columns = db`r.id, r.author_id, r.ingredient_names, r.like_count, r.created_at`
  return candidates(await db<CandidateRow[]>`select ${candidateColumns(db)}
      from (${inOrder(db, columns, listedRecipe(db), 'popular')} limit ${window}) r`)
}

/**
 * Up to `limit` listed recipes whose two least common ingredients both contain one of `words` (a bitmap scan of
 * recipes_ingredient_pairs_idx, migration 0023): among them, every recipe all of whose ingredients the words cover.
 * Only the `pairWords` least common words are paired (ingredient_staple_rank: any other word first).
 * bench: ai-search.
 */
export async function covering (db: Db, words: string[], pairWords: number, limit: number): Promise<IngredientCandidate[]> {
  return candidates(await db<CandidateRow[]>`select ${candidateColumns(db)}
      from recipes r where ingredient_name_pairs(r.ingredient_names) && ingredient_query_pairs(array(
          select w from unnest(${words}::text[]) w order by nullif(ingredient_staple_rank(w), 0) desc nulls first, w limit ${pairWords}))
        and ${listedRecipe(db)} limit ${limit}`)
}

/** Up to `limit` listed recipes containing any of `words` (a bitmap scan of recipes_ingredient_words_idx). bench: ai-search. */
export async function containing (db: Db, words: string[], limit: number): Promise<IngredientCandidate[]> {
  return candidates(await db<CandidateRow[]>`select ${candidateColumns(db)}
      from recipes r where r.ingredient_words && ${words}::text[] and ${listedRecipe(db)} limit ${limit}`)
}

/**
 * For each pair of words, up to `limit` listed recipes containing both (one small lookup each in
 * recipes_ingredient_words_idx, which intersects the two words' entries). A recipe may come more than once.
 * bench: ai-search.
 */
export async function containingBoth (db: Db, pairs: Array<[string, string]>, limit: number): Promise<IngredientCandidate[]> {
  if (pairs.length === 0) return []
  return candidates(await db<CandidateRow[]>`select c.* from unnest(${pairs.map(p => p[0])}::text[], ${pairs.map(p => p[1])}::text[]) p(a, b)
      cross join lateral (select ${candidateColumns(db)} from recipes r
        where r.ingredient_words @> array[p.a, p.b] and ${listedRecipe(db)} limit ${limit}) c`)
}

/**
 * The recipes of `ids` in that order, as every list shows them (the shared select list and mapper; one prepared
 * statement), each with its ingredient keys as read in the same row; one no longer searchable is left out. The ids
 * travel as JSON so the statement keeps one plan (see byIds in recipe-queries.ts).
 * bench: ai-search.
 */
export async function recipes (db: Db, ids: string[], viewerId: string): Promise<Array<{ recipe: RecipeView, names: string[] }>> {
  if (ids.length === 0) return []
  const found = await db<Array<RecipeViewRow & { ingredientNames: string[] }>>`select ${recipeColumns(db, viewerId)}, r.ingredient_names
      from jsonb_array_elements_text(${json(db, ids)}) with ordinality p(id, n) join recipes r on r.id = p.id
      join users a on a.id = r.author_id
      where ${listedRecipe(db)}
      order by p.n`
  return found.map(row => ({ recipe: mapRecipe(row), names: row.ingredientNames }))
}
