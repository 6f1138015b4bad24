// Follows: idempotent; following yourself is refused.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { HttpError } from '../../../lib/errors.js'
import { currentUser } from '../../../plugins/app/auth.js'
import { ErrorRef, Id } from '../../../schemas/common.js'

const Params = Type.Object({ userId: Id })
const FollowState = Type.Object({ following: Type.Boolean(), followerCount: Type.Integer({ minimum: 0 }) })

const follows: FastifyPluginAsyncTypebox = async fastify => {
  const social = fastify.socialRepository

  async function target (userId: string) {
    const state = await fastify.usersRepository.authState(userId)
    if (state == null || !state.active || state.banned) throw new HttpError(404, 'User not found')
    return state
  }

  fastify.post('/users/:userId/follow', {
    onRequest: fastify.authenticate,
    schema: { summary: 'Follow a user (repeating is harmless)', params: Params, response: { 200: FollowState, 400: ErrorRef, 404: ErrorRef } }
  }, async request => {
    const user = currentUser(request)
    if (request.params.userId === user.id) throw new HttpError(400, 'You cannot follow yourself')
    const followed = await target(request.params.userId)
    const { added } = await social.follow(user.id, followed.id)
    if (added) {
      fastify.notify({
        type: 'follow',
        recipientId: followed.id,
        actorId: user.id,
        message: `${user.username} started following you`,
        dedupeKey: `follow:${user.id}:${followed.id}`
      })
    }
    return { following: true, followerCount: await social.followerCount(followed.id) }
  })

  fastify.delete('/users/:userId/follow', {
    onRequest: fastify.authenticate,
    schema: { summary: 'Stop following a user (repeating is harmless)', params: Params, response: { 200: FollowState, 404: ErrorRef } }
  }, async request => {
    const user = currentUser(request)
    const followed = await target(request.params.userId)
    await social.unfollow(user.id, followed.id)
    return { following: false, followerCount: await social.followerCount(followed.id) }
  })
}

export default follows
