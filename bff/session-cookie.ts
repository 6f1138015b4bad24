// The session cookie, set and cleared the same way by the session routes and the proxy (decisions.md section 5).
import type { FastifyReply } from 'fastify'

export const SESSION_MAX_AGE_SECONDS = 24 * 60 * 60
const COOKIE_OPTIONS = { httpOnly: true, secure: true, sameSite: 'lax', path: '/' } as const

export function setSessionCookie (reply: FastifyReply, name: string, token: string): void {
  reply.setCookie(name, token, { ...COOKIE_OPTIONS, maxAge: SESSION_MAX_AGE_SECONDS })
}

export function clearSessionCookie (reply: FastifyReply, name: string): void {
  reply.clearCookie(name, COOKIE_OPTIONS)
}
