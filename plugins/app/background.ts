// Work a request starts but does not wait for (emails, fan-out). Failures are logged; close waits for it to finish.
import fp from 'fastify-plugin'

declare module 'fastify' {
  interface FastifyInstance {
    background: (name: string, task: () => Promise<unknown>) => void
  }
}

export default fp(async fastify => {
  const pending = new Set<Promise<unknown>>()
  fastify.decorate('background', (name: string, task: () => Promise<unknown>) => {
    const run = Promise.resolve()
      .then(task)
      .catch(err => fastify.log.error({ err, task: name }, 'background task failed'))
      .finally(() => pending.delete(run))
    pending.add(run)
  })
  // Registered before the database plugin's hook runs (hooks run in reverse), so tasks finish first.
  fastify.addHook('preClose', async () => { await Promise.allSettled([...pending]) })
}, { name: 'background' })
