// Liveness: the process is up and its event loop turns; no dependency is consulted.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'

const healthz: FastifyPluginAsyncTypebox = async fastify => {
  fastify.get('/', {
    schema: {
      tags: ['Operations'],
      summary: 'Liveness',
      response: { 200: Type.Object({ status: Type.Literal('ok') }) }
    }
  }, async () => ({ status: 'ok' as const }))
}

export default healthz
