// Waiting for background work by its state in the job queue, never by the clock.
import type { FastifyInstance } from 'fastify'

/** Jobs pg-boss has yet to finish: waiting, waiting to retry, or running. */
const PENDING = ['created', 'retry', 'active']

/**
 * Resolves once the named queues (every queue when none is named) hold no pending job, checked twice in a row so a job
 * that enqueues another is followed; throws after `timeoutMs`, failing the test. Assert what the jobs did, or did not
 * do, after this: a "nothing was sent" check then fails when the email is merely late.
 */
export async function drainJobs (app: FastifyInstance, names: string[] = [], timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let idleChecks = 0
  for (;;) {
    const [{ pending }] = await app.db<Array<{ pending: number }>>`
      select count(*)::int as pending from pgboss.job
      where state = any(${PENDING}::pgboss.job_state[]) and (${names.length === 0} or name = any(${names}))`
    idleChecks = pending === 0 ? idleChecks + 1 : 0
    if (idleChecks === 2) return
    if (Date.now() > deadline) throw new Error(`jobs still pending after ${timeoutMs} ms in ${names.length === 0 ? 'every queue' : names.join(', ')}: ${pending}`)
    await new Promise(resolve => setTimeout(resolve, 25))
  }
}
