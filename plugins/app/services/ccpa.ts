// CCPA requests. Anyone may send one (signed in, it is kept with the account). A do-not-sell (or opt-out) request from
// a signed-in user sets users.do_not_sell_at in the request's transaction. An anonymous one never flags an account,
// even when its address is an account's: anyone can type anyone's address, so such a request is stored for a person
// to verify and act on. The same request again within a day answers the first one (exact under concurrency: the
// sender's advisory lock), and one client address may send CCPA_LIMITS.perHour requests an hour.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { normalizeEmail } from '../../../lib/identity.js'
import { optionalText } from '../../../lib/text.js'
import type { AnalyticsConfigView } from '../../../schemas/analytics.js'
import { CCPA_LIMITS, OPT_OUT_TYPES, type CcpaInput, type CcpaRequestType } from '../../../schemas/ccpa.js'
import type { AuthUser } from '../auth.js'

declare module 'fastify' {
  interface FastifyInstance {
    ccpaService: ReturnType<typeof createCcpaService>
  }
}

export interface CcpaSubmission extends CcpaInput {
  requestType: CcpaRequestType
}

export function createCcpaService (fastify: FastifyInstance) {
  const { ccpaRepository: ccpa } = fastify

  return {
    /**
     * Stores the request (201: `created`), or answers the sender's same request (type and details) of the last
     * CCPA_LIMITS.duplicateHours (`created` false). A signed-in sender's opt-out is set either way.
     */
    async submit (caller: AuthUser | null, clientIp: string, input: CcpaSubmission): Promise<{ created: boolean, requestId: string }> {
      await fastify.rateLimits.perClient('ccpa', clientIp, CCPA_LIMITS.perHour, 60 * 60)
      const email = normalizeEmail(input.email)
      const request = { requestType: input.requestType, details: optionalText(input.details) }
      const sender = caller == null ? { email } : { userId: caller.id }
      const senderKey = caller == null ? `email:${email}` : `user:${caller.id}`
      return await fastify.transaction(async tx => {
        await ccpa.lockKey(tx, `ccpa:${senderKey}:${input.requestType}`)
        if (caller != null && OPT_OUT_TYPES.has(input.requestType)) await ccpa.markDoNotSell(tx, caller.id)
        const existing = await ccpa.recentDuplicate(tx, sender, request, CCPA_LIMITS.duplicateHours)
        if (existing != null) return { created: false, requestId: existing }
        const requestId = await ccpa.insert(tx, { ...request, userId: caller?.id ?? null, email, name: optionalText(input.name) })
        return { created: true, requestId }
      })
    },

    /** The public client analytics settings, with the signed-in viewer's do-not-sell choice. */
    async analyticsConfig (viewerId: string | null): Promise<AnalyticsConfigView> {
      const { provider, siteId, host } = fastify.config.analytics
      return {
        enabled: provider != null,
        provider: provider ?? null,
        siteId: siteId ?? null,
        host: host ?? null,
        respectDoNotTrack: true,
        requiresConsent: true,
        doNotSell: viewerId == null ? false : await ccpa.doNotSell(fastify.db, viewerId)
      }
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('ccpaService', createCcpaService(fastify))
}, { name: 'ccpa-service', dependencies: ['ccpa-repository', 'rate-limit', 'db'] })
