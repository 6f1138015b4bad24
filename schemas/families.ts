// Families (households): a family seen by one of its members (with the caller's role), its members, and the public
// preview an invite code opens. Invite codes are shown to owners and admins only.
import { Type, type Static } from 'typebox'
import { FAMILY_ROLES } from '../db/schema/households.js'
import { DateTime, Id, Nullable, ref, StringEnum } from './common.js'

export const FAMILY_LIMITS = {
  name: 100,
  description: 2000,
  /** Members of one family whatever the owners' plans say (the plans' `familyMembers` may set less). */
  members: 50,
  /** Families one user may belong to (created or joined). */
  perUser: 20,
  /** Invitation emails one owner or admin may send a day. */
  invitesPerDay: 20
} as const

/** Invite codes are stored as 8 lowercase hex characters; input is accepted in either case. */
export const INVITE_CODE = /^[0-9a-fA-F]{8}$/
export const INVITE_CODE_PROBLEM = 'must be 8 hexadecimal characters'

const Role = StringEnum(FAMILY_ROLES, {
  description: 'owner: everything, including changing roles and deleting the family; admin: regenerates the invite code ' +
    'and removes plain members; member: sees the family'
})

export const FamilyMember = Type.Object({
  id: Id,
  username: Type.String(),
  firstName: Nullable(Type.String()),
  lastName: Nullable(Type.String()),
  avatarUrl: Nullable(Type.String()),
  role: Role,
  joinedAt: DateTime
}, { $id: 'FamilyMember', description: 'A member of the family (the user id is `id`)' })
export type FamilyMemberView = Static<typeof FamilyMember>

const familyFields = {
  id: Id,
  name: Type.String(),
  description: Nullable(Type.String()),
  inviteCode: Nullable(Type.String({ pattern: '^[0-9a-f]{8}$' }), {
    description: 'Shown to owners and admins only (null for plain members): anyone with it can join. ' +
      'Owners and admins may replace it (POST /api/families/{familyId}/invite-code), which stops the old one working.'
  }),
  memberCount: Type.Integer({ minimum: 1 }),
  role: StringEnum(FAMILY_ROLES, { description: 'Your role in the family' }),
  joinedAt: DateTime,
  createdAt: DateTime,
  updatedAt: DateTime
}

export const FamilySummary = Type.Object(familyFields, {
  $id: 'FamilySummary',
  description: 'A family you belong to, with your role and when you joined; its members are in GET /api/families/{familyId}'
})
export type FamilySummaryView = Static<typeof FamilySummary>

export const Family = Type.Object({
  ...familyFields,
  members: Type.Array(ref(FamilyMember), {
    maxItems: FAMILY_LIMITS.members,
    description: `Every member (at most ${FAMILY_LIMITS.members}): owners first, then admins, then members, each by joining time`
  })
}, { $id: 'Family', description: 'A family you belong to, with its members' })
export type FamilyView = Static<typeof Family>

export const FamilyPreview = Type.Object({
  name: Type.String(),
  description: Nullable(Type.String()),
  memberCount: Type.Integer({ minimum: 0 })
}, { $id: 'FamilyPreview', description: 'What an invite code shows before joining: never who the members are' })
export type FamilyPreviewView = Static<typeof FamilyPreview>

const name = Type.String({
  minLength: 1,
  maxLength: FAMILY_LIMITS.name,
  description: `Trimmed; must not be blank; at most ${FAMILY_LIMITS.name} characters`
})
const description = Nullable(Type.String({ maxLength: FAMILY_LIMITS.description, description: `At most ${FAMILY_LIMITS.description} characters; null clears it` }))

export const FamilyBody = Type.Object({ name, description: Type.Optional(description) })
export const FamilyPatchBody = Type.Partial(FamilyBody)
export type FamilyInput = Static<typeof FamilyPatchBody>

export const InviteFamilyBody = Type.Object({
  email: Type.String({ format: 'email', maxLength: 254, description: 'Where the invitation goes (an account is not needed)' })
})

export const JoinFamilyBody = Type.Object({
  inviteCode: Type.String({ pattern: INVITE_CODE.source, description: '8 hexadecimal characters (case does not matter)', examples: ['3fa9c21b'] })
})

export const MemberRoleBody = Type.Object({ role: Role })

/** Path parameters are named for what they take (`{familyId}`, `{userId}`). */
export const FamilyParams = Type.Object({ familyId: Id })
export const FamilyMemberParams = Type.Object({ familyId: Id, userId: Id })

/** `{ family }`, described for one route's success. */
export const familyResponse = (description: string) => Type.Object({ family: ref(Family) }, { description })
