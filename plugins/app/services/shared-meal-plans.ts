// Sharing rules: only a plan's owner shares it (a recipient gets 403, anyone else 404), with users (active ones, at
// most 50 a request, never themselves) and with families they belong to (else 404 for the family). Sharing again
// with the same recipient sets the permission and never adds a row (the plan is locked, and the upserts hit the
// partial unique indexes); a plan has at most 100 shares. Each new recipient is notified (`meal_plan_shared`; for a
// family, its members but the sharer). Revoking (owner or sharer) deletes the share, so the next request is refused.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { FamilyNotFound, MealPlanShareLimitReached, NotShareOwner, SharedMealPlanNotFound, validationError } from '../../../lib/errors.js'
import { MEAL_PLAN_LIMITS, type ShareDirection, type SharedMealPlanInput, type SharedMealPlanView } from '../../../schemas/meal-plans.js'
import type { Page } from '../repositories/recipes.js'

declare module 'fastify' {
  interface FastifyInstance {
    sharedMealPlanService: ReturnType<typeof createSharedMealPlanService>
  }
}

export function createSharedMealPlanService (fastify: FastifyInstance) {
  const { sharedMealPlansRepository: shares, mealPlansRepository: plans, usersRepository: users } = fastify

  return {
    async list (userId: string, direction: ShareDirection, page: number, limit: number): Promise<Page<SharedMealPlanView>> {
      return await shares.list(fastify.db, userId, direction, page, limit)
    },

    /** Shares the plan; answers every share the request names (new or re-shared) and how many are new. */
    async share (sharer: { id: string, username: string }, input: SharedMealPlanInput): Promise<{ shares: SharedMealPlanView[], created: number }> {
      const userIds = input.userIds ?? []
      if (input.familyId == null && userIds.length === 0) throw validationError(['userIds: or familyId is required'])
      const self = userIds.indexOf(sharer.id)
      if (self >= 0) throw validationError([`userIds[${self}]: cannot be yourself`])
      return await fastify.transaction(async tx => {
        // One share request of a plan at a time: the cap is exact and concurrent identical requests add one row.
        await plans.lock(tx, input.mealPlanId)
        const plan = await fastify.mealPlanService.owned(tx, input.mealPlanId, sharer.id)
        if (input.familyId != null && await fastify.familiesRepository.roleOf(tx, input.familyId, sharer.id) == null) throw new FamilyNotFound()
        const unknown: string[] = []
        for (const [i, id] of userIds.entries()) {
          if (await users.activeUser(tx, id) == null) unknown.push(`userIds[${i}]: no active user has this id`)
        }
        if (unknown.length > 0) throw validationError(unknown)

        const share = { mealPlanId: plan.id, sharedBy: sharer.id, permission: input.permission }
        const results = [
          ...(input.familyId == null ? [] : [await shares.upsertFamily(tx, share, input.familyId)]),
          ...await Promise.all(userIds.map(async id => await shares.upsertUser(tx, share, id)))
        ]
        const used = await shares.countForPlan(tx, plan.id)
        if (used > MEAL_PLAN_LIMITS.sharesPerPlan) throw new MealPlanShareLimitReached({ limit: MEAL_PLAN_LIMITS.sharesPerPlan, used: used - results.filter(r => r.created).length })

        const views = await shares.findMany(tx, results.map(r => r.id), sharer.id)
        const created = new Set(results.filter(r => r.created).map(r => r.id))
        for (const view of views.filter(v => created.has(v.id))) {
          const recipients = view.family != null ? await shares.familyMemberIds(tx, view.family.id) : view.user != null ? [view.user.id] : []
          const where = view.family == null ? 'with you' : `with your family "${view.family.name}"`
          for (const recipientId of recipients) {
            await fastify.notificationService.notify(tx, {
              type: 'meal_plan_shared',
              recipientId,
              actorId: sharer.id,
              message: `${sharer.username} shared the meal plan "${plan.name}" ${where}`,
              data: { mealPlanId: plan.id, shareId: view.id, permission: view.permission },
              dedupeKey: `meal_plan_shared:${plan.id}:${recipientId}`
            })
          }
        }
        return { shares: views, created: created.size }
      })
    },

    /**
     * Deletes a share: the plan's owner or the sharer revokes it, and the user it was shared with directly may remove
     * it (nobody can fill your plan list against your will). A family member who sees it gets 403, anyone else 404.
     */
    async revoke (userId: string, id: string): Promise<void> {
      await fastify.transaction(async tx => {
        const share = await shares.find(tx, id, userId)
        if (share == null) throw new SharedMealPlanNotFound()
        if (share.direction !== 'sent' && share.user?.id !== userId) throw new NotShareOwner()
        if (!(await shares.remove(tx, id))) throw new SharedMealPlanNotFound()
      })
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('sharedMealPlanService', createSharedMealPlanService(fastify))
}, {
  name: 'shared-meal-plan-service',
  dependencies: ['shared-meal-plans-repository', 'meal-plans-repository', 'families-repository', 'meal-plan-service', 'users-repository', 'notification-service']
})
