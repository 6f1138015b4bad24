// Durable background jobs (pg-boss on the same PostgreSQL): a job sent inside a service's transaction exists only if
// that transaction commits, and runs once even with several instances.
import fp from 'fastify-plugin'
import PgBoss from 'pg-boss'
import { JOB_SCOPE, scope } from '../../lib/request-scope.js'
import type { Db } from './db.js'

export interface SendOptions {
  /** Attempts after the first (default 5), spaced by JOB_RETRY_DELAY_SECONDS doubling each time. */
  retryLimit?: number
  /** Not before this time (a grace period). */
  startAfter?: Date
}

/** What a handler learns about its job: `final` is true on the last attempt pg-boss will make. */
export interface JobInfo { id: string, retryCount: number, final: boolean }

export interface WorkOptions {
  /** Jobs fetched at once and run concurrently on this instance (default 10). */
  batchSize?: number
}

export interface Queue {
  /** Enqueues a job; with `tx` it commits or rolls back with the caller's transaction. */
  send: (name: string, data: object, tx?: Db, options?: SendOptions) => Promise<void>
  /** Enqueues many jobs of one name (a fan-out) at once: pipelined on `tx` when given, else in a transaction of its own. */
  sendMany: (name: string, data: object[], tx?: Db, options?: SendOptions) => Promise<void>
  /**
   * Runs `handler` for every job of `name`, up to `batchSize` at once per instance; a throw retries with backoff. A job
   * may run again after its process died mid-way (at least once), so handlers make their effects idempotent.
   */
  work: <T extends object>(name: string, handler: (data: T, job: JobInfo) => Promise<void>, options?: WorkOptions) => Promise<void>
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

/** An idle worker looks for jobs this often; a send on the same instance wakes it at once. */
const POLL_MS = 1000
const DEFAULT_BATCH = 10
/**
 * A running job's lease: its worker renews it every HEARTBEAT_SECONDS, so a job whose process died (kill -9, lost
 * machine) expires LEASE_SECONDS after its last renewal, and pg-boss's maintenance (every MAINTENANCE_SECONDS) puts it
 * back for its retry (JOB_RETRY_DELAY_SECONDS later, with backoff): with the defaults, retried within a minute. pg-boss's
 * own expiry is fixed when the job is sent (15 minutes by default), and its worker keeps no lease.
 */
export const LEASE_SECONDS = 15
const HEARTBEAT_SECONDS = 5
const MAINTENANCE_SECONDS = 10

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
    retryBackoff: true,
    expireInSeconds: LEASE_SECONDS,
    maintenanceIntervalSeconds: MAINTENANCE_SECONDS,
    // Finished jobs leave the live table after an hour: at hundreds of jobs a second a day's worth would slow fetches.
    archiveCompletedAfterSeconds: 3600
  }
  type Handler = (data: object, job: JobInfo) => Promise<void>
  interface Worker { handler: Handler, batchSize: number }
  const handlers = new Map<string, Worker>()
  const schedules = new Map<string, string>()
  /** Wakes a worker's idle wait, per queue. */
  const wakers = new Map<string, () => void>()
  const loops = new Set<Promise<void>>()
  const state = { stopping: false }
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

  /** Renews the lease of jobs still running. */
  async function renew (name: string, ids: string[]): Promise<void> {
    await fastify.db`update pgboss.job set expire_in = now() - started_on + ${LEASE_SECONDS} * interval '1 second'
      where name = ${name} and id = any(${ids}::uuid[]) and state = 'active'`
  }

  /** Runs one fetched batch concurrently, renewing leases meanwhile, then completes or fails each job by itself. */
  async function runBatch (instance: PgBoss, name: string, handler: Handler, jobs: Array<PgBoss.JobWithMetadata<object>>): Promise<void> {
    const running = new Set(jobs.map(job => job.id))
    const heartbeat = setInterval(() => {
      renew(name, [...running]).catch((err: unknown) => { fastify.log.warn({ err, queue: name }, 'job lease renewal failed') })
    }, HEARTBEAT_SECONDS * 1000)
    const failed: Array<{ id: string, err: unknown }> = []
    try {
      await Promise.all(jobs.map(async job => {
        try {
          await scope.run(JOB_SCOPE, async () => {
            await handler(job.data, { id: job.id, retryCount: job.retryCount, final: job.retryCount >= job.retryLimit })
          })
        } catch (err) {
          failed.push({ id: job.id, err })
          fastify.log.warn({ err, queue: name, jobId: job.id, attempt: job.retryCount + 1 }, 'job failed')
        } finally {
          running.delete(job.id)
        }
      }))
    } finally {
      clearInterval(heartbeat)
    }
    const failedIds = new Set(failed.map(f => f.id))
    const done = jobs.filter(job => !failedIds.has(job.id)).map(job => job.id)
    // A job left active here (database away) expires with its lease and runs again: handlers are idempotent.
    try {
      if (done.length > 0) await instance.complete(name, done)
      for (const { id, err } of failed) await instance.fail(name, id, { message: err instanceof Error ? err.message : String(err) })
    } catch (err) {
      fastify.log.error({ err, queue: name }, 'could not record job results')
    }
  }

  /** Resolves after `ms`, or at once when a send on this instance (or shutdown) wakes the queue's worker. */
  async function idle (name: string, ms: number): Promise<void> {
    await new Promise<void>(resolve => {
      const timer = setTimeout(wake, ms)
      function wake (): void { clearTimeout(timer); wakers.delete(name); resolve() }
      wakers.set(name, wake)
    })
  }

  /** A queue's worker: fetches again at once while batches come back full, and idles only when the queue is empty. */
  async function workLoop (instance: PgBoss, name: string, { handler, batchSize }: Worker): Promise<void> {
    while (!state.stopping) {
      let jobs: Array<PgBoss.JobWithMetadata<object>> = []
      try {
        jobs = await instance.fetch<object>(name, { batchSize, includeMetadata: true }) ?? []
      } catch (err) {
        fastify.log.error({ err, queue: name }, 'job fetch failed')
      }
      if (jobs.length > 0) await runBatch(instance, name, handler, jobs)
      if (jobs.length < batchSize && !state.stopping) await idle(name, POLL_MS)
    }
  }

  async function attach (instance: PgBoss, name: string, worker: Worker): Promise<void> {
    await ensureQueue(instance, name)
    const loop = workLoop(instance, name, worker).catch((err: unknown) => { fastify.log.error({ err, queue: name }, 'job worker stopped') })
    loops.add(loop)
  }

  /** Starts pg-boss once; a failed start (database down) is retried by the next caller or the retry timer. */
  async function started (): Promise<PgBoss> {
    starting ??= (async () => {
      const instance = new PgBoss(options)
      instance.on('error', err => fastify.log.error({ err }, 'job queue error'))
      try {
        await instance.start()
        for (const [name, worker] of handlers) await attach(instance, name, worker)
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
  function wake (name: string): void {
    const waker = wakers.get(name)
    if (waker != null) setImmediate(waker)
  }

  async function sendMany (name: string, items: object[], tx?: Db, sendOptions: SendOptions = {}): Promise<void> {
    if (items.length === 0) return
    const instance = await started()
    await ensureQueue(instance, name)
    // One send per job, pipelined on the transaction's connection. (pg-boss's batch insert hands its rows as JSON
    // text, which postgres.js would encode a second time.) Without the caller's transaction, several jobs still go in
    // one: a worker polling meanwhile fetches all of them or none, never the first few of a fan-out.
    const sendAll = async (db?: Db): Promise<void> => {
      const options = { ...sendOptions, ...(db == null ? {} : { db: onTransaction(db) }) }
      await Promise.all(items.map(async data => await instance.send(name, data, options)))
    }
    if (tx != null || items.length === 1) await sendAll(tx)
    else await fastify.transaction(async own => { await sendAll(own) })
    wake(name)
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
    async work<T extends object> (name: string, handler: (data: T, job: JobInfo) => Promise<void>, workOptions: WorkOptions = {}) {
      // pg-boss hands back the object that was sent under this name.
      const worker = { handler: handler as Handler, batchSize: workOptions.batchSize ?? DEFAULT_BATCH }
      handlers.set(name, worker)
      if (boss != null) await attach(boss, name, worker)
    }
  } satisfies Queue)

  // Stop taking jobs before the pools close; running jobs finish (graceful).
  fastify.addHook('preClose', async () => {
    clearTimeout(retry)
    state.stopping = true
    for (const waker of [...wakers.values()]) waker()
    await Promise.all(loops)
    await boss?.stop({ graceful: true, wait: true, timeout: 10_000 })
  })
}, { name: 'queue', dependencies: ['db'] })
