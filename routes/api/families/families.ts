// Families: create, list yours, read one with its members, rename or describe, delete. Every route needs sign-in
// (per route: the invite preview in members.ts is public). A family you do not belong to is 404; a member trying an
// owner's action gets 403.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { described, ErrorRef, Message, pagination, Pagination, PaginationQuery, ref } from '../../../schemas/common.js'
import { FAMILY_LIMITS, FamilyBody, FamilyParams, FamilyPatchBody, familyResponse as One, FamilySummary } from '../../../schemas/families.js'

const TEXT_BOUNDS = `Names are trimmed, must not be blank and hold at most ${FAMILY_LIMITS.name} characters; descriptions at most ` +
  `${FAMILY_LIMITS.description} (400 beyond).`
const PER_USER = `You may belong to at most ${FAMILY_LIMITS.perUser} families (403 with limit and used).`
const INVITE_CODE = 'The invite code is shown to owners and admins only (null for plain members).'

const families: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.familyService

  fastify.get('/', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'families.list',
      summary: 'A page of the families you belong to, in the order you joined them',
      description: `Each with your role and the member count; the members are in GET /api/families/{familyId}. ${INVITE_CODE} ` +
        `You belong to at most ${FAMILY_LIMITS.perUser} families.`,
      querystring: PaginationQuery,
      response: {
        200: Type.Object({ families: Type.Array(ref(FamilySummary)), pagination: ref(Pagination) }, { description: 'A page of your families' })
      }
    }
  }, async request => {
    const { page, limit } = request.query
    const { items, total } = await service.list(currentUser(request).id, page, limit)
    return { families: items, pagination: pagination(page, limit, total) }
  })

  fastify.post('/', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'families.create',
      summary: 'Create a family (you are its owner)',
      description: `The family gets a fresh invite code (8 lowercase hexadecimal characters) to share. ${TEXT_BOUNDS} ${PER_USER}`,
      body: FamilyBody,
      response: { 201: One('The new family, with you as its owner'), 403: ErrorRef }
    }
  }, async (request, reply) => {
    const family = await service.create(currentUser(request).id, request.body)
    return await reply.code(201).send({ family })
  })

  fastify.get('/:familyId', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'families.get',
      summary: 'A family you belong to, with its members',
      description: `Members come with their role and joining time (a family holds at most ${FAMILY_LIMITS.members}). ${INVITE_CODE} ` +
        'A family you do not belong to is 404.',
      params: FamilyParams,
      response: { 200: One('The family'), 404: ErrorRef }
    }
  }, async request => ({ family: await service.get(request.params.familyId, currentUser(request).id) }))

  fastify.put('/:familyId', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'families.update',
      summary: 'Rename or describe a family (owners)',
      description: `Fields left out stay as they are; a null description clears it. ${TEXT_BOUNDS} Admins and members get 403.`,
      params: FamilyParams,
      body: FamilyPatchBody,
      response: { 200: One('The family as saved'), 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => ({ family: await service.update(currentUser(request).id, request.params.familyId, request.body) }))

  fastify.delete('/:familyId', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'families.delete',
      summary: 'Delete a family for everyone (owners)',
      description: 'Its memberships and the meal-plan shares with it go too; grocery lists shared with it stay with their owners. ' +
        'Admins and members get 403.',
      params: FamilyParams,
      response: { 200: described('Deleted', Message), 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => {
    await service.remove(currentUser(request).id, request.params.familyId)
    return { message: 'Family deleted' }
  })
}

export default families
