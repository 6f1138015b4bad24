// Grocery lists through the API, and the households they need (families, meal plans, planned meals, plan shares),
// through their own APIs.
import type { FastifyInstance, HTTPMethods, LightMyRequestResponse } from 'fastify'
import { createFamily, joinFamily } from './families.js'
import { bearer, type TestUser } from './users.js'

type Fields = Record<string, unknown>
/** A list or item as the API answers it (loosely typed for assertions). */
export interface Answer { id: string, [field: string]: any }

const body = (res: LightMyRequestResponse) => JSON.parse(res.body)

function expect (res: LightMyRequestResponse, status: number, what: string): void {
  if (res.statusCode !== status) throw new Error(`${what} failed: ${res.statusCode} ${res.body}`)
}

// ---- Grocery lists (the API under test) ----

/** An authenticated request to the grocery API as `user`; the response as it is. */
export async function groceryRequest (app: FastifyInstance, user: TestUser, method: HTTPMethods, url: string, payload?: Fields): Promise<LightMyRequestResponse> {
  return await app.inject({ method, url, headers: bearer(user), ...(payload !== undefined && { payload }) })
}

/** POST /api/grocerylists as `user`; the new list. */
export async function createList (app: FastifyInstance, user: TestUser, fields: Fields = {}): Promise<Answer> {
  const res = await groceryRequest(app, user, 'POST', '/api/grocerylists', { name: 'Weekly shop', ...fields })
  expect(res, 201, 'list creation')
  return body(res).groceryList
}

/** POST /api/grocerylists/:id/items as `user`; the new item. */
export async function addItem (app: FastifyInstance, user: TestUser, list: { id: string }, fields: Fields): Promise<Answer> {
  const res = await groceryRequest(app, user, 'POST', `/api/grocerylists/${list.id}/items`, fields)
  expect(res, 201, 'adding an item')
  return body(res).item
}

/** GET /api/grocerylists/:id as `user`; the list. */
export async function getList (app: FastifyInstance, user: TestUser, list: { id: string }): Promise<Answer> {
  const res = await groceryRequest(app, user, 'GET', `/api/grocerylists/${list.id}`)
  expect(res, 200, 'reading a list')
  return body(res).groceryList
}

// ---- Families ----

/** A family owned by `owner` that `members` joined. */
export async function makeFamily (app: FastifyInstance, owner: TestUser, members: TestUser[] = [], name = 'The Family'): Promise<{ id: string }> {
  const family = await createFamily(app, owner, { name })
  for (const member of members) await joinFamily(app, member, family)
  return { id: family.id }
}

/** `member` leaves the family. */
export async function leaveFamily (app: FastifyInstance, member: TestUser, family: { id: string }): Promise<void> {
  expect(await groceryRequest(app, member, 'POST', `/api/families/${family.id}/leave`), 200, 'leaving a family')
}

// ---- Meal plans ----

const PLAN_START = '2026-03-02'

/** A meal plan of `owner` (the week from 2026-03-02). */
export async function makeMealPlan (app: FastifyInstance, owner: TestUser, name = 'Week plan'): Promise<{ id: string, name: string }> {
  const fields = { name, startDate: PLAN_START, endDate: '2026-03-08' }
  const res = await groceryRequest(app, owner, 'POST', '/api/mealplans', fields)
  expect(res, 201, 'meal plan creation')
  return { id: body(res).mealPlan.id, name }
}

/** Plans a meal in `plan` as `user`: a recipe (with optional servings) or a custom title. */
export async function addPlannedMeal (app: FastifyInstance, user: TestUser, plan: { id: string },
  meal: { recipeId?: string, customTitle?: string, servings?: number, date?: string }): Promise<void> {
  const fields = { mealPlanId: plan.id, date: meal.date ?? PLAN_START, mealType: 'dinner', recipeId: meal.recipeId, customTitle: meal.customTitle, servings: meal.servings }
  const payload = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined))
  expect(await groceryRequest(app, user, 'POST', '/api/planned-meals', payload), 201, 'planning a meal')
}

/** Shares `plan` (view only) with one user or with a family. */
export async function sharePlan (app: FastifyInstance, owner: TestUser, plan: { id: string }, target: { userId: string } | { familyId: string }): Promise<void> {
  const payload = 'userId' in target ? { mealPlanId: plan.id, userIds: [target.userId], permission: 'view' } : { mealPlanId: plan.id, familyId: target.familyId, permission: 'view' }
  expect(await groceryRequest(app, owner, 'POST', '/api/shared-meal-plans', payload), 201, 'sharing a plan')
}
