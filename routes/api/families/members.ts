// Membership: the public invite preview, joining by code, leaving, removing members, roles, and replacing the invite
// code. Every route but the preview needs sign-in (per route). A family you do not belong to is 404; a member
// trying an action their role does not allow gets 403.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { currentUser } from '../../../plugins/app/auth.js'
import { described, ErrorRef, Message, ref } from '../../../schemas/common.js'
import {
  FAMILY_LIMITS, FamilyMemberParams, FamilyParams, FamilyPreview, familyResponse, InviteFamilyBody, JoinFamilyBody, MemberRoleBody
} from '../../../schemas/families.js'

const MEMBER_CAP = 'A family holds as many members as the most generous of its owners\' plans allows (`familyMembers`: ' +
  `6 on the free and premium plans, 12 on the family plan), and never more than ${FAMILY_LIMITS.members}.`

const members: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.familyService

  // Invite codes are 32 bits: wrong codes (400, 404) count against the auth limit, so they cannot be enumerated;
  // a right one never does.
  const guesses = {
    config: { failureStatuses: [400, 404] },
    onSend: fastify.rateLimits.authFailures.settle
  }

  fastify.get('/invite/:inviteCode', {
    ...guesses,
    onRequest: fastify.rateLimits.authFailures.reserve,
    schema: {
      operationId: 'families.previewInvite',
      summary: 'What an invite code opens: family name, description and member count (public)',
      description: 'No sign-in needed. Never shows who the members are. The code is 8 hexadecimal characters in either case ' +
        '(400 otherwise); a code no family holds (or one that was replaced) is 404. Wrong codes here and at join count ' +
        'against the auth limit (15 per 15 minutes per address; 429 with `limit: "auth"`); right ones never do.',
      params: Type.Object({ inviteCode: Type.String({ description: '8 hexadecimal characters' }) }),
      response: { 200: Type.Object({ family: ref(FamilyPreview) }, { description: 'The family the code opens' }), 400: ErrorRef, 404: ErrorRef, 429: ErrorRef }
    }
  }, async request => ({ family: await service.preview(request.params.inviteCode) }))

  fastify.post('/join', {
    ...guesses,
    onRequest: [fastify.authenticate, fastify.rateLimits.authFailures.reserve],
    schema: {
      operationId: 'families.join',
      summary: 'Join a family with its invite code',
      description: '201 when you joined (the existing members are notified, type `family_invite`); 200 with the family when ' +
        'you already belong to it (nothing changes, even for the same request sent twice at once). You join as a member. ' +
        `${MEMBER_CAP} Full: 403 with limit and used. You may belong to at most ${FAMILY_LIMITS.perUser} families ` +
        '(403 with limit and used). Malformed code: 400; a code no family holds: 404.',
      body: JoinFamilyBody,
      response: {
        200: familyResponse('Already a member: the family'),
        201: familyResponse('Joined: the family'),
        403: ErrorRef,
        404: ErrorRef,
        429: ErrorRef
      }
    }
  }, async (request, reply) => {
    const { joined, family } = await service.join(currentUser(request), request.body.inviteCode)
    return await reply.code(joined ? 201 : 200).send({ family })
  })

  fastify.post('/:familyId/leave', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'families.leave',
      summary: 'Leave a family',
      description: 'The last member leaving deletes the family (`familyDeleted` true). The last owner cannot leave while ' +
        'other members remain (409): make another member an owner first (PUT /api/families/{familyId}/members/{userId}).',
      params: FamilyParams,
      response: {
        200: Type.Object({ message: Type.String(), familyDeleted: Type.Boolean() }, { description: 'You left the family' }),
        404: ErrorRef,
        409: ErrorRef
      }
    }
  }, async request => {
    const { familyDeleted } = await service.leave(currentUser(request).id, request.params.familyId)
    return { message: familyDeleted ? 'You left the family; it had no other members and was deleted' : 'You left the family', familyDeleted }
  })

  fastify.put('/:familyId/members/:userId', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'families.setMemberRole',
      summary: 'Change a member\'s role (owners)',
      description: 'Making another member an owner hands ownership over (a family may have several owners, all equal: ' +
        'an owner may change another owner\'s role). Your own role can change only while another owner remains (409). ' +
        'Admins and members get 403; someone not in the family is 404.',
      params: FamilyMemberParams,
      body: MemberRoleBody,
      response: { 200: familyResponse('The family with the new roles'), 403: ErrorRef, 404: ErrorRef, 409: ErrorRef }
    }
  }, async request => {
    const { familyId, userId } = request.params
    return { family: await service.setRole(currentUser(request).id, familyId, userId, request.body.role) }
  })

  fastify.delete('/:familyId/members/:userId', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'families.removeMember',
      summary: 'Remove a member (owners: anyone else; admins: plain members)',
      description: 'To remove yourself, leave (400 here). Members get 403, and so do admins removing an owner or an admin; ' +
        'someone not in the family is 404.',
      params: FamilyMemberParams,
      response: { 200: described('Removed', Message), 400: ErrorRef, 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => {
    const { familyId, userId } = request.params
    await service.removeMember(currentUser(request).id, familyId, userId)
    return { message: 'Member removed' }
  })

  fastify.post('/:familyId/invitations', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'families.invite',
      summary: 'Email the invite code to someone (owners and admins)',
      description: 'Sends an invitation with the family\'s name and invite code to the address, whether or not it belongs ' +
        'to an account (the answer is the same either way). Members get 403; someone not in the family is 404. At most ' +
        `${FAMILY_LIMITS.invitesPerDay} invitations a day per sender (429).`,
      params: FamilyParams,
      body: InviteFamilyBody,
      response: { 200: described('Invitation sent', Message), 403: ErrorRef, 404: ErrorRef, 429: ErrorRef }
    }
  }, async request => {
    await service.invite(currentUser(request), request.params.familyId, request.body.email)
    return { message: 'Invitation sent' }
  })

  fastify.post('/:familyId/invite-code', {
    onRequest: fastify.authenticate,
    schema: {
      operationId: 'families.regenerateInviteCode',
      summary: 'Replace the invite code (owners and admins)',
      description: 'A fresh random code (8 lowercase hexadecimal characters, unique); the old one stops working at once. ' +
        'Members get 403.',
      params: FamilyParams,
      response: { 200: familyResponse('The family with its new invite code'), 403: ErrorRef, 404: ErrorRef }
    }
  }, async request => ({ family: await service.regenerateInviteCode(currentUser(request).id, request.params.familyId) }))
}

export default members
