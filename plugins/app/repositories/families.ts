// Families and their members (one family_members row per member, with its role). Reads of a family go through the
// caller's membership: a family is only ever read as seen by one of its members (or, by invite code, as a preview).
import fp from 'fastify-plugin'
import type { families, FamilyRole, familyMembers, users } from '../../../db/schema/index.js'
import { FAMILY_LIMITS, type FamilyMemberView, type FamilyPreviewView, type FamilySummaryView } from '../../../schemas/families.js'
import type { Db } from '../../external/db.js'
import { familiesOf } from './household-access.js'
import type { Page } from './recipes.js'
import type { Counted } from './sql.js'

declare module 'fastify' {
  interface FastifyInstance {
    familiesRepository: typeof familiesRepository
  }
}

type FamilyColumns = Pick<typeof families.$inferSelect, 'id' | 'name' | 'description' | 'inviteCode' | 'createdAt' | 'updatedAt'>
type MembershipColumns = Pick<typeof familyMembers.$inferSelect, 'role' | 'joinedAt'>

/** A family as one member sees it: every column, that member's role and joining time, and the member count. */
export type FamilyRecord = FamilyColumns & MembershipColumns & Pick<FamilySummaryView, 'memberCount'>
export type NewFamily = Pick<typeof families.$inferInsert, 'id' | 'name' | 'description' | 'inviteCode' | 'createdBy'>
export type FamilyChanges = Partial<Pick<typeof families.$inferInsert, 'name' | 'description'>>

type MemberRow = Pick<typeof users.$inferSelect, 'id' | 'username' | 'firstName' | 'lastName' | 'avatarUrl'> & MembershipColumns

/** The family `f` joined with the membership `me` of the viewer. */
const familyColumns = (db: Db) => db`f.id, f.name, f.description, f.invite_code, f.created_at, f.updated_at, me.role, me.joined_at,
  (select count(*)::int from family_members m where m.family_id = f.id) as member_count`

const member = (row: MemberRow): FamilyMemberView => ({
  id: row.id,
  username: row.username,
  firstName: row.firstName,
  lastName: row.lastName,
  avatarUrl: row.avatarUrl,
  role: row.role,
  joinedAt: row.joinedAt.toISOString()
})

