// Families through the API: create, join, roles, and the family as one member sees it.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { bearer, type TestUser } from './users.js'

export interface TestFamily { id: string, name: string, inviteCode: string, [field: string]: unknown }

const body = (res: LightMyRequestResponse) => JSON.parse(res.body)

/** POST /api/families as `owner`; the new family (with its invite code). */
export async function createFamily (app: FastifyInstance, owner: TestUser, fields: Record<string, unknown> = {}): Promise<TestFamily> {
  const res = await app.inject({ method: 'POST', url: '/api/families', headers: bearer(owner), payload: { name: 'The Family', ...fields } })
  if (res.statusCode !== 201) throw new Error(`create family failed: ${res.statusCode} ${res.body}`)
  return body(res).family
}

/** POST /api/families/join; the response as it is. */
export async function join (app: FastifyInstance, user: TestUser, inviteCode: string): Promise<LightMyRequestResponse> {
  return await app.inject({ method: 'POST', url: '/api/families/join', headers: bearer(user), payload: { inviteCode } })
}

/** Joins and expects to be in (201, or 200 when already a member). */
export async function joinFamily (app: FastifyInstance, user: TestUser, family: TestFamily): Promise<void> {
  const res = await join(app, user, family.inviteCode)
  if (res.statusCode !== 201 && res.statusCode !== 200) throw new Error(`join failed: ${res.statusCode} ${res.body}`)
}

/** PUT /api/families/:id/members/:userId { role } as `by`; the response as it is. */
export async function setRole (app: FastifyInstance, by: TestUser, family: { id: string }, member: { id: string }, role: string): Promise<LightMyRequestResponse> {
  return await app.inject({ method: 'PUT', url: `/api/families/${family.id}/members/${member.id}`, headers: bearer(by), payload: { role } })
}

/** GET /api/families/:id as `user`; the response as it is. */
export async function getFamily (app: FastifyInstance, user: TestUser, family: { id: string }): Promise<LightMyRequestResponse> {
  return await app.inject({ url: `/api/families/${family.id}`, headers: bearer(user) })
}

/** A family of `owner` with one admin and members joined through the invite code. */
export async function familyWith (app: FastifyInstance, owner: TestUser, admin: TestUser, members: TestUser[]): Promise<TestFamily> {
  const family = await createFamily(app, owner)
  for (const user of [admin, ...members]) await joinFamily(app, user, family)
  const res = await setRole(app, owner, family, admin, 'admin')
  if (res.statusCode !== 200) throw new Error(`role change failed: ${res.statusCode} ${res.body}`)
  return family
}
