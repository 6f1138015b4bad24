// Data-deletion requests and the statements that carry them out. Erasing runs inside the caller's transaction: either
// all of an account's data goes, or none of it.
import { createId } from '@paralleldrive/cuid2'
import fp from 'fastify-plugin'
import type { dataDeletionRequests, emailOutbox, media, recipes, recipeTags, users } from '../../../db/schema/index.js'
import type { Db } from '../../external/db.js'
import type { Page } from './recipes.js'
import type { Counted } from './sql.js'

declare module 'fastify' {
  interface FastifyInstance {
    dataDeletionRepository: typeof dataDeletionRepository
  }
}

export type DeletionRequestRow = Pick<typeof dataDeletionRequests.$inferSelect,
  'id' | 'userId' | 'email' | 'deleteType' | 'reason' | 'status' | 'scheduledFor' | 'error' | 'createdAt' | 'startedAt' | 'completedAt' | 'cancelledAt'>

const columns = (db: Db) => db`id, user_id, email, delete_type, reason, status, scheduled_for, error, created_at, started_at, completed_at, cancelled_at`

/** `jane@example.com` -> `j***@example.com`: enough for the owner to recognise, nothing for anyone else. */
export function maskEmail (email: string): string {
  const at = email.lastIndexOf('@')
  if (at < 1) return '***'
  return `${email[0]}***${email.slice(at)}`
}

/** Emails to the user that a `data` deletion keeps: they are about the account, not its content. */
export const ACCOUNT_MAIL_KINDS = ['welcome', 'password-reset', 'data-deletion']

/** What a delivered email that showed a deleted user keeps: the record that it went, not what it said. */
const REMOVED_MAIL = {
  subject: '(removed)',
  text: 'The content of this email was removed: it showed data that its owner has since deleted.'
}

export type ErasedUser = Pick<typeof users.$inferSelect, 'id' | 'email' | 'username'>

