// Revoked user tokens (logout, refresh), kept until they would have expired anyway. This table is the truth; the
// cache in front of it (plugins/app/auth.ts) only saves lookups.
import fp from 'fastify-plugin'
import type { revokedTokens } from '../../../db/schema/index.js'
import type { Db } from '../../external/db.js'

declare module 'fastify' {
  interface FastifyInstance {
    tokensRepository: typeof tokensRepository
  }
}

type RevokedTokenRow = typeof revokedTokens.$inferSelect

export const tokensRepository = {
  /** Records the token as revoked; true only for the call that did it (a concurrent or repeated call gets false). */
  async revoke (db: Db, token: RevokedTokenRow): Promise<boolean> {
    const rows = await db`insert into revoked_tokens ${db(token)} on conflict (jti) do nothing returning jti`
    return rows.length > 0
  },

  async isRevoked (db: Db, jti: string): Promise<boolean> {
    const rows = await db`select 1 from revoked_tokens where jti = ${jti}`
    return rows.length > 0
  },

  /** Deletes up to `limit` rows of tokens that have expired by now (they fail verification anyway). */
  async purgeExpired (db: Db, limit: number): Promise<number> {
    const rows = await db`delete from revoked_tokens where jti in (
      select jti from revoked_tokens where expires_at < now() order by expires_at limit ${limit}) returning 1`
    return rows.length
  }
}

export default fp(async fastify => {
  fastify.decorate('tokensRepository', tokensRepository)
}, { name: 'tokens-repository' })
