// Support tickets. Reads are scoped by the sender, so one user never reaches another's tickets.
import { createId } from '@paralleldrive/cuid2'
import fp from 'fastify-plugin'
import type { supportTickets } from '../../../db/schema/index.js'
import type { SupportTicketView } from '../../../schemas/support.js'
import type { Db } from '../../external/db.js'
import type { Page } from './recipes.js'
import type { Counted } from './sql.js'

declare module 'fastify' {
  interface FastifyInstance {
    supportRepository: typeof supportRepository
  }
}

export type NewSupportTicket = Pick<typeof supportTickets.$inferInsert,
  'userId' | 'email' | 'name' | 'category' | 'subject' | 'message' | 'pageUrl' | 'userAgent'>

type TicketRow = Pick<typeof supportTickets.$inferSelect,
  'id' | 'email' | 'name' | 'category' | 'subject' | 'message' | 'pageUrl' | 'status' | 'createdAt'>

/** Who sent a ticket: a signed-in user, or an address with no account attached. */
export type SupportSender = { userId: string } | { email: string }

const view = (row: TicketRow): SupportTicketView => ({ ...row, createdAt: row.createdAt.toISOString() })

const columns = (db: Db) => db`id, email, name, category, subject, message, page_url, status, created_at`

export const supportRepository = {
  /** Serializes, until the transaction ends, every transaction taking the same key (one sender). */
  async lockKey (db: Db, key: string): Promise<void> {
    await db`select pg_advisory_xact_lock(hashtext(${key}))`
  },

  /** The newest ticket of the sender with this subject and message sent within `minutes`, or null. */
  async recentDuplicate (db: Db, sender: SupportSender, ticket: Pick<NewSupportTicket, 'subject' | 'message'>, minutes: number): Promise<string | null> {
    // Anonymous tickets match anonymous ones only (support_tickets_user_idx serves `user_id is null` too).
    const by = 'userId' in sender ? db`user_id = ${sender.userId}` : db`user_id is null and email = ${sender.email}`
    const [row] = await db<Array<Pick<typeof supportTickets.$inferSelect, 'id'>>>`select id from support_tickets
      where ${by} and created_at > now() - make_interval(mins => ${minutes})
        and subject = ${ticket.subject} and message = ${ticket.message}
      order by created_at desc limit 1`
    return row?.id ?? null
  },

  async insert (db: Db, ticket: NewSupportTicket): Promise<string> {
    const [row] = await db<Array<Pick<typeof supportTickets.$inferSelect, 'id'>>>`insert into support_tickets ${db({ id: createId(), ...ticket })} returning id`
    return row.id
  },

  /** A page of the user's tickets, newest first (bounded per user: the count is exact). */
  async listFor (db: Db, userId: string, pageNo: number, limit: number): Promise<Page<SupportTicketView>> {
    const [items, [{ total }]] = await Promise.all([
      db<TicketRow[]>`select ${columns(db)} from support_tickets where user_id = ${userId}
        order by created_at desc, id desc limit ${limit} offset ${(pageNo - 1) * limit}`,
      db<Array<Counted<'total'>>>`select count(*)::int as total from support_tickets where user_id = ${userId}`
    ])
    return { items: items.map(view), total }
  },

  /** Every ticket of the user or sent with one of their addresses (a data deletion: decisions.md, Compliance). */
  async removeOf (db: Db, userId: string, emails: string[]): Promise<void> {
    await db`delete from support_tickets where user_id = ${userId} or email = any(${emails})`
  },

  /** The user's ticket, or null when it is not theirs (or does not exist). */
  async findFor (db: Db, userId: string, id: string): Promise<SupportTicketView | null> {
    const [row] = await db<TicketRow[]>`select ${columns(db)} from support_tickets where id = ${id} and user_id = ${userId}`
    return row == null ? null : view(row)
  }
}

export default fp(async fastify => {
  fastify.decorate('supportRepository', supportRepository)
}, { name: 'support-repository' })
