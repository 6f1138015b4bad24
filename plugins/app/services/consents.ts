// GDPR consent: the caller's privacy choices. No row means nothing consented beyond what the service needs to run.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { ConsentInput, ConsentView } from '../../../schemas/gdpr.js'
import type { Db } from '../../external/db.js'

declare module 'fastify' {
  interface FastifyInstance {
    consentService: ReturnType<typeof createConsentService>
  }
}

/** What a user who never chose has: everything off. */
export const DEFAULT_CONSENT: ConsentView = { analytics: false, marketing: false, personalization: false, policyVersion: null, updatedAt: null }

export function createConsentService (fastify: FastifyInstance) {
  const repo = fastify.consentsRepository

  async function get (userId: string, db: Db = fastify.db): Promise<ConsentView> {
    return await repo.find(db, userId) ?? DEFAULT_CONSENT
  }

  return {
    get,

    /** Saves the choices given and answers all of them; an empty body changes nothing (and writes nothing). */
    async update (userId: string, input: ConsentInput): Promise<ConsentView> {
      const given = Object.values(input).some(value => value !== undefined)
      return given ? await repo.save(fastify.db, userId, input) : await get(userId)
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('consentService', createConsentService(fastify))
}, { name: 'consent-service', dependencies: ['consents-repository', 'db'] })
