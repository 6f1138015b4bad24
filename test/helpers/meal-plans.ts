// Meal plans, planned meals and shares through the API; families written straight into their tables until the
// families API lands (then createFamily/addFamilyMember/removeFamilyMember should call it instead).
import { randomBytes } from 'node:crypto'
import { createId } from '@paralleldrive/cuid2'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
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

// ---- Until the families API lands: families and memberships written directly into their tables. ----

/** A family with `owner` (role owner) and `members` (role member). */
export async function createFamily (app: FastifyInstance, owner: { id: string }, members: Array<{ id: string }> = [], name = 'The Family'): Promise<{ id: string, name: string }> {
  const id = createId()
  await app.db`insert into families (id, name, invite_code, created_by) values (${id}, ${name}, ${randomBytes(4).toString('hex')}, ${owner.id})`
  await addFamilyMember(app, { id }, owner, 'owner')
  for (const member of members) await addFamilyMember(app, { id }, member)
  return { id, name }
}

export async function addFamilyMember (app: FastifyInstance, family: { id: string }, user: { id: string }, role: 'owner' | 'admin' | 'member' = 'member'): Promise<void> {
  await app.db`insert into family_members (family_id, user_id, role) values (${family.id}, ${user.id}, ${role}) on conflict do nothing`
}

export async function removeFamilyMember (app: FastifyInstance, family: { id: string }, user: { id: string }): Promise<void> {
  await app.db`delete from family_members where family_id = ${family.id} and user_id = ${user.id}`
}
