// The `total` of the public recipe listing, cheap at any size. Unfiltered: the trigger-kept count (exact). Filtered
// (search, type, cuisine, tag...): counted up to LISTING_COUNT_CAP and cached under the listing version, which moves
// with every write a filter reads, so a cached total is never older than the data (db/migrations/0011).
import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { detached } from '../../../lib/request-scope.js'
import type { RecipeFilters } from '../../../schemas/recipes.js'
import { tryCache } from '../../external/cache.js'
import { searchTerm } from '../repositories/recipe-queries.js'

/** Filtered totals beyond this are reported as this, with `totalExact: false`. */
export const LISTING_COUNT_CAP = 10_000
/** Only bounds memory: a new listing version makes old entries unreachable at once. */
const COUNT_TTL_SECONDS = 600

export interface ListingTotal { total: number, totalExact: boolean }

/** The filters as they select rows: sort and letter case do not change a count. */
function selection (filters: RecipeFilters) {
  const { type, difficulty, cuisine, tag, author, maxTime } = filters
  const search = searchTerm(filters).text
  return { search, type, difficulty, cuisine: cuisine?.toLowerCase(), tag, author: author?.normalize('NFKC').toLowerCase(), maxTime }
}

/** Whether the filters select the whole public listing (its total is the trigger-kept count). */
export const isUnfiltered = (filters: RecipeFilters): boolean =>
  Object.values(selection(filters)).every(value => value == null || value === '')

export function createListingTotals (fastify: FastifyInstance) {
  const { recipesRepository: recipes } = fastify
  // Concurrent misses for one key share one count.
  const counting = new Map<string, Promise<number>>()

  async function counted (key: string, filters: RecipeFilters): Promise<number> {
    const cached = await tryCache(fastify.log, async () => await fastify.cache.get<number>(key))
    if (cached !== undefined) return cached
    let pending = counting.get(key)
    if (pending == null) {
      // Cached before the entry goes, so a later miss finds the count instead of counting again.
      pending = detached(async () => {
        const n = await recipes.count(fastify.db, filters, LISTING_COUNT_CAP)
        await tryCache(fastify.log, async () => { await fastify.cache.set(key, n, COUNT_TTL_SECONDS) })
        return n
      }).finally(() => counting.delete(key))
      counting.set(key, pending)
    }
    return await pending
  }

  /** The total for these filters; `known` is the listing state when the caller already read it. */
  return async function listingTotal (filters: RecipeFilters, known?: { listedCount: number, version: string } | null): Promise<ListingTotal> {
    const { listedCount, version } = known ?? await recipes.listing(fastify.db)
    if (isUnfiltered(filters)) return { total: listedCount, totalExact: true }
    const digest = createHash('sha256').update(JSON.stringify(selection(filters))).digest('base64url')
    const n = await counted(`listing-total:${version}:${digest}`, filters)
    return n > LISTING_COUNT_CAP ? { total: LISTING_COUNT_CAP, totalExact: false } : { total: n, totalExact: true }
  }
}
