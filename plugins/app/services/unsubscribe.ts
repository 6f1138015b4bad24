// Unsubscribe links for notification emails: a signed token per user (HS256 with the user-token secret, but its own
// `typ` and `aud`, so it is never a user token and a user token is never one of these), the RFC 8058 headers, and
// applying a scope. Tokens are not stored: anyone holding the link may turn that account's emails off, which is the
// point of a link in an email, and nothing else.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { InvalidUnsubscribeToken, UserNotFound } from '../../../lib/errors.js'
import type { UnsubscribeScope } from '../../../schemas/unsubscribe.js'
import type { NotificationSettingsPatch } from '../repositories/users.js'
import { STORED_PREFERENCES } from './users.js'

export type { UnsubscribeScope } from '../../../schemas/unsubscribe.js'

export const UNSUBSCRIBE_TOKEN_LIFETIME_SECONDS = 90 * 24 * 60 * 60
const TYP = 'unsubscribe'
const AUD = 'unsubscribe'

/** What each scope turns off in the notification settings; `all` also sets `unsubscribedAll`. */
const SETTINGS_OFF: Record<UnsubscribeScope, NotificationSettingsPatch> = {
  all: { emailLikes: false, emailComments: false, digestFrequency: 'none' },
  likes: { emailLikes: false },
  comments: { emailComments: false },
  digest: { digestFrequency: 'none' }
}

/**
 * Whether GET /api/unsubscribe/preview/:userId answers: only in development and test. It hands out a working token for
 * any account, so production, and any environment not named as one of those two (NODE_ENV unset included), get 404.
 */
export function previewEnabled (nodeEnv: string | undefined): boolean {
  return nodeEnv === 'development' || nodeEnv === 'test'
}

declare module 'fastify' {
  interface FastifyInstance {
    unsubscribeService: ReturnType<typeof createUnsubscribeService>
  }
}

export function createUnsubscribeService (fastify: FastifyInstance) {
  const { usersRepository: users } = fastify
  const jwt = fastify.jwt.user

  function token (userId: string): string {
    return jwt.sign({ sub: userId, typ: TYP }, { algorithm: 'HS256', aud: AUD, expiresIn: UNSUBSCRIBE_TOKEN_LIFETIME_SECONDS })
  }

  function link (userId: string, scope: UnsubscribeScope = 'all'): string {
    const query = new URLSearchParams({ token: token(userId) })
    if (scope !== 'all') query.set('scope', scope)
    return `${fastify.config.apiPublicUrl}/api/unsubscribe?${query.toString()}`
  }

  /** The user of a well-signed, unexpired unsubscribe token; null for anything else (user tokens included). */
  function verify (value: string): { userId: string } | null {
    if (value === '') return null
    let payload: Record<string, unknown>
    try {
      payload = jwt.verify<Record<string, unknown>>(value, { algorithms: ['HS256'], allowedAud: AUD, requiredClaims: ['sub', 'exp', 'aud', 'typ'] })
    } catch {
      return null
    }
    if (payload.typ !== TYP || typeof payload.sub !== 'string' || payload.sub === '') return null
    return { userId: payload.sub }
  }

  /** The account a token stands for: throws InvalidUnsubscribeToken (400) or UserNotFound (404), as `apply` does. */
  async function recipient (value: string): Promise<{ userId: string, email: string }> {
    const claims = verify(value)
    if (claims == null) throw new InvalidUnsubscribeToken()
    const account = await users.authState(fastify.db, claims.userId)
    if (account == null) throw new UserNotFound()
    return { userId: account.id, email: account.email }
  }

  return {
    token,
    link,

    /** RFC 8058: mail providers show an unsubscribe button and POST `List-Unsubscribe=One-Click` to the link. */
    headers (userId: string): Record<string, string> {
      return { 'List-Unsubscribe': `<${link(userId)}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
    },

    verify,
    recipient,

    /** Turns the scope's emails off; only ever switches off, so repeating it (or racing it) changes nothing more. */
    async apply (value: string, scope: UnsubscribeScope): Promise<{ email: string, scope: UnsubscribeScope }> {
      const claims = verify(value)
      if (claims == null) throw new InvalidUnsubscribeToken()
      return await fastify.transaction(async tx => {
        const account = await users.authState(tx, claims.userId)
        if (account == null) throw new UserNotFound()
        await users.saveNotificationSettings(tx, account.id, SETTINGS_OFF[scope])
        if (scope === 'all') await users.mergeEmailPreferences(tx, account.id, STORED_PREFERENCES, { unsubscribedAll: true })
        return { email: account.email, scope }
      })
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('unsubscribeService', createUnsubscribeService(fastify))
}, { name: 'unsubscribe-service', dependencies: ['auth', 'users-repository', 'db'] })
