// Nutrition tests: meal plans, planned meals and shares through the meal-planning API (the nutrition family only reads
// them), and the nutrition routes themselves.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { bearer, type TestUser } from './users.js'

type Fields = Record<string, unknown>
/** A resource as the API returned it. */
type Made = Record<string, any>

async function created (res: LightMyRequestResponse, what: string, key: string): Promise<Made> {
  if (res.statusCode !== 201) throw new Error(`${what} failed: ${res.statusCode} ${res.body}`)
  return JSON.parse(res.body)[key]
}

/** A meal plan of `user` (POST /api/mealplans). */
export async function newMealPlan (app: FastifyInstance, user: TestUser, fields: Fields = {}): Promise<Made> {
  const payload = { name: 'Nutrition week', startDate: '2026-03-02', endDate: '2026-03-04', ...fields }
  return await created(await app.inject({ method: 'POST', url: '/api/mealplans', headers: bearer(user), payload }), 'meal plan creation', 'mealPlan')
}

/** A planned meal in `plan` (POST /api/planned-meals): a recipe, a custom title, or both. */
export async function addMeal (app: FastifyInstance, user: TestUser, plan: Made, fields: Fields): Promise<Made> {
  const payload = { mealPlanId: plan.id, mealType: 'dinner', ...fields }
  return await created(await app.inject({ method: 'POST', url: '/api/planned-meals', headers: bearer(user), payload }), 'planning a meal', 'plannedMeal')
}

/** Shares `plan` with `users` (POST /api/shared-meal-plans). */
export async function sharePlan (app: FastifyInstance, owner: TestUser, plan: Made, users: TestUser[], permission: 'view' | 'edit' = 'view'): Promise<void> {
  const payload = { mealPlanId: plan.id, userIds: users.map(u => u.id), permission }
  await created(await app.inject({ method: 'POST', url: '/api/shared-meal-plans', headers: bearer(owner), payload }), 'sharing a meal plan', 'shares')
}

/** GET a nutrition route as `user` (null: anonymous); the response as it is. */
export async function getNutrition (app: FastifyInstance, url: string, user: TestUser | null = null): Promise<LightMyRequestResponse> {
  return await app.inject({ url, headers: user == null ? {} : bearer(user) })
}
