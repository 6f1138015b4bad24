// Users through the API: registration (the real flow, bcrypt included), sign-in and their Bearer header.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'

export interface TestUser { id: string, username: string, email: string, password: string, token: string }

let userCount = 0

export async function registerUser (app: FastifyInstance, fields: Partial<Pick<TestUser, 'username' | 'email' | 'password'>> = {}): Promise<TestUser> {
  const n = ++userCount
  const username = fields.username ?? `user${process.pid}x${n}`
  const email = fields.email ?? `${username.toLowerCase()}@example.com`
  const password = fields.password ?? 'Sup3rSecret!'
  const res = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { username, email, password } })
  if (res.statusCode !== 201) throw new Error(`registration failed: ${res.statusCode} ${res.body}`)
  const body = JSON.parse(res.body)
  return { id: body.user.id, username, email, password, token: body.token }
}

export const bearer = (user: { token?: unknown }) => ({ authorization: `Bearer ${String(user.token)}` })

/** POST /api/auth/login with `identifier` (username or email) and `password`; the response as it is. */
export async function login (app: FastifyInstance, identifier: string, password: string): Promise<LightMyRequestResponse> {
  return await app.inject({ method: 'POST', url: '/api/auth/login', payload: { identifier, password } })
}

/**
 * Deactivates or bans a user directly in the database: there is no admin API yet (it will replace this). Drops the
 * cached auth state, as the admin action will.
 */
export async function setAccountStatus (app: FastifyInstance, user: { id: string }, status: { active?: boolean, banned?: boolean }): Promise<void> {
  if (status.active !== undefined) await app.db`update users set active = ${status.active} where id = ${user.id}`
  if (status.banned !== undefined) {
    await app.db`update users set banned_at = ${status.banned ? new Date() : null} where id = ${user.id}`
  }
  await app.invalidateAuthState(user.id)
}
