// Feature flags: list, create or change (PUT, by key), delete. planService.isEnabled reads the table on every call,
// so a change applies at once.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  FeatureFlagBody, FeatureFlagList, FeatureFlagParams, FeatureFlagResponse
} from '../../../../schemas/admin-plans.js'
import { described, ErrorRef, Message } from '../../../../schemas/common.js'

const featureFlags: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.planService

  fastify.get('/', {
    schema: {
      operationId: 'admin.featureFlags.list',
      summary: 'Every feature flag',
      description: 'Not paged: the handful of flags the code checks, by key.',
      response: { 200: FeatureFlagList }
    }
  }, async () => ({ featureFlags: await service.flags() }))

  fastify.put('/', {
    schema: {
      operationId: 'admin.featureFlags.save',
      summary: 'Create or change a feature flag',
      description: 'Upsert by `key`. A flag is on for a user when it is enabled and the user is in `userIds`, or on one ' +
        'of `plans` (null: any plan) and inside `rolloutPercentage` (a stable bucket per user and flag). Fields left ' +
        'out keep their stored value; a new flag starts with every plan, 100% and no users. `plans` must name ' +
        'existing plans (400 otherwise). Takes effect at once.',
      body: FeatureFlagBody,
      response: {
        200: described('The flag as saved (it existed)', FeatureFlagResponse),
        201: described('The new flag', FeatureFlagResponse)
      }
    }
  }, async (request, reply) => {
    const { featureFlag, created } = await service.saveFlag(request.body)
    return await reply.code(created ? 201 : 200).send({ featureFlag })
  })

  fastify.delete('/:key', {
    schema: {
      operationId: 'admin.featureFlags.delete',
      summary: 'Delete a feature flag',
      description: 'An unknown flag is off for everyone, so deleting a flag turns its feature off.',
      params: FeatureFlagParams,
      response: { 200: described('Deleted', Message), 404: ErrorRef }
    }
  }, async request => {
    await service.deleteFlag(request.params.key)
    return { message: 'Feature flag deleted' }
  })
}

export default featureFlags
