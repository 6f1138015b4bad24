// Meal plans, planned meals, shares and the families they are shared with, through the API.
import { randomBytes } from 'node:crypto'
import { createId } from '@paralleldrive/cuid2'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { createFamily as createFamilyThroughApi, joinFamily, type TestFamily } from './families.js'
import { bearer, type TestUser } from './users.js'

type Fields = Record<string, unknown>
/** A created resource as JSON: its id, and whatever else it carries. */
export type Created = Record<string, any> & { id: string }

export async function createMealPlan (app: FastifyInstance, user: TestUser, fields: Fields = {}): Promise<Created> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/mealplans',
    headers: bearer(user),
    payload: { name: 'Week plan', startDate: '2026-03-02', endDate: '2026-03-08', ...fields }
  })
  if (res.statusCode !== 201) throw new Error(`meal plan creation failed: ${res.statusCode} ${res.body}`)
  return JSON.parse(res.body).mealPlan
}

/** POST /api/planned-meals as `user`; the response as it is. */
export async function postMeal (app: FastifyInstance, user: TestUser, fields: Fields): Promise<LightMyRequestResponse> {
  return await app.inject({ method: 'POST', url: '/api/planned-meals', headers: bearer(user), payload: { mealType: 'dinner', ...fields } })
}

export async function planMeal (app: FastifyInstance, user: TestUser, fields: Fields): Promise<Created> {
  const res = await postMeal(app, user, fields)
  if (res.statusCode !== 201) throw new Error(`planning a meal failed: ${res.statusCode} ${res.body}`)
  return JSON.parse(res.body).plannedMeal
}

/** POST /api/shared-meal-plans as `user`; the response as it is. */
export async function postShare (app: FastifyInstance, user: TestUser, payload: Fields): Promise<LightMyRequestResponse> {
  return await app.inject({ method: 'POST', url: '/api/shared-meal-plans', headers: bearer(user), payload })
}

/** Shares `plan` with `recipients` (users) with `permission`; the shares. */
export async function shareMealPlan (app: FastifyInstance, owner: TestUser, plan: { id: string }, recipients: TestUser[], permission: 'view' | 'edit'): Promise<Created[]> {
  const res = await postShare(app, owner, { mealPlanId: plan.id, userIds: recipients.map(r => r.id), permission })
  if (res.statusCode !== 201) throw new Error(`sharing failed: ${res.statusCode} ${res.body}`)
  return JSON.parse(res.body).shares
}

/** Shares `plan` with `family`; the share. */
export async function shareWithFamily (app: FastifyInstance, owner: TestUser, plan: { id: string }, family: { id: string }, permission: 'view' | 'edit'): Promise<Created> {
  const res = await postShare(app, owner, { mealPlanId: plan.id, familyId: family.id, permission })
  if (res.statusCode !== 201) throw new Error(`sharing failed: ${res.statusCode} ${res.body}`)
  return JSON.parse(res.body).shares[0]
}

// ---- Families through the families API ----

/** A family of `owner` that `members` joined with its invite code. */
export async function createFamily (app: FastifyInstance, owner: TestUser, members: TestUser[] = [], name = 'The Family'): Promise<TestFamily> {
  const family = await createFamilyThroughApi(app, owner, { name })
  for (const member of members) await joinFamily(app, member, family)
  return family
}

export async function addFamilyMember (app: FastifyInstance, family: TestFamily, user: TestUser): Promise<void> {
  await joinFamily(app, user, family)
}

/** The member leaves the family. */
export async function removeFamilyMember (app: FastifyInstance, family: { id: string }, user: TestUser): Promise<void> {
  const res = await app.inject({ method: 'POST', url: `/api/families/${family.id}/leave`, headers: bearer(user) })
  if (res.statusCode !== 200) throw new Error(`leave failed: ${res.statusCode} ${res.body}`)
}

/**
 * Many families of one owner, written into the tables: a user may belong to only 20 families through the API, and
 * the share cap (100 a plan) needs more than that to be reached.
 */
export async function manyFamilies (app: FastifyInstance, owner: { id: string }, count: number): Promise<Array<{ id: string }>> {
  const families = Array.from({ length: count }, () => ({ id: createId(), inviteCode: randomBytes(4).toString('hex') }))
  for (const { id, inviteCode } of families) {
    await app.db`insert into families (id, name, invite_code, created_by) values (${id}, ${'F ' + id}, ${inviteCode}, ${owner.id})`
    await app.db`insert into family_members (family_id, user_id, role) values (${id}, ${owner.id}, 'owner')`
  }
  return families
}
