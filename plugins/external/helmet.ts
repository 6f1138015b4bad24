// Security headers exactly as interface.md "Cross-cutting response behaviour" (lib/security-headers.ts).
import fp from 'fastify-plugin'
import type { HelmetOptions } from 'helmet'
import { addSecurityHeaders } from '../../lib/security-headers.js'

export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()'

const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: true,
    directives: {
      scriptSrc: ["'self'", "'unsafe-inline'"],
      connectSrc: ["'self'", 'https:', 'wss:', 'ws:'],
      imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:']
    }
  },
  crossOriginEmbedderPolicy: false,
  strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' }
}

export default fp(async fastify => {
  // Helmet has no Permissions-Policy.
  addSecurityHeaders(fastify, HELMET_OPTIONS, { 'permissions-policy': PERMISSIONS_POLICY })
}, { name: 'helmet' })
