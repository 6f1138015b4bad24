// Security headers exactly as interface.md "Cross-cutting response behaviour".
import helmet from '@fastify/helmet'
import fp from 'fastify-plugin'

export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()'

export default fp(async fastify => {
  await fastify.register(helmet, {
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
  })
  // Helmet has no Permissions-Policy. A callback hook: no promise per request for one header.
  fastify.addHook('onRequest', (_request, reply, done) => {
    reply.header('permissions-policy', PERMISSIONS_POLICY)
    done()
  })
}, { name: 'helmet' })
