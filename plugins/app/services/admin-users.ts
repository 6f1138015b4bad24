// Admins moderating accounts: list and inspect them, change active / verified / plan, ban, unban, unlock.
// Whatever changes whether a user's tokens work (active, ban) drops the cached auth state once committed, so strict
// routes (which read the database) and optional routes (which may read the cache) both see it at once. Every change
// is one statement or one transaction under the user's row lock, so repeated or concurrent requests leave one
// consistent row.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { UnknownPlan, UserNotFound } from '../../../lib/errors.js'
import type { AdminUserDetailView, AdminUserFilters, AdminUserPatch } from '../../../schemas/admin-users.js'
import { pagination } from '../../../schemas/common.js'
import type { Db } from '../../external/db.js'
import type { AdminUserChanges } from '../repositories/admin-users.js'
import { LOCKOUT_SECONDS } from './accounts.js'

declare module 'fastify' {
  interface FastifyInstance {
    adminUsersService: ReturnType<typeof createAdminUsersService>
  }
}

/** The admin user list counts matching accounts up to this (`totalExact: false` beyond). */
export const ADMIN_USER_COUNT_CAP = 10_000

export function createAdminUsersService (fastify: FastifyInstance) {
  const repo = fastify.adminUsersRepository

  async function detail (userId: string, db: Db = fastify.db): Promise<AdminUserDetailView> {
    const user = await repo.detail(db, userId, LOCKOUT_SECONDS)
    if (user == null) throw new UserNotFound()
    return user
  }

  /** Runs a one-statement change (false: no such user), then drops the cached auth state and answers the account. */
  async function change (userId: string, write: (db: Db) => Promise<boolean>, affectsTokens: boolean): Promise<AdminUserDetailView> {
    if (!(await write(fastify.db))) throw new UserNotFound()
    if (affectsTokens) await fastify.invalidateAuthState(userId)
    return await detail(userId)
  }

  return {
    async list (filters: AdminUserFilters, page: number, limit: number) {
      const { items, total, hasNext } = await repo.list(fastify.db, filters, page, limit, LOCKOUT_SECONDS, ADMIN_USER_COUNT_CAP)
      return { users: items, pagination: pagination(page, limit, total, { hasNext, totalExact: total < ADMIN_USER_COUNT_CAP }) }
    },

    detail,

    /**
     * Changes active, verified and plan under the user's row lock; only what differs is written. A plan must be one
     * of the plans (planService.all()); changing it also starts the subscription row over on the new plan.
     */
    async update (userId: string, patch: AdminUserPatch): Promise<AdminUserDetailView> {
      const changes = await fastify.transaction(async tx => {
        const current = await repo.lockState(tx, userId)
        if (current == null) throw new UserNotFound()
        const changes: AdminUserChanges = {}
        if (patch.active !== undefined && patch.active !== current.active) changes.active = patch.active
        if (patch.verified !== undefined && patch.verified !== current.verified) changes.verified = patch.verified
        if (patch.planId !== undefined && patch.planId !== current.planId) {
          // Held until commit: a plan deleted meanwhile cannot leave the user on it.
          if (!(await fastify.planService.holdOffered(tx, patch.planId))) throw new UnknownPlan()
          changes.planId = patch.planId
          await repo.setSubscriptionPlan(tx, userId, patch.planId)
        }
        await repo.update(tx, userId, changes)
        return changes
      })
      if (changes.active !== undefined) await fastify.invalidateAuthState(userId)
      return await detail(userId)
    },

    async ban (userId: string, reason: string): Promise<AdminUserDetailView> {
      return await change(userId, async db => await repo.ban(db, userId, reason.trim()), true)
    },

    async unban (userId: string): Promise<AdminUserDetailView> {
      return await change(userId, async db => await repo.unban(db, userId), true)
    },

    /** Ends a sign-in lock (too many wrong passwords) so the user may sign in again at once. */
    async unlock (userId: string): Promise<AdminUserDetailView> {
      return await change(userId, async db => await repo.unlock(db, userId), false)
    },

    /**
     * For report actions, in the caller's transaction: ban or deactivate (false: no such user). The caller calls
     * `fastify.invalidateAuthState(userId)` once its transaction has committed.
     */
    async banIn (tx: Db, userId: string, reason: string): Promise<boolean> {
      return await repo.ban(tx, userId, reason)
    },

    async deactivateIn (tx: Db, userId: string): Promise<boolean> {
      return await repo.deactivate(tx, userId)
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('adminUsersService', createAdminUsersService(fastify))
}, { name: 'admin-users-service', dependencies: ['admin-users-repository', 'plan-service', 'auth'] })
