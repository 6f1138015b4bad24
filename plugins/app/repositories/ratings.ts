// Ratings (1..5, one per user and recipe) and the recipe's rating_sum/rating_count. Callers lock the recipe row
// first (recipesRepository.lock), so the ratings of one recipe apply one after the other and the sums stay exact.
import fp from 'fastify-plugin'
import type { ratings, recipes } from '../../../db/schema/index.js'
import type { Db } from '../../external/db.js'
import { recipeVisibleTo } from './visibility.js'

declare module 'fastify' {
  interface FastifyInstance {
    ratingsRepository: typeof ratingsRepository
  }
}

type Totals = Pick<typeof recipes.$inferSelect, 'ratingSum' | 'ratingCount'>
type RatingRow = Pick<typeof ratings.$inferSelect, 'rating'>

/** The rating an upsert replaced (null: the user's first). */
interface ReplacedRow { previous: RatingRow['rating'] | null }

export interface RatingSummaryRow extends Totals {
  userRating: RatingRow['rating'] | null
  /** Count per star, "1" to "5" (stars nobody gave are 0). */
  distribution: Record<string, number>
}

export const ratingsRepository = {
  /** Sets the user's rating; returns the rating it replaced, or null when it is their first. */
  async upsert (db: Db, userId: string, recipeId: string, rating: number): Promise<number | null> {
    const [row] = await db<ReplacedRow[]>`
      with previous as (select rating from ratings where user_id = ${userId} and recipe_id = ${recipeId})
      insert into ratings (user_id, recipe_id, rating) values (${userId}, ${recipeId}, ${rating})
      on conflict (user_id, recipe_id) do update set rating = excluded.rating, updated_at = now()
      returning (select rating from previous) as previous`
    return row.previous
  },

  /** Removes the user's rating; returns what it was, or null when there was none. */
  async remove (db: Db, userId: string, recipeId: string): Promise<number | null> {
    const [row] = await db<RatingRow[]>`delete from ratings where user_id = ${userId} and recipe_id = ${recipeId} returning rating`
    return row?.rating ?? null
  },

  /** Moves the recipe's totals with the rows just written; the totals afterwards. */
  async adjustTotals (db: Db, recipeId: string, sumDelta: number, countDelta: number): Promise<Totals> {
    const [row] = await db<Totals[]>`update recipes set rating_sum = rating_sum + ${sumDelta}, rating_count = rating_count + ${countDelta}
      where id = ${recipeId} returning rating_sum, rating_count`
    return row ?? { ratingSum: 0, ratingCount: 0 }
  },

  /** Totals, distribution and the viewer's rating in one snapshot; null when the viewer may not see the recipe. */
  async summary (db: Db, recipeId: string, viewerId: string | null): Promise<RatingSummaryRow | null> {
    const [row] = await db<RatingSummaryRow[]>`
      select r.rating_sum, r.rating_count,
        ${viewerId == null ? db`null::int` : db`(select rt.rating from ratings rt where rt.user_id = ${viewerId} and rt.recipe_id = r.id)`} as user_rating,
        coalesce((select json_object_agg(d.rating, d.n) from (
          select rating, count(*)::int as n from ratings where recipe_id = r.id group by rating) d), '{}') as distribution
      from recipes r where r.id = ${recipeId} and ${recipeVisibleTo(db, viewerId)}`
    if (row == null) return null
    const distribution: Record<string, number> = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 }
    for (const [star, n] of Object.entries(row.distribution)) distribution[star] = n
    return { ...row, distribution }
  }
}

export default fp(async fastify => {
  fastify.decorate('ratingsRepository', ratingsRepository)
}, { name: 'ratings-repository' })
