// Stored answers of requests sent with an `Idempotency-Key` (plugins/app/idempotency.ts).
import fp from 'fastify-plugin'
import type { idempotencyKeys } from '../../../db/schema/index.js'
import type { Db } from '../../external/db.js'

declare module 'fastify' {
  interface FastifyInstance {
    idempotencyKeysRepository: typeof idempotencyKeysRepository
  }
}

export type StoredAnswer = Pick<typeof idempotencyKeys.$inferSelect, 'fingerprint' | 'statusCode' | 'response'>

/** A claim still unanswered after this long belongs to a process that died: the next retry takes it over. */
const ABANDONED_AFTER = '60 seconds'

export const idempotencyKeysRepository = {
  /**
   * Claims the key for this request: true when the caller now owns it (new, or left unanswered by a dead process);
   * false when another request holds it or has answered it.
   */
  async claim (db: Db, userId: string, key: string, fingerprint: string): Promise<boolean> {
    const rows = await db`insert into idempotency_keys (user_id, key, fingerprint) values (${userId}, ${key}, ${fingerprint})
      on conflict (user_id, key) do update set fingerprint = excluded.fingerprint, created_at = now()
        where idempotency_keys.status_code is null and idempotency_keys.created_at < now() - ${ABANDONED_AFTER}::interval
      returning 1`
    return rows.length > 0
  },

  async find (db: Db, userId: string, key: string): Promise<StoredAnswer | null> {
    const [row] = await db<StoredAnswer[]>`select fingerprint, status_code, response from idempotency_keys
      where user_id = ${userId} and key = ${key}`
    return row ?? null
  },

  async answer (db: Db, userId: string, key: string, statusCode: number, response: string): Promise<void> {
    await db`update idempotency_keys set status_code = ${statusCode}, response = ${response}
      where user_id = ${userId} and key = ${key}`
  },

  /** Frees the key (the request failed in a way a retry may fix). */
  async release (db: Db, userId: string, key: string): Promise<void> {
    await db`delete from idempotency_keys where user_id = ${userId} and key = ${key} and status_code is null`
  },

  /** Deletes up to `limit` answers older than a day. */
  async purgeExpired (db: Db, limit: number): Promise<number> {
    const rows = await db`delete from idempotency_keys where (user_id, key) in (
      select user_id, key from idempotency_keys where created_at < now() - interval '24 hours' order by created_at limit ${limit})
      returning 1`
    return rows.length
  }
}

export default fp(async fastify => {
  fastify.decorate('idempotencyKeysRepository', idempotencyKeysRepository)
}, { name: 'idempotency-keys-repository' })
