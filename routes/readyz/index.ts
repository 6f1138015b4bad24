// Readiness: the instance can serve traffic only while both its database and its cache answer.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { described } from '../../schemas/common.js'

const Check = Type.Union([Type.Literal('ok'), Type.Literal('error')])
const Readiness = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
  checks: Type.Object({ database: Check, cache: Check })
})

const CHECK_TIMEOUT_MS = 2000

async function probe (fn: () => Promise<unknown>): Promise<'ok' | 'error'> {
  try {
    await Promise.race([fn(), new Promise((_resolve, reject) => setTimeout(reject, CHECK_TIMEOUT_MS, new Error('timeout')).unref())])
    return 'ok'
  } catch {
    return 'error'
  }
}

const readyz: FastifyPluginAsyncTypebox = async fastify => {
  fastify.get('/', {
    schema: {
      tags: ['Operations'],
      operationId: 'operations.readiness',
      summary: 'Readiness: database and cache reachable',
      response: {
        200: described('Ready: every check is ok', Readiness),
        503: described('Not ready: `checks` names the failing dependency', Readiness)
      }
    }
  }, async (_request, reply) => {
    const [database, cache] = await Promise.all([
      probe(async () => await fastify.db`select 1`),
      probe(async () => await fastify.cache.ping())
    ])
    const ok = database === 'ok' && cache === 'ok'
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'error', checks: { database, cache } })
  })
}

export default readyz
