// Follows: idempotent; following yourself is refused.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { described, ErrorRef } from '../../../schemas/common.js'
import { FollowState, UnfollowState, UserParams } from '../../../schemas/social.js'

const follows: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.followService

  fastify.post('/users/:userId/follow', {
    schema: {
      operationId: 'social.follow',
      summary: 'Follow a user (repeating is harmless)',
      description: 'Takes the user\'s id (`id` of a user object), not the username. Only active users can be followed (404 otherwise); following yourself is 400. The user is notified at most once an hour per follower.',
      params: UserParams,
      response: { 200: described('Following, with the user\'s follower count', FollowState), 400: ErrorRef, 404: ErrorRef }
    }
  }, async request => await service.follow(currentUser(request), request.params.userId))

  fastify.delete('/users/:userId/follow', {
    schema: {
      operationId: 'social.unfollow',
      summary: 'Stop following a user (repeating is harmless)',
      description: 'Takes the user\'s id. Also works for a user deactivated or banned since you followed them; `followerCount` is then null.',
      params: UserParams,
      response: { 200: described('Not following (any more)', UnfollowState), 404: ErrorRef }
    }
  }, async request => await service.unfollow(currentUser(request).id, request.params.userId))
}

export default follows
