// Admins for tests: created through the admin service (as `npm run admin:create` does), signed in through the API.
import type { FastifyInstance } from 'fastify'

export interface TestAdmin { id: string, username: string, email: string, password: string, token: string }

let adminCount = 0

/** A new admin (no MFA) and a token from POST /api/admin/auth/login. */
export async function createAdmin (app: FastifyInstance, fields: Partial<Pick<TestAdmin, 'username' | 'email' | 'password'>> = {}): Promise<TestAdmin> {
  const n = ++adminCount
  const username = fields.username ?? `admin${process.pid}x${n}`
  const email = fields.email ?? `${username.toLowerCase()}@admin.example.com`
  const password = fields.password ?? 'Adm1n-passphrase!'
  const created = await app.adminAuthService.create({ email, username, password }, null)
  const token = await adminLogin(app, username, password)
  return { id: created.id, username, email, password, token }
}

/** Signs in (no MFA) and answers the token; throws on anything but success. */
export async function adminLogin (app: FastifyInstance, identifier: string, password: string, extra: Record<string, string> = {}): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/admin/auth/login', payload: { identifier, password, ...extra } })
  const body = JSON.parse(res.body)
  if (res.statusCode !== 200 || typeof body.token !== 'string') throw new Error(`admin login failed: ${res.statusCode} ${res.body}`)
  return body.token
}

export const adminBearer = (admin: { token: string }) => ({ authorization: `Bearer ${admin.token}` })
