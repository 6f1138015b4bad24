// Readiness: the instance can serve traffic only while its database, its cache and its file storage answer.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { quietAt } from '../../lib/request-log.js'
import { described } from '../../schemas/common.js'

const Check = Type.Union([Type.Literal('ok'), Type.Literal('error')])
const Readiness = Type.Object({
  /** `draining`: the instance is shutting down (SIGTERM) and takes no new traffic, whatever its checks say. */
  status: Type.Union([Type.Literal('ok'), Type.Literal('error'), Type.Literal('draining')]),
  checks: Type.Object({ database: Check, cache: Check, storage: Check })
})

const CHECK_TIMEOUT_MS = 2000

async function probe (fn: () => Promise<unknown>): Promise<'ok' | 'error'> {
  let timer: NodeJS.Timeout | undefined
  try {
    await Promise.race([fn(), new Promise((_resolve, reject) => { timer = setTimeout(reject, CHECK_TIMEOUT_MS, new Error('timeout')) })])
    return 'ok'
  } catch {
    return 'error'
  } finally {
    clearTimeout(timer)
  }
}

const readyz: FastifyPluginAsyncTypebox = async fastify => {
  fastify.get('/', {
    // Probes are not logged per request; a failing check is (below).
    logLevel: quietAt(fastify.log, 'warn'),
    schema: {
      tags: ['Operations'],
      operationId: 'operations.readiness',
      summary: 'Readiness: database, cache and file storage reachable',
      response: {
        200: described('Ready: every check is ok', Readiness),
        503: described('Not ready: `checks` names the failing dependency, or `status: draining` while shutting down', Readiness)
      }
    }
  }, async (request, reply) => {
    const [database, cache, storage] = await Promise.all([
      probe(async () => await fastify.db`select 1`),
      probe(async () => await fastify.cache.ping()),
      probe(async () => await fastify.storage.check())
    ])
    const checks = { database, cache, storage }
    const ok = Object.values(checks).every(check => check === 'ok')
    if (fastify.lifecycle.draining) return reply.code(503).send({ status: 'draining' as const, checks })
    if (!ok) request.log.warn({ checks }, 'not ready')
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' as const : 'error' as const, checks })
  })
}

export default readyz
