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
  fastify.addHook('onSend', async (_request, reply, payload) => {
    if (lifecycle.draining) reply.header('connection', 'close')
    return payload
  })
}, { name: 'lifecycle' })
