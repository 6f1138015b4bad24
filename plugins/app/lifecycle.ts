// Draining (the API and the web proxy): once the process is told to stop (server.ts), the API's /readyz answers 503
// so load balancers take the instance out of rotation, and every answer carries `Connection: close` so keep-alive
// clients open their next connection elsewhere. Requests keep being served until server.ts closes the instance.
import fp from 'fastify-plugin'

declare module 'fastify' {
  interface FastifyInstance {
    lifecycle: { draining: boolean }
  }
}

export default fp(async fastify => {
  const lifecycle = { draining: false }
  fastify.decorate('lifecycle', lifecycle)
  // A callback hook: every answer passes through it, and an async one would cost each a promise.
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (lifecycle.draining) reply.header('connection', 'close')
    done(null, payload)
  })
}, { name: 'lifecycle' })
