// CORS for the whitelisted browser origins of ALLOWED_ORIGINS only.
import cors from '@fastify/cors'
import fp from 'fastify-plugin'

export default fp(async fastify => {
  const allowed = new Set(fastify.config.allowedOrigins)
  await fastify.register(cors, {
    origin: (origin, cb) => cb(null, origin != null && allowed.has(origin)),
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    exposedHeaders: ['retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-request-id'],
    maxAge: 600
  })
}, { name: 'cors' })
