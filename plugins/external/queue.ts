// Durable background jobs (pg-boss on the same PostgreSQL): a job sent inside a service's transaction exists only if
// that transaction commits, and runs once even with several instances.
import fp from 'fastify-plugin'
import PgBoss from 'pg-boss'
import type { Db } from './db.js'

export interface Queue {
  /** Enqueues a job; with `tx` it commits or rolls back with the caller's transaction. */
  send: (name: string, data: object, tx?: Db) => Promise<void>
  /** Runs `handler` for every job of `name` (one at a time per instance); a throw retries with backoff. */
  work: <T extends object>(name: string, handler: (data: T) => Promise<void>) => Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    queue: Queue
  }
}

const POLL_SECONDS = 1

/** pg-boss's adapter for running its statements on our transaction. */
const onTransaction = (tx: Db): PgBoss.Db => ({
  // pg-boss passes undefined for unset options; its own driver (pg) sends those as null.
  executeSql: async (text, values) => ({ rows: await tx.unsafe(text, values.map(value => value ?? null)) })
})

export default fp(async (fastify, opts: { offline?: boolean }) => {
  if (opts.offline === true) {
    fastify.decorate('queue', {
      send: async () => { throw new Error('the job queue is not started in offline mode') },
      work: async () => {}
    } satisfies Queue)
    return
  }
  const boss = new PgBoss({
    connectionString: fastify.config.databaseUrl,
    max: 3,
    application_name: 'recipe-platform-jobs',
    // Migrations create its schema (db/migrator.ts); cron scheduling arrives with the digest emails.
    migrate: false,
    schedule: false,
    retryLimit: 5,
    retryBackoff: true
  })
  boss.on('error', err => fastify.log.error({ err }, 'job queue error'))
  await boss.start()

  const created = new Set<string>()
  const workers = new Map<string, string>()
  async function ensureQueue (name: string): Promise<void> {
    if (created.has(name)) return
    await boss.createQueue(name)
    created.add(name)
  }

  fastify.decorate('queue', {
    async send (name, data, tx) {
      await ensureQueue(name)
      await boss.send(name, data, tx == null ? {} : { db: onTransaction(tx) })
      // Wake this instance's worker instead of waiting for its next poll (after commit the job is visible).
      const worker = workers.get(name)
      if (worker != null) setImmediate(() => boss.notifyWorker(worker))
    },
    async work (name, handler) {
      await ensureQueue(name)
      const id = await boss.work<object>(name, { pollingIntervalSeconds: POLL_SECONDS, batchSize: 1 }, async jobs => {
        for (const job of jobs) await handler(job.data as Parameters<typeof handler>[0])
      })
      workers.set(name, id)
    }
  } satisfies Queue)

  // Stop taking jobs before the pools close; running jobs finish (graceful).
  fastify.addHook('preClose', async () => { await boss.stop({ graceful: true, wait: true, timeout: 10_000 }) })
}, { name: 'queue', dependencies: ['db'] })
