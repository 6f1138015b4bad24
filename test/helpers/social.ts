// The social graph through the API, and what it notifies.
import type { FastifyInstance } from 'fastify'
import { bearer, type TestUser } from './users.js'

/** `follower` follows `followed` (idempotent). */
export async function follow (app: FastifyInstance, follower: TestUser, followed: { id: string }): Promise<void> {
  const res = await app.inject({ method: 'POST', url: `/api/social/users/${followed.id}/follow`, headers: bearer(follower) })
  if (res.statusCode !== 200) throw new Error(`follow failed: ${res.statusCode} ${res.body}`)
}

export async function unfollow (app: FastifyInstance, follower: TestUser, followed: { id: string }): Promise<void> {
  const res = await app.inject({ method: 'DELETE', url: `/api/social/users/${followed.id}/follow`, headers: bearer(follower) })
  if (res.statusCode !== 200) throw new Error(`unfollow failed: ${res.statusCode} ${res.body}`)
}

/** Both follow each other: what `friends` visibility needs. */
export async function befriend (app: FastifyInstance, a: TestUser, b: TestUser): Promise<void> {
  await follow(app, a, b)
  await follow(app, b, a)
}

/** The notifications `user` has received (newest first, at most 50), optionally only those of one type. */
export async function notificationsOf (app: FastifyInstance, user: TestUser, type?: string): Promise<Array<Record<string, any>>> {
  const res = await app.inject({ url: '/api/notifications?limit=50', headers: bearer(user) })
  if (res.statusCode !== 200) throw new Error(`notifications failed: ${res.statusCode} ${res.body}`)
  const list: Array<Record<string, any>> = JSON.parse(res.body).notifications
  return type == null ? list : list.filter(n => n.type === type)
}
