// Follows: idempotent; only active, unbanned users can be followed, never yourself; the followed user is notified
// at most once an hour per follower.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { CannotFollowSelf, UserNotFound } from '../../../lib/errors.js'
import type { FollowStateView, UnfollowStateView } from '../../../schemas/social.js'

declare module 'fastify' {
  interface FastifyInstance {
    followService: ReturnType<typeof createFollowService>
  }
}

export function createFollowService (fastify: FastifyInstance) {
  const follows = fastify.followsRepository

  return {
    async follow (user: { id: string, username: string }, targetId: string): Promise<FollowStateView> {
      if (targetId === user.id) throw new CannotFollowSelf()
      return await fastify.transaction(async tx => {
        const target = await fastify.usersRepository.activeUser(tx, targetId)
        if (target == null) throw new UserNotFound()
        if (await follows.add(tx, user.id, target.id)) {
          await fastify.notificationService.notify(tx, {
            type: 'follow',
            recipientId: target.id,
            actorId: user.id,
            message: `${user.username} started following you`,
            dedupeKey: `follow:${user.id}:${target.id}`
          })
        }
        return { following: true, followerCount: await follows.followerCount(tx, target.id) }
      })
    },

    /**
     * Stops following, also someone deactivated or banned since (their follower count is then not shown). With
     * nothing to remove, a user who is not active is UserNotFound, like an unknown id.
     */
    async unfollow (userId: string, targetId: string): Promise<UnfollowStateView> {
      return await fastify.transaction(async tx => {
        const removed = await follows.remove(tx, userId, targetId)
        const target = await fastify.usersRepository.activeUser(tx, targetId)
        if (target == null && !removed) throw new UserNotFound()
        return { following: false as const, followerCount: target == null ? null : await follows.followerCount(tx, target.id) }
      })
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('followService', createFollowService(fastify))
}, { name: 'follow-service', dependencies: ['follows-repository', 'users-repository', 'notification-service'] })
