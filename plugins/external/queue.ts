// Durable background jobs (pg-boss on the same PostgreSQL): a job sent inside a service's transaction exists only if
// that transaction commits, and runs once even with several instances.
import fp from 'fastify-plugin'
import PgBoss from 'pg-boss'
import type { Db } from './db.js'

export interface SendOptions {
  /** Attempts after the first (default 5), spaced by JOB_RETRY_DELAY_SECONDS doubling each time. */
  retryLimit?: number
  /** Not before this time (a grace period). */
  startAfter?: Date
}

/** What a handler learns about its job: `final` is true on the last attempt pg-boss will make. */
export interface JobInfo { id: string, retryCount: number, final: boolean }

export interface Queue {
  /** Enqueues a job; with `tx` it commits or rolls back with the caller's transaction. */
  send: (name: string, data: object, tx?: Db, options?: SendOptions) => Promise<void>
  /** Enqueues many jobs of one name (a fan-out), pipelined on `tx` when given. */
  sendMany: (name: string, data: object[], tx?: Db, options?: SendOptions) => Promise<void>
  /** Runs `handler` for every job of `name` (one at a time per instance); a throw retries with backoff. */
  work: <T extends object>(name: string, handler: (data: T, job: JobInfo) => Promise<void>) => Promise<void>
  /**
   * Runs the job `name` on a cron schedule (UTC), once per tick across all instances. Nothing is scheduled when
   * SCHEDULED_JOBS is off (tests drive timed work with their own clock).
   */
  schedule: (name: string, cron: string) => Promise<void>
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
      sendMany: async () => { throw new Error('the job queue is not started in offline mode') },
      work: async () => {},
      schedule: async () => {}
    } satisfies Queue)
    return
  }
  const options: PgBoss.ConstructorOptions = {
    connectionString: fastify.config.databaseUrl,
    max: 3,
    application_name: 'recipe-platform-jobs',
    // Migrations create its schema (db/migrator.ts).
    migrate: false,
    schedule: fastify.config.jobs.scheduled,
    retryLimit: 5,
    retryDelay: fastify.config.jobs.retryDelaySeconds,
    retryBackoff: true
  }
  type Handler = (data: object, job: JobInfo) => Promise<void>
  const handlers = new Map<string, Handler>()
  const schedules = new Map<string, string>()
  const workers = new Map<string, string>()
  let boss: PgBoss | null = null
  let starting: Promise<PgBoss> | null = null

  // pg-boss's create_queue deadlocks when instances create the same queue at once (one gets 40P01): the loser
  // retries and finds it made. Each queue is created once per instance, not on every send.
  const created = new Set<string>()
  async function ensureQueue (instance: PgBoss, name: string): Promise<void> {
    if (created.has(name)) return
    for (let attempt = 1; ; attempt++) {
      try {
        await instance.createQueue(name)
        break
      } catch (err) {
        if ((err as { code?: string }).code !== '40P01' || attempt === 5) throw err
      }
    }
    created.add(name)
  }

  async function attach (instance: PgBoss, name: string, handler: Handler): Promise<void> {
    await ensureQueue(instance, name)
    const workOptions = { pollingIntervalSeconds: POLL_SECONDS, batchSize: 1, includeMetadata: true } as const
    workers.set(name, await instance.work<object>(name, workOptions, async jobs => {
      for (const job of jobs) await handler(job.data, { id: job.id, retryCount: job.retryCount, final: job.retryCount >= job.retryLimit })
    }))
  }

  /** Starts pg-boss once; a failed start (database down) is retried by the next caller or the retry timer. */
  async function started (): Promise<PgBoss> {
    starting ??= (async () => {
      const instance = new PgBoss(options)
      instance.on('error', err => fastify.log.error({ err }, 'job queue error'))
      try {
        await instance.start()
        for (const [name, handler] of handlers) await attach(instance, name, handler)
        for (const [name, cron] of schedules) await instance.schedule(name, cron)
      } catch (err) {
        starting = null
        await instance.stop({ graceful: false, wait: false }).catch(() => {})
        throw err
      }
      boss = instance
      return instance
    })()
    return await starting
  }

  // The API starts even while the database is unreachable (/readyz reports it); the queue follows when it is back.
  let retry: NodeJS.Timeout | undefined
  const startOrRetry = async (): Promise<void> => {
    try {
      await started()
    } catch (err) {
      fastify.log.error({ err }, 'job queue could not start; retrying')
      retry = setTimeout(() => { startOrRetry().catch(() => {}) }, 5000).unref()
    }
  }
  await startOrRetry()

  // Wake this instance's worker instead of waiting for its next poll.
  function wake (instance: PgBoss, name: string): void {
    const worker = workers.get(name)
    if (worker != null) setImmediate(() => instance.notifyWorker(worker))
  }

  async function sendMany (name: string, items: object[], tx?: Db, sendOptions: SendOptions = {}): Promise<void> {
    if (items.length === 0) return
    const instance = await started()
    await ensureQueue(instance, name)
    // One send per job, pipelined on the transaction's connection. (pg-boss's batch insert hands its rows as JSON
    // text, which postgres.js would encode a second time.)
    const options = { ...sendOptions, ...(tx == null ? {} : { db: onTransaction(tx) }) }
    await Promise.all(items.map(async data => await instance.send(name, data, options)))
    wake(instance, name)
  }

  fastify.decorate('queue', {
    send: async (name, data, tx, sendOptions) => { await sendMany(name, [data], tx, sendOptions) },
    sendMany,
    async schedule (name, cron) {
      if (!fastify.config.jobs.scheduled) return
      schedules.set(name, cron)
      if (boss != null) {
        await ensureQueue(boss, name)
        await boss.schedule(name, cron)
      }
    },
    async work<T extends object> (name: string, handler: (data: T, job: JobInfo) => Promise<void>) {
      // pg-boss hands back the object that was sent under this name.
      const untyped = handler as Handler
      handlers.set(name, untyped)
      if (boss != null) await attach(boss, name, untyped)
    }
  } satisfies Queue)

  // Stop taking jobs before the pools close; running jobs finish (graceful).
  fastify.addHook('preClose', async () => {
    clearTimeout(retry)
    await boss?.stop({ graceful: true, wait: true, timeout: 10_000 })
  })
}, { name: 'queue', dependencies: ['db'] })
