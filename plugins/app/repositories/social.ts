// Likes, follows, ratings and cooked marks. Each is idempotent (repeats change nothing) and keeps the recipe's
// counters exact under concurrency: a counter moves only with a row that was really inserted or deleted.
import { createId } from '@paralleldrive/cuid2'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { toIso } from '../../../lib/pg-values.js'
import { mapRecipe, recipeColumns } from './recipes.js'
import { recipeVisibleTo } from './visibility.js'

declare module 'fastify' {
  interface FastifyInstance {
    socialRepository: ReturnType<typeof createSocialRepository>
  }
}

export function createSocialRepository (fastify: FastifyInstance) {
  const { sql } = fastify

  /** A page of the recipes a user marked (bookmarked, cooked) that they can still see, most recent mark first. */
  async function markedRecipes (table: 'bookmarks' | 'cooked_recipes', userId: string, page: number, limit: number) {
    const where = sql`m.user_id = ${userId} and ${recipeVisibleTo(sql, userId)}`
    const [rows, [{ total }]] = await Promise.all([
      sql`select ${recipeColumns(sql, userId)}, m.created_at as marked_at
        from ${sql(table)} m join recipes r on r.id = m.recipe_id join users a on a.id = r.author_id
        where ${where} order by m.created_at desc, m.recipe_id limit ${limit} offset ${(page - 1) * limit}`,
      sql`select count(*)::int as total from ${sql(table)} m join recipes r on r.id = m.recipe_id where ${where}`
    ])
    return { entries: rows.map(row => ({ at: toIso(row.marked_at), recipe: mapRecipe(row) })), total: total as number }
  }

  return {
    /** Returns whether this call added the like, and the recipe's like count afterwards. */
    async like (userId: string, recipeId: string): Promise<{ added: boolean, likeCount: number }> {
      return await sql.begin(async tx => {
        const inserted = await tx`insert into likes (user_id, recipe_id) values (${userId}, ${recipeId}) on conflict do nothing returning 1`
        const [row] = inserted.length > 0
          ? await tx`update recipes set like_count = like_count + 1 where id = ${recipeId} returning like_count`
          : await tx`select like_count from recipes where id = ${recipeId}`
        return { added: inserted.length > 0, likeCount: row.like_count }
      })
    },

    async unlike (userId: string, recipeId: string): Promise<{ likeCount: number }> {
      return await sql.begin(async tx => {
        const deleted = await tx`delete from likes where user_id = ${userId} and recipe_id = ${recipeId} returning 1`
        const [row] = deleted.length > 0
          ? await tx`update recipes set like_count = like_count - 1 where id = ${recipeId} returning like_count`
          : await tx`select like_count from recipes where id = ${recipeId}`
        return { likeCount: row.like_count }
      })
    },

    async follow (followerId: string, followingId: string): Promise<{ added: boolean }> {
      const inserted = await sql`insert into follows (follower_id, following_id) values (${followerId}, ${followingId}) on conflict do nothing returning 1`
      return { added: inserted.length > 0 }
    },

    async unfollow (followerId: string, followingId: string): Promise<void> {
      await sql`delete from follows where follower_id = ${followerId} and following_id = ${followingId}`
    },

    async followerCount (userId: string): Promise<number> {
      const [{ n }] = await sql`select count(*)::int as n from follows f join users u on u.id = f.follower_id
        where f.following_id = ${userId} and u.active and u.banned_at is null`
      return n
    },

    /**
     * Sets the user's rating. The recipe row is locked first, so two ratings of one recipe (even by the same user at
     * the same moment) apply one after the other and the sum and count stay exact.
     */
    async rate (userId: string, recipeId: string, rating: number): Promise<{ added: boolean, ratingSum: number, ratingCount: number }> {
      return await sql.begin(async tx => {
        await tx`select 1 from recipes where id = ${recipeId} for update`
        const [previous] = await tx`select rating from ratings where user_id = ${userId} and recipe_id = ${recipeId}`
        await tx`insert into ratings (user_id, recipe_id, rating) values (${userId}, ${recipeId}, ${rating})
          on conflict (user_id, recipe_id) do update set rating = excluded.rating, updated_at = now()`
        const [row] = await tx`update recipes set
            rating_sum = rating_sum + ${rating} - ${previous?.rating ?? 0},
            rating_count = rating_count + ${previous == null ? 1 : 0}
          where id = ${recipeId} returning rating_sum, rating_count`
        return { added: previous == null, ratingSum: row.rating_sum, ratingCount: row.rating_count }
      })
    },

    async unrate (userId: string, recipeId: string): Promise<void> {
      await sql.begin(async tx => {
        await tx`select 1 from recipes where id = ${recipeId} for update`
        const [removed] = await tx`delete from ratings where user_id = ${userId} and recipe_id = ${recipeId} returning rating`
        if (removed != null) {
          await tx`update recipes set rating_sum = rating_sum - ${removed.rating}, rating_count = rating_count - 1 where id = ${recipeId}`
        }
      })
    },

    async ratingSummary (recipeId: string, userId: string | null) {
      const [summary] = await sql`select rating_sum, rating_count from recipes where id = ${recipeId}`
      const rows = await sql`select rating, count(*)::int as n from ratings where recipe_id = ${recipeId} group by rating`
      const distribution: Record<string, number> = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 }
      for (const r of rows) distribution[r.rating] = r.n
      const [mine] = userId == null ? [] : await sql`select rating from ratings where user_id = ${userId} and recipe_id = ${recipeId}`
      return {
        averageRating: summary.rating_count > 0 ? Math.round((summary.rating_sum / summary.rating_count) * 100) / 100 : 0,
        ratingCount: summary.rating_count as number,
        userRating: (mine?.rating as number | undefined) ?? null,
        distribution
      }
    },

    /** Bookmarks also file the recipe in the user's Saved Recipes collection (and removing takes it out). */
    async bookmark (userId: string, recipeId: string): Promise<{ added: boolean }> {
      const inserted = await sql`insert into bookmarks (user_id, recipe_id) values (${userId}, ${recipeId}) on conflict do nothing returning 1`
      await fastify.collectionsRepository.addItem(await fastify.collectionsRepository.saved(userId), recipeId)
      return { added: inserted.length > 0 }
    },

    async unbookmark (userId: string, recipeId: string): Promise<void> {
      await sql`delete from bookmarks where user_id = ${userId} and recipe_id = ${recipeId}`
      await sql`delete from collection_items ci using collections c
        where ci.collection_id = c.id and c.user_id = ${userId} and c.type = 'saved' and ci.recipe_id = ${recipeId}`
    },

    /** The user's bookmarks they can still see, newest first. */
    async bookmarks (userId: string, page: number, limit: number) {
      const { entries, total } = await markedRecipes('bookmarks', userId, page, limit)
      return { bookmarks: entries.map(({ at, recipe }) => ({ bookmarkedAt: at, recipe })), total }
    },

    /** Files a report; null when the reporter already has an open report on this target. */
    async report (reporterId: string, fields: { type: string, targetId: string, reason: string, details: string | null }) {
      const [row] = await sql`
        insert into reports (id, reporter_id, type, target_id, reason, details)
        values (${createId()}, ${reporterId}, ${fields.type}, ${fields.targetId}, ${fields.reason}, ${fields.details})
        on conflict do nothing returning id, type, target_id, reason, details, status, created_at`
      if (row == null) return null
      return { id: row.id as string, type: row.type as string, targetId: row.target_id as string, reason: row.reason as string, details: row.details as string | null, status: row.status as string, createdAt: toIso(row.created_at) }
    },

    /** Followers of the author who may see the recipe (for new-recipe notifications). */
    async followersWhoCanSee (recipeId: string): Promise<string[]> {
      const rows = await sql`
        select f.follower_id from recipes r join follows f on f.following_id = r.author_id
        where r.id = ${recipeId} and r.published and r.moderation_status in ('approved', 'pending') and (
          r.visibility = 'public'
          or (r.visibility = 'friends' and exists (select 1 from follows b where b.follower_id = r.author_id and b.following_id = f.follower_id))
          or (r.visibility = 'custom' and exists (select 1 from recipe_audience ra where ra.recipe_id = r.id and ra.user_id = f.follower_id)))`
      return rows.map(r => r.follower_id as string)
    },

    async cooked (userId: string, recipeId: string): Promise<{ added: boolean }> {
      const inserted = await sql`insert into cooked_recipes (user_id, recipe_id) values (${userId}, ${recipeId}) on conflict do nothing returning 1`
      return { added: inserted.length > 0 }
    },

    async uncooked (userId: string, recipeId: string): Promise<void> {
      await sql`delete from cooked_recipes where user_id = ${userId} and recipe_id = ${recipeId}`
    },

    /** The recipes a user marked cooked that they can still see, most recently cooked first. */
    async cookedHistory (userId: string, page: number, limit: number) {
      const { entries, total } = await markedRecipes('cooked_recipes', userId, page, limit)
      return { entries: entries.map(({ at, recipe }) => ({ cookedAt: at, recipe })), total }
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('socialRepository', createSocialRepository(fastify))
}, { name: 'social-repository', dependencies: ['db', 'collections-repository'] })
