// CCPA requests and the do-not-sell flag they set on an account (users.do_not_sell_at). A request is kept with its
// sender: the user when signed in, else only the address it gives.
import { createId } from '@paralleldrive/cuid2'
import fp from 'fastify-plugin'
import type { ccpaRequests } from '../../../db/schema/index.js'
import type { Db } from '../../external/db.js'
import type { Flagged } from './sql.js'

declare module 'fastify' {
  interface FastifyInstance {
    ccpaRepository: typeof ccpaRepository
  }
}

export type NewCcpaRequest = Pick<typeof ccpaRequests.$inferInsert, 'userId' | 'email' | 'name' | 'requestType' | 'details'>

/** Who sent a request: a signed-in user, or an address with no account attached. */
export type CcpaSender = { userId: string } | { email: string }

export const ccpaRepository = {
  /**
   * Serializes, until the transaction ends, every transaction taking the same key (a sender and request type), so a
   * duplicate check and the insert after it are one step even for requests sent at the same moment.
   */
  async lockKey (db: Db, key: string): Promise<void> {
    await db`select pg_advisory_xact_lock(hashtext(${key}))`
  },

  /** The newest request of the sender with this type and details made within `hours`, or null. */
  async recentDuplicate (db: Db, sender: CcpaSender, request: { requestType: NewCcpaRequest['requestType'], details: string | null }, hours: number): Promise<string | null> {
    // Anonymous requests match anonymous ones only: an address typed by a stranger is never tied to an account's request.
    const by = 'userId' in sender ? db`user_id = ${sender.userId}` : db`user_id is null and email = ${sender.email}`
    const [row] = await db<Array<Pick<typeof ccpaRequests.$inferSelect, 'id'>>>`select id from ccpa_requests
      where ${by} and request_type = ${request.requestType} and details is not distinct from ${request.details}
        and created_at > now() - make_interval(hours => ${hours})
      order by created_at desc limit 1`
    return row?.id ?? null
  },

  async insert (db: Db, request: NewCcpaRequest): Promise<string> {
    const [row] = await db<Array<Pick<typeof ccpaRequests.$inferSelect, 'id'>>>`insert into ccpa_requests ${db({ id: createId(), ...request })} returning id`
    return row.id
  },

  /** Opts the user out of the sale or sharing of their data; the first opt-out's time is kept. */
  async markDoNotSell (db: Db, userId: string): Promise<void> {
    await db`update users set do_not_sell_at = coalesce(do_not_sell_at, now()) where id = ${userId}`
  },

  /** Every request of the user or sent with one of their addresses (a data deletion: decisions.md, Compliance). */
  async removeOf (db: Db, userId: string, emails: string[]): Promise<void> {
    await db`delete from ccpa_requests where user_id = ${userId} or email = any(${emails})`
  },

  /** Whether the user opted out (false for an unknown user). */
  async doNotSell (db: Db, userId: string): Promise<boolean> {
    const [row] = await db<Array<Flagged<'optedOut'>>>`select do_not_sell_at is not null as opted_out from users where id = ${userId}`
    return row?.optedOut ?? false
  }
}

export default fp(async fastify => {
  fastify.decorate('ccpaRepository', ccpaRepository)
}, { name: 'ccpa-repository' })
