// Waiting for background work by a condition, never by the clock.
import type { FastifyInstance } from 'fastify'

const NOT_MET = 'condition not met in time'

/** Waits for background work (notifications, emails) to land: polls `check` until it returns a value or the deadline passes. */
export async function eventually<T> (check: () => Promise<T | null | undefined | false>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value != null && value !== false) return value
    if (Date.now() > deadline) throw new Error(NOT_MET)
    await new Promise(resolve => setTimeout(resolve, 20))
  }
}

/** Jobs pg-boss has yet to finish: waiting, waiting to retry, or running. */
const PENDING = ['created', 'retry', 'active']

/**
 * Resolves once the named queues (every queue when none is named) hold no pending job, seen twice in a row so a job
 * that enqueues another is followed; fails the test after `timeoutMs`. Assert what the jobs did, or did not do, after
 * this: a "nothing was sent" check then fails when the email is merely late.
 */
export async function drainJobs (app: FastifyInstance, names: string[] = [], timeoutMs = 20_000): Promise<void> {
  let idleChecks = 0
  await eventually(async () => {
    const [{ pending }] = await app.db<Array<{ pending: number }>>`
      select count(*)::int as pending from pgboss.job
      where state = any(${PENDING}::pgboss.job_state[]) and (${names.length === 0} or name = any(${names}))`
    idleChecks = pending === 0 ? idleChecks + 1 : 0
    return idleChecks === 2
  }, timeoutMs).catch((err: Error) => {
    if (err.message !== NOT_MET) throw err
    throw new Error(`jobs still pending after ${timeoutMs} ms in ${names.length === 0 ? 'every queue' : names.join(', ')}`)
  })
}
