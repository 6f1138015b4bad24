// Family rules. A family is seen by its members only (anyone else gets 404; the invite code opens a preview without
// member identities). Roles: owners change everything (details, roles, deletion) and may remove anyone but themselves;
// admins regenerate the invite code and remove plain members; members see the family and may leave. A family always
// keeps an owner while it has members: the last owner hands over (promotes someone to owner) before leaving or stepping
// down, and the last member leaving deletes it. Every membership change locks the family's row first, so caps and
// the owner rule are exact under concurrency; joining locks the joining user's row before it (the per-user cap).
import { randomBytes } from 'node:crypto'
import { createId } from '@paralleldrive/cuid2'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { FamilyRole } from '../../../db/schema/index.js'
import {
  CannotRemoveSelfFromFamily, FamilyManagerRemoval, FamilyMemberLimitReached, FamilyMembershipLimitReached, FamilyMemberNotFound,
  FamilyNotFound, InviteCodeNotFound, isUniqueViolation, LastOwnerCannotLeave, LastOwnerCannotStepDown, NotFamilyManager,
  NotFamilyOwner, validationError
} from '../../../lib/errors.js'
import { normalizeEmail } from '../../../lib/identity.js'
import {
  FAMILY_LIMITS, INVITE_CODE, INVITE_CODE_PROBLEM, type FamilyInput, type FamilyPreviewView, type FamilySummaryView, type FamilyView
} from '../../../schemas/families.js'
import type { AuthUser } from '../auth.js'
import type { Db } from '../../external/db.js'
import type { FamilyRecord } from '../repositories/families.js'
import type { Page } from '../repositories/recipes.js'
import { FALLBACK_PLANS, type Plan } from './plans.js'

declare module 'fastify' {
  interface FastifyInstance {
    familyService: ReturnType<typeof createFamilyService>
  }
}

/** Fresh codes tried when one is already taken (4 random bytes: a clash is rare, several in a row never happen). */
const CODE_ATTEMPTS = 5
const INVITE_CODE_INDEX = 'families_invite_code_idx'

/** 8 lowercase hexadecimal characters from the system's secure random source. */
export const newInviteCode = () => randomBytes(4).toString('hex')

const isCodeClash = (err: unknown) => isUniqueViolation(err) && typeof err === 'object' && err != null &&
  'constraint_name' in err && err.constraint_name === INVITE_CODE_INDEX

function nameOf (name: string): string {
  const trimmed = name.trim()
  if (trimmed === '') throw validationError(['name: must not be blank'])
  return trimmed
}

/** The code as stored (lowercase), or 400 when it is not 8 hexadecimal characters. */
function inviteCodeOf (code: string): string {
  if (!INVITE_CODE.test(code)) throw validationError([`inviteCode: ${INVITE_CODE_PROBLEM}`])
  return code.toLowerCase()
}

/** What a member sees: the invite code only when they may hand it out (owners and admins). */
function present (record: FamilyRecord): FamilySummaryView {
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    inviteCode: record.role === 'member' ? null : record.inviteCode,
    memberCount: record.memberCount,
    role: record.role,
    joinedAt: record.joinedAt.toISOString(),
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString()
  }
}

/**
 * The member cap of a family whose owners are on these plans: the most generous owner's `familyMembers` (null or absent:
 * no plan cap), never above FAMILY_LIMITS.members.
 */
export function memberCap (ownerPlans: Plan[]): number {
  const caps = ownerPlans.map(plan => Math.min(plan.limits.familyMembers ?? FAMILY_LIMITS.members, FAMILY_LIMITS.members))
  return caps.length === 0 ? FAMILY_LIMITS.members : Math.max(...caps)
}