export const familiesRepository = {
  /** A page of the families the user belongs to, in the order they joined them. */
  async listFor (db: Db, userId: string, pageNo: number, limit: number): Promise<Page<FamilyRecord>> {
    const [items, [{ total }]] = await Promise.all([
      db<FamilyRecord[]>`select ${familyColumns(db)} from family_members me join families f on f.id = me.family_id
        where me.user_id = ${userId} order by me.joined_at, f.id limit ${limit} offset ${(pageNo - 1) * limit}`,
      db<Array<Counted<'total'>>>`select count(*)::int as total from families f where f.id in ${familiesOf(db, userId)}`
    ])
    return { items, total }
  },

  /** The family as `userId` sees it, or null when they are not a member (or it does not exist). */
  async find (db: Db, id: string, userId: string): Promise<FamilyRecord | null> {
    const [row] = await db<FamilyRecord[]>`select ${familyColumns(db)} from family_members me join families f on f.id = me.family_id
      where me.family_id = ${id} and me.user_id = ${userId}`
    return row ?? null
  },

  /** Every member (bounded by the member cap): owners, admins, then members, each by joining time. */
  async members (db: Db, familyId: string): Promise<FamilyMemberView[]> {
    const rows = await db<MemberRow[]>`select u.id, u.username, u.first_name, u.last_name, u.avatar_url, m.role, m.joined_at
      from family_members m join users u on u.id = m.user_id
      where m.family_id = ${familyId}
      order by case m.role when 'owner' then 0 when 'admin' then 1 else 2 end, m.joined_at, u.id
      limit ${FAMILY_LIMITS.members}`
    return rows.map(member)
  },

  /** The family's public preview by invite code (stored lowercase). */
  async preview (db: Db, inviteCode: string): Promise<FamilyPreviewView | null> {
    const [row] = await db<Array<Pick<typeof families.$inferSelect, 'name' | 'description'> & Pick<FamilyPreviewView, 'memberCount'>>>`select f.name, f.description,
      (select count(*)::int from family_members m where m.family_id = f.id) as member_count
      from families f where f.invite_code = ${inviteCode}`
    return row ?? null
  },

  /** Locks the family's row for the rest of the transaction (membership changes apply one after the other); null if it is gone. */
  async lock (db: Db, id: string): Promise<{ id: string, name: string } | null> {
    const [row] = await db<Array<Pick<FamilyColumns, 'id' | 'name'>>>`select id, name from families where id = ${id} for update`
    return row ?? null
  },

  /**
   * Locks the family that holds this invite code (stored lowercase) right now: a code replaced while the caller waited
   * for the lock no longer matches.
   */
  async lockByInviteCode (db: Db, inviteCode: string): Promise<{ id: string, name: string } | null> {
    const [row] = await db<Array<Pick<FamilyColumns, 'id' | 'name'>>>`select id, name from families where invite_code = ${inviteCode} for update`
    return row ?? null
  },

  /** The user's role in the family, or null when they are not a member. */
  async roleOf (db: Db, familyId: string, userId: string): Promise<FamilyRole | null> {
    const [row] = await db<Array<Pick<MembershipColumns, 'role'>>>`select role from family_members where family_id = ${familyId} and user_id = ${userId}`
    return row?.role ?? null
  },

  /** How many members and owners the family has. */
  async counts (db: Db, familyId: string): Promise<{ members: number, owners: number }> {
    const [row] = await db<Array<Counted<'members' | 'owners'>>>`select count(*)::int as members,
      (count(*) filter (where role = 'owner'))::int as owners from family_members where family_id = ${familyId}`
    return row
  },

  async memberIds (db: Db, familyId: string): Promise<string[]> {
    const rows = await db<Array<Pick<typeof familyMembers.$inferSelect, 'userId'>>>`select user_id from family_members where family_id = ${familyId}`
    return rows.map(r => r.userId)
  },

  async ownerIds (db: Db, familyId: string): Promise<string[]> {
    const rows = await db<Array<Pick<typeof familyMembers.$inferSelect, 'userId'>>>`select user_id from family_members where family_id = ${familyId} and role = 'owner'`
    return rows.map(r => r.userId)
  },

  /** How many families the user belongs to. */
  async countFor (db: Db, userId: string): Promise<number> {
    const [{ n }] = await db<Array<Counted<'n'>>>`select count(*)::int as n from family_members where user_id = ${userId}`
    return n
  },

  /** Inserts the family; a clash of invite codes raises the unique violation (families_invite_code_idx). */
  async insert (db: Db, family: NewFamily): Promise<void> {
    await db`insert into families ${db(family)}`
  },

  async update (db: Db, id: string, changes: FamilyChanges): Promise<void> {
    const set = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined))
    if (Object.keys(set).length === 0) return
    await db`update families set ${db(set)}, updated_at = now() where id = ${id}`
  },

  /** Replaces the invite code; a clash raises the unique violation (families_invite_code_idx). */
  async setInviteCode (db: Db, id: string, inviteCode: string): Promise<void> {
    await db`update families set invite_code = ${inviteCode}, updated_at = now() where id = ${id}`
  },

  /** Deletes the family; its members, shares and links go with it (foreign keys). */
  async remove (db: Db, id: string): Promise<void> {
    await db`delete from families where id = ${id}`
  },

  /** Adds the member; false when they already were one (never a second row). */
  async addMember (db: Db, familyId: string, userId: string, role: FamilyRole): Promise<boolean> {
    const rows = await db`insert into family_members (family_id, user_id, role) values (${familyId}, ${userId}, ${role})
      on conflict do nothing returning 1`
    return rows.length > 0
  },

  /**
   * Ends a membership, and with it what the member shared with the family: their meal-plan shares to it are withdrawn
   * and their grocery lists unshared (a former member's plans and lists are no longer the family's to read or edit).
   */
  async removeMember (db: Db, familyId: string, userId: string): Promise<boolean> {
    const rows = await db`delete from family_members where family_id = ${familyId} and user_id = ${userId} returning 1`
    await db`delete from shared_meal_plans where family_id = ${familyId} and shared_by = ${userId}`
    await db`update grocery_lists set family_id = null, updated_at = now() where family_id = ${familyId} and user_id = ${userId}`
    return rows.length > 0
  },

  async setRole (db: Db, familyId: string, userId: string, role: FamilyRole): Promise<void> {
    await db`update family_members set role = ${role} where family_id = ${familyId} and user_id = ${userId}`
  }
}

export default fp(async fastify => {
  fastify.decorate('familiesRepository', familiesRepository)
}, { name: 'families-repository' })
