// Liveness: the process is up and its event loop turns; no dependency is consulted.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { quietAt } from '../../lib/request-log.js'

const healthz: FastifyPluginAsyncTypebox = async fastify => {
  fastify.get('/', {
    // Load balancers probe every few seconds: their request lines would drown the log.
    logLevel: quietAt(fastify.log, 'warn'),
    schema: {
      tags: ['Operations'],
      operationId: 'operations.liveness',
      summary: 'Liveness',
      description: 'The process is up; no dependency is consulted. Use /readyz to decide whether to send traffic.',
      response: { 200: Type.Object({ status: Type.Literal('ok') }, { description: 'Alive' }) }
    }
  }, async () => ({ status: 'ok' as const }))
}

export default healthz