export function createFamilyService (fastify: FastifyInstance) {
  const { familiesRepository: families, usersRepository: users } = fastify

  async function get (id: string, userId: string, db: Db = fastify.db): Promise<FamilyView> {
    const record = await families.find(db, id, userId)
    if (record == null) throw new FamilyNotFound()
    return { ...present(record), members: await families.members(db, id) }
  }

  /** Locks the family and answers the caller's role in it; 404 when it is gone or they are not a member. */
  async function lockAs (tx: Db, id: string, userId: string): Promise<FamilyRole> {
    const family = await families.lock(tx, id)
    const role = family == null ? null : await families.roleOf(tx, id, userId)
    if (role == null) throw new FamilyNotFound()
    return role
  }

  /** Runs `work` with a fresh invite code, again with another when the code turns out to be taken. */
  async function withFreshCode<T> (work: (code: string) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work(newInviteCode())
      } catch (err) {
        if (!isCodeClash(err) || attempt >= CODE_ATTEMPTS) throw err
      }
    }
  }

  /** 403 when the user (whose row the caller locked) already belongs to as many families as allowed. */
  async function assertMayBelongToAnother (tx: Db, userId: string): Promise<void> {
    const used = await families.countFor(tx, userId)
    if (used >= FAMILY_LIMITS.perUser) throw new FamilyMembershipLimitReached({ limit: FAMILY_LIMITS.perUser, used })
  }

  /** The family's member cap from its owners' plans (a family left without owners counts as on the free plan). */
  async function memberLimit (tx: Db, familyId: string): Promise<number> {
    const owners = await families.ownerIds(tx, familyId)
    if (owners.length === 0) return memberCap([(await fastify.planService.all(tx)).find(p => p.id === 'free') ?? FALLBACK_PLANS[0]])
    return memberCap(await Promise.all(owners.map(async ownerId => await fastify.planService.forUser(ownerId, tx))))
  }

  return {
    get,

    async list (userId: string, page: number, limit: number): Promise<Page<FamilySummaryView>> {
      const { items, total } = await families.listFor(fastify.db, userId, page, limit)
      return { items: items.map(present), total }
    },

    /** Creates the family with the creator as its owner. */
    async create (userId: string, input: FamilyInput & { name: string }): Promise<FamilyView> {
      const id = createId()
      const name = nameOf(input.name)
      await withFreshCode(async inviteCode => await fastify.transaction(async tx => {
        await users.lock(tx, userId)
        await assertMayBelongToAnother(tx, userId)
        await families.insert(tx, { id, name, description: input.description ?? null, inviteCode, createdBy: userId })
        await families.addMember(tx, id, userId, 'owner')
      }))
      return await get(id, userId)
    },

    /** Renames or describes the family (owners). */
    async update (userId: string, id: string, input: FamilyInput): Promise<FamilyView> {
      return await fastify.transaction(async tx => {
        if (await lockAs(tx, id, userId) !== 'owner') throw new NotFamilyOwner()
        await families.update(tx, id, { name: input.name === undefined ? undefined : nameOf(input.name), description: input.description })
        return await get(id, userId, tx)
      })
    },

    /** Deletes the family for everyone (owners). */
    async remove (userId: string, id: string): Promise<void> {
      await fastify.transaction(async tx => {
        if (await lockAs(tx, id, userId) !== 'owner') throw new NotFamilyOwner()
        await families.remove(tx, id)
      })
    },

    /** Replaces the invite code (owners and admins): the old one stops working at once. */
    async regenerateInviteCode (userId: string, id: string): Promise<FamilyView> {
      return await withFreshCode(async inviteCode => await fastify.transaction(async tx => {
        if (await lockAs(tx, id, userId) === 'member') throw new NotFamilyManager()
        await families.setInviteCode(tx, id, inviteCode)
        return await get(id, userId, tx)
      }))
    },

    /**
     * Emails the family's invite code to an address (owners and admins), whether or not it has an account; the answer
     * is the same either way. At most FAMILY_LIMITS.invitesPerDay a day per inviter (the cache counts them).
     */
    async invite (user: AuthUser, id: string, emailInput: string): Promise<void> {
      const email = normalizeEmail(emailInput)
      await fastify.transaction(async tx => {
        if (await lockAs(tx, id, user.id) === 'member') throw new NotFamilyManager()
        // The same invitation again within a day (a double click, a retry) sends nothing more.
        const sentKey = `family-invited:${id}:${email}`
        if (!(await fastify.cache.add(sentKey, 1, 24 * 60 * 60))) return
        try {
          await fastify.rateLimits.perUser('family-invites', user.id, FAMILY_LIMITS.invitesPerDay, 24 * 60 * 60)
        } catch (err) {
          await fastify.cache.del(sentKey)
          throw err
        }
        const family = await get(id, user.id, tx)
        const recipient = await users.findForLogin(tx, { email })
        await fastify.emailService.familyInvite(tx, { email, userId: recipient?.id ?? null }, {
          inviter: user.username, familyName: family.name, inviteCode: family.inviteCode!
        })
      })
    },

    /** Name, description and member count of the family holding the code (no sign-in, no member identities). */
    async preview (inviteCode: string): Promise<FamilyPreviewView> {
      const preview = await families.preview(fastify.db, inviteCodeOf(inviteCode))
      if (preview == null) throw new InviteCodeNotFound()
      return preview
    },

    /**
     * Joins as a member and tells the existing members. Joining a family you are in changes nothing (`joined` false).
     * The caps (families per user, members per family from the owners' plans) are checked under the locks.
     */
    async join (user: AuthUser, inviteCode: string): Promise<{ joined: boolean, family: FamilyView }> {
      const code = inviteCodeOf(inviteCode)
      return await fastify.transaction(async tx => {
        await users.lock(tx, user.id)
        const family = await families.lockByInviteCode(tx, code)
        if (family == null) throw new InviteCodeNotFound()
        if (await families.roleOf(tx, family.id, user.id) != null) return { joined: false, family: await get(family.id, user.id, tx) }
        await assertMayBelongToAnother(tx, user.id)
        const [limit, recipients] = await Promise.all([memberLimit(tx, family.id), families.memberIds(tx, family.id)])
        if (recipients.length >= limit) throw new FamilyMemberLimitReached({ limit, used: recipients.length })
        await families.addMember(tx, family.id, user.id, 'member')
        for (const recipientId of recipients) {
          await fastify.notificationService.notify(tx, {
            type: 'family_invite',
            recipientId,
            actorId: user.id,
            message: `${user.username} joined your family "${family.name}"`,
            data: { familyId: family.id, event: 'member_joined' },
            dedupeKey: `family-join:${family.id}:${user.id}:${recipientId}`
          })
        }
        return { joined: true, family: await get(family.id, user.id, tx) }
      })
    },

    /** Leaves the family; the last member leaving deletes it. The last owner must hand over first while others remain. */
    async leave (userId: string, id: string): Promise<{ familyDeleted: boolean }> {
      return await fastify.transaction(async tx => {
        const role = await lockAs(tx, id, userId)
        const { members, owners } = await families.counts(tx, id)
        if (members === 1) {
          await families.remove(tx, id)
          return { familyDeleted: true }
        }
        if (role === 'owner' && owners === 1) throw new LastOwnerCannotLeave()
        await families.removeMember(tx, id, userId)
        return { familyDeleted: false }
      })
    },

    /** Owners remove anyone but themselves; admins remove plain members only. */
    async removeMember (userId: string, id: string, memberId: string): Promise<void> {
      await fastify.transaction(async tx => {
        const role = await lockAs(tx, id, userId)
        if (role === 'member') throw new NotFamilyManager()
        if (memberId === userId) throw new CannotRemoveSelfFromFamily()
        const target = await families.roleOf(tx, id, memberId)
        if (target == null) throw new FamilyMemberNotFound()
        if (role === 'admin' && target !== 'member') throw new FamilyManagerRemoval()
        await families.removeMember(tx, id, memberId)
      })
    },

    /** Sets a member's role (owners). Making someone an owner is how ownership is handed over. */
    async setRole (userId: string, id: string, memberId: string, newRole: FamilyRole): Promise<FamilyView> {
      return await fastify.transaction(async tx => {
        if (await lockAs(tx, id, userId) !== 'owner') throw new NotFamilyOwner()
        const target = await families.roleOf(tx, id, memberId)
        if (target == null) throw new FamilyMemberNotFound()
        if (memberId === userId && newRole !== 'owner' && (await families.counts(tx, id)).owners === 1) throw new LastOwnerCannotStepDown()
        if (target !== newRole) await families.setRole(tx, id, memberId, newRole)
        return await get(id, userId, tx)
      })
    }
  }
}

export default fp(async fastify => {
  fastify.decorate('familyService', createFamilyService(fastify))
}, { name: 'family-service', dependencies: ['families-repository', 'users-repository', 'plan-service', 'notification-service', 'email-service', 'cache', 'rate-limit'] })