export const dataDeletionRepository = {
  /** A new pending request, or null when the user already has an open one (the partial unique index decides). */
  async create (db: Db, row: Pick<DeletionRequestRow, 'userId' | 'email' | 'deleteType' | 'reason' | 'scheduledFor'>): Promise<DeletionRequestRow | null> {
    const [created] = await db<DeletionRequestRow[]>`
      insert into data_deletion_requests (id, user_id, email, delete_type, reason, scheduled_for)
      values (${createId()}, ${row.userId}, ${row.email}, ${row.deleteType}, ${row.reason}, ${row.scheduledFor})
      on conflict (user_id) where status in ('pending', 'processing') do nothing
      returning ${columns(db)}`
    return created ?? null
  },

  async open (db: Db, userId: string): Promise<DeletionRequestRow | null> {
    const [row] = await db<DeletionRequestRow[]>`select ${columns(db)} from data_deletion_requests
      where user_id = ${userId} and status in ('pending', 'processing')`
    return row ?? null
  },

  async find (db: Db, id: string): Promise<DeletionRequestRow | null> {
    const [row] = await db<DeletionRequestRow[]>`select ${columns(db)} from data_deletion_requests where id = ${id}`
    return row ?? null
  },

  async lock (db: Db, id: string): Promise<DeletionRequestRow | null> {
    const [row] = await db<DeletionRequestRow[]>`select ${columns(db)} from data_deletion_requests where id = ${id} for update`
    return row ?? null
  },

  async listByUser (db: Db, userId: string, page: number, limit: number): Promise<Page<DeletionRequestRow>> {
    const [items, [{ total }]] = await Promise.all([
      db<DeletionRequestRow[]>`select ${columns(db)} from data_deletion_requests where user_id = ${userId}
        order by created_at desc, id desc limit ${limit} offset ${(page - 1) * limit}`,
      db<Array<Counted<'total'>>>`select count(*)::int as total from data_deletion_requests where user_id = ${userId}`
    ])
    return { items, total }
  },

  async setStatus (db: Db, id: string, status: DeletionRequestRow['status'], error: string | null = null): Promise<void> {
    await db`update data_deletion_requests set status = ${status}, error = ${error},
      started_at = case when ${status} = 'processing' then coalesce(started_at, now()) else started_at end,
      completed_at = case when ${status} = 'completed' then now() else completed_at end,
      cancelled_at = case when ${status} = 'cancelled' then now() else cancelled_at end
      where id = ${id}`
  },

  /** After an account is gone its requests keep only a masked address (user_id is already null by the foreign key). */
  async maskRequestsOf (db: Db, email: string): Promise<void> {
    await db`update data_deletion_requests set email = ${maskEmail(email)}, reason = null where email = ${email}`
  },

  /** Recipes of other users whose counters count the user's rows (likes, ratings, comments and replies under them). */
  async recipesCountingUser (db: Db, userId: string): Promise<string[]> {
    const rows = await db<Array<Pick<typeof recipes.$inferSelect, 'id'>>>`
      select recipe_id as id from likes where user_id = ${userId}
      union select recipe_id from ratings where user_id = ${userId}
      union select recipe_id from comments where user_id = ${userId}`
    return rows.map(r => r.id)
  },

  /** Counters recomputed from the rows themselves, so they are exact whatever cascaded. */
  async recount (db: Db, recipeIds: string[]): Promise<void> {
    if (recipeIds.length === 0) return
    await db`update recipes r set
      like_count = (select count(*) from likes l where l.recipe_id = r.id),
      comment_count = (select count(*) from comments c where c.recipe_id = r.id),
      rating_count = (select count(*) from ratings x where x.recipe_id = r.id),
      rating_sum = (select coalesce(sum(x.rating), 0) from ratings x where x.recipe_id = r.id)
      where r.id = any(${recipeIds})`
  },

  async tagsOfAuthor (db: Db, userId: string): Promise<string[]> {
    const rows = await db<Array<Pick<typeof recipeTags.$inferSelect, 'tagId'>>>`select distinct rt.tag_id from recipe_tags rt
      join recipes r on r.id = rt.recipe_id where r.author_id = ${userId}`
    return rows.map(r => r.tagId)
  },

  async mediaKeys (db: Db, userId: string): Promise<string[]> {
    const rows = await db<Array<Pick<typeof media.$inferSelect, 'key'>>>`select key from media where user_id = ${userId}`
    return rows.map(r => r.key)
  },

  /**
   * Families the user is the only owner of pass to the longest-standing admin, else the longest-standing member;
   * families with nobody else are deleted.
   */
  async handOverFamilies (db: Db, userId: string): Promise<void> {
    await db`
      with sole as (
        select m.family_id from family_members m where m.user_id = ${userId} and m.role = 'owner'
          and not exists (select 1 from family_members o where o.family_id = m.family_id and o.role = 'owner' and o.user_id <> ${userId})
      ), heir as (
        select distinct on (m.family_id) m.family_id, m.user_id from family_members m join sole s on s.family_id = m.family_id
        where m.user_id <> ${userId}
        order by m.family_id, case m.role when 'admin' then 0 else 1 end, m.joined_at, m.user_id
      )
      update family_members f set role = 'owner' from heir h where f.family_id = h.family_id and f.user_id = h.user_id`
    await db`delete from families f where exists (select 1 from family_members m where m.family_id = f.id and m.user_id = ${userId})
      and not exists (select 1 from family_members m where m.family_id = f.id and m.user_id <> ${userId})`
  },

  /** The user's address and name as they are now (null when the account is gone). */
  async identity (db: Db, userId: string): Promise<ErasedUser | null> {
    const [row] = await db<ErasedUser[]>`select id, email, username from users where id = ${userId}`
    return row ?? null
  },

  /**
   * Email to other people that shows the user: notification emails of which they are the actor or whose recipe is
   * theirs (the email's id derives from the notification's), the digests that listed such notifications (the
   * recipient's first digest covering the notification's time), and the family invitations they sent (no row links
   * those to the sender: matched by the inviter's name the subject starts with, lib/email-templates.ts). Unsent
   * emails are deleted; delivered ones keep the record of delivery without their content. Runs before the
   * notifications go (they cascade from the user and their recipes).
   */
  async forgetInOthersMail (db: Db, user: ErasedUser): Promise<void> {
    const invitation = `${user.username} invited you to join the family "`
    const rows = await db<Array<Pick<typeof emailOutbox.$inferSelect, 'id'>>>`
      with shown as materialized (
        select n.id, n.user_id, n.created_at from notifications n
        where n.user_id <> ${user.id}
          and (n.actor_id = ${user.id} or n.recipe_id in (select r.id from recipes r where r.author_id = ${user.id}))
      )
      select s.id || '-email' as id from shown s
      union
      select d.email_id from shown s cross join lateral (
        select d.email_id from digest_runs d where d.user_id = s.user_id and d.covered_until >= s.created_at
        order by d.covered_until limit 1
      ) d where d.email_id is not null
      union
      select e.id from email_outbox e where e.kind = 'family-invite' and left(e.subject, ${invitation.length}) = ${invitation}`
    const ids = rows.map(r => r.id)
    if (ids.length === 0) return
    await db`delete from email_outbox where id = any(${ids}) and status <> 'sent' and user_id is distinct from ${user.id}`
    await db`update email_outbox set subject = ${REMOVED_MAIL.subject}, text = ${REMOVED_MAIL.text}, html = null
      where id = any(${ids}) and status = 'sent' and user_id is distinct from ${user.id}`
  },

  /** Email to the user (by account or by address, e.g. an invitation sent before they signed up), but `keep`'s kinds. */
  async eraseOwnMail (db: Db, user: ErasedUser, keep: string[]): Promise<void> {
    await db`delete from email_outbox where (user_id = ${user.id} or "to" = ${user.email}) and kind <> all(${keep})`
  },

  /** The account and everything that cascades from it; feature flags stop naming it. */
  async eraseAccount (db: Db, userId: string): Promise<void> {
    await db`update feature_flags set user_ids = user_ids - ${userId}::text where user_ids ? ${userId}::text`
    await db`delete from users where id = ${userId}`
  },

  /** The user's content, keeping the account, its settings and its family memberships. */
  async eraseContent (db: Db, userId: string): Promise<void> {
    await db`delete from recipes where author_id = ${userId}`
    await db`delete from comments where user_id = ${userId}`
    await db`delete from likes where user_id = ${userId}`
    await db`delete from ratings where user_id = ${userId}`
    await db`delete from bookmarks where user_id = ${userId}`
    await db`delete from collections where user_id = ${userId} and type <> 'saved'`
    await db`delete from collection_items where collection_id in (select id from collections where user_id = ${userId})`
    await db`delete from cooked_recipes where user_id = ${userId}`
    await db`delete from follows where follower_id = ${userId} or following_id = ${userId}`
    // Theirs, and those showing them to others (their recipes' go with the recipes).
    await db`delete from notifications where user_id = ${userId} or actor_id = ${userId}`
    await db`delete from planned_meals where user_id = ${userId}`
    await db`delete from meal_plans where user_id = ${userId}`
    await db`delete from grocery_lists where user_id = ${userId}`
    await db`delete from media where user_id = ${userId}`
    // What the user imported and asked the AI for (URLs, prompts); the month's usage counts stay with the plan.
    await db`delete from import_logs where user_id = ${userId}`
    await db`delete from ai_generations where user_id = ${userId}`
    // Stored answers of keyed requests hold what the user sent and got back.
    await db`delete from idempotency_keys where user_id = ${userId}`
    await db`update users set avatar_url = null, bio = null, location = null, updated_at = now() where id = ${userId}`
  }
}

export default fp(async fastify => {
  fastify.decorate('dataDeletionRepository', dataDeletionRepository)
}, { name: 'data-deletion-repository' })
