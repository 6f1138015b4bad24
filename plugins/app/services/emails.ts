// Every email the service writes, in one place: which template, which links, and for notification emails the signed
// unsubscribe link and RFC 8058 one-click headers. Each call takes the caller's transaction, so the email exists only
// if the action that causes it commits (plugins/app/mailer.ts then delivers it by a job).
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import {
  commentEmail, dataDeletionEmail, digestEmail, familyEmail, familyInviteEmail, followerEmail, likeEmail, newRecipeEmail,
  passwordResetEmail, welcomeEmail, type EmailLayout, type RenderedEmail
} from '../../../lib/email-templates.js'
import type { Db } from '../../external/db.js'
import type { DeliveryRow } from '../repositories/notification-delivery.js'
import type { UnsubscribeScope } from './unsubscribe.js'

declare module 'fastify' {
  interface FastifyInstance {
    emailService: ReturnType<typeof createEmailService>
  }
}

export const APP_NAME = 'Recipes'

interface Recipient { id: string, email: string, username: string }

export interface DigestItem { message: string, createdAt: Date, recipeId: string | null }

/** Which unsubscribe choice a notification email's footer suggests. */
const SCOPE_OF: Partial<Record<DeliveryRow['type'], UnsubscribeScope>> = { like: 'likes', comment: 'comments', reply: 'comments' }

export function createEmailService (fastify: FastifyInstance) {
  const appUrl = fastify.config.publicUrl
  const recipeUrl = (id: string | null) => id == null ? `${appUrl}/notifications` : `${appUrl}/recipes/${encodeURIComponent(id)}`
  const layout: EmailLayout = { appName: APP_NAME, appUrl }

  async function send (db: Db, to: Recipient, kind: string, email: RenderedEmail, options: { id?: string, headers?: Record<string, string> } = {}) {
    return await fastify.mailer.send({ id: options.id, to: to.email, userId: to.id, kind, ...email, headers: options.headers }, db)
  }

  /** Layout and headers of an email someone can unsubscribe from. */
  function unsubscribable (userId: string, scope: UnsubscribeScope = 'all') {
    const { unsubscribeService } = fastify
    return {
      layout: { ...layout, unsubscribeUrl: unsubscribeService.link(userId, scope) },
      headers: unsubscribeService.headers(userId)
    }
  }

  /** The instant email for a notification row (notification-delivery.ts decides whether one is wanted). */
  function renderNotification (n: DeliveryRow, withLayout: EmailLayout): RenderedEmail {
    const actor = n.actorUsername ?? 'Someone'
    const data = n.data
    switch (n.type) {
      case 'like':
        return likeEmail(withLayout, { actor, recipeTitle: n.recipeTitle ?? '', recipeUrl: recipeUrl(n.recipeId) })
      case 'comment':
      case 'reply':
        return commentEmail(withLayout, {
          actor, recipeTitle: n.recipeTitle ?? '', recipeUrl: recipeUrl(n.recipeId), comment: n.commentContent ?? '', isReply: n.type === 'reply'
        })
      case 'follow':
        return followerEmail(withLayout, { actor, profileUrl: `${appUrl}/users/${encodeURIComponent(actor)}` })
      case 'new_recipe':
        return newRecipeEmail(withLayout, { actor, recipeTitle: n.recipeTitle ?? '', recipeUrl: recipeUrl(n.recipeId) })
      default: {
        const url = typeof data.mealPlanId === 'string'
          ? `${appUrl}/meal-plans/${encodeURIComponent(data.mealPlanId)}`
          : typeof data.familyId === 'string' ? `${appUrl}/families/${encodeURIComponent(data.familyId)}` : `${appUrl}/notifications`
        return familyEmail(withLayout, { message: n.message, url })
      }
    }
  }

  return {
    async welcome (db: Db, user: Recipient) {
      return await send(db, user, 'welcome', welcomeEmail(layout, { username: user.username }))
    },

    async passwordReset (db: Db, user: Recipient, link: string, expiresInMinutes: number) {
      return await send(db, user, 'password-reset', passwordResetEmail(layout, { username: user.username, link, expiresInMinutes }))
    },

    /** One email per notification, whatever retries happen (its id derives from the notification's). */
    async notification (db: Db, n: DeliveryRow) {
      const { layout: withLayout, headers } = unsubscribable(n.userId, SCOPE_OF[n.type])
      return await send(db, { id: n.userId, email: n.email, username: n.username }, n.type,
        renderNotification(n, withLayout), { id: `${n.id}-email`, headers })
    },

    async digest (db: Db, user: Recipient, frequency: 'daily' | 'weekly', items: DigestItem[], total: number) {
      const { layout: withLayout, headers } = unsubscribable(user.id, 'digest')
      const email = digestEmail(withLayout, {
        username: user.username,
        frequency,
        items: items.map(item => ({ message: item.message, createdAt: item.createdAt, url: recipeUrl(item.recipeId) })),
        total,
        notificationsUrl: `${appUrl}/notifications`
      })
      return await send(db, user, 'digest', email, { headers })
    },

    /** An invitation to a family sent to an address (which may not have an account yet). */
    async familyInvite (db: Db, to: { email: string, userId: string | null }, v: { inviter: string, familyName: string, inviteCode: string }) {
      const joinUrl = `${appUrl}/families/join?code=${encodeURIComponent(v.inviteCode)}`
      return await fastify.mailer.send({ to: to.email, userId: to.userId, kind: 'family-invite', ...familyInviteEmail(layout, { ...v, joinUrl }) }, db)
    },

    async dataDeletion (db: Db, user: Recipient, v: { requestId: string, deleteType: 'account' | 'data', scheduledFor: Date }) {
      const email = dataDeletionEmail(layout, {
        username: user.username,
        deleteType: v.deleteType,
        scheduledFor: v.scheduledFor,
        statusUrl: `${fastify.config.apiPublicUrl}/api/data-deletion/status/${encodeURIComponent(v.requestId)}`,
        cancelHint: 'To keep your account, cancel the request in your account settings before that date.'
      })
      return await send(db, user, 'data-deletion', email)
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('emailService', createEmailService(fastify))
}, { name: 'email-service', dependencies: ['mailer', 'unsubscribe-service'] })
