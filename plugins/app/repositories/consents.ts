// The user's privacy choices (GDPR consent): one row per user, keyed by the user, written by an upsert.
import fp from 'fastify-plugin'
import type { consents } from '../../../db/schema/index.js'
import type { ConsentInput, ConsentView } from '../../../schemas/gdpr.js'
import type { Db } from '../../external/db.js'

declare module 'fastify' {
  interface FastifyInstance {
    consentsRepository: typeof consentsRepository
  }
}

type ConsentRow = Omit<typeof consents.$inferSelect, 'userId'>

const view = (row: ConsentRow): ConsentView => ({
  analytics: row.analytics,
  marketing: row.marketing,
  personalization: row.personalization,
  policyVersion: row.policyVersion,
  updatedAt: row.updatedAt.toISOString()
})

export const consentsRepository = {
  /** The stored choices; null when the user never saved any. */
  async find (db: Db, userId: string): Promise<ConsentView | null> {
    const [row] = await db<ConsentRow[]>`
      select analytics, marketing, personalization, policy_version, updated_at from consents where user_id = ${userId}`
    return row == null ? null : view(row)
  },

  /**
   * Writes the given choices over the stored ones (absent ones keep their value, or the column default on the first
   * write) in one statement: concurrent saves never create a second row, and saves of different choices all survive.
   */
  async save (db: Db, userId: string, input: ConsentInput): Promise<ConsentView> {
    const analytics = input.analytics ?? null
    const marketing = input.marketing ?? null
    const personalization = input.personalization ?? null
    const policyVersion = input.policyVersion ?? null
    const [row] = await db<ConsentRow[]>`
      insert into consents as c (user_id, analytics, marketing, personalization, policy_version)
      values (${userId}, coalesce(${analytics}::boolean, false), coalesce(${marketing}::boolean, false),
        coalesce(${personalization}::boolean, false), ${policyVersion}::text)
      on conflict (user_id) do update set
        analytics = coalesce(${analytics}::boolean, c.analytics),
        marketing = coalesce(${marketing}::boolean, c.marketing),
        personalization = coalesce(${personalization}::boolean, c.personalization),
        policy_version = coalesce(${policyVersion}::text, c.policy_version),
        updated_at = now()
      returning analytics, marketing, personalization, policy_version, updated_at`
    return view(row)
  }
}

export default fp(async fastify => {
  fastify.decorate('consentsRepository', consentsRepository)
}, { name: 'consents-repository' })
