// What the database layer knows about the work it runs for: a request (whose client may go away) or a background job.
// Carried by AsyncLocalStorage, so repositories need no extra argument: plugins/external/db.ts reads it.
import { AsyncLocalStorage } from 'node:async_hooks'

export interface Scope {
  /** Aborted when the request's client has gone (its connection closed before the response was sent). */
  signal?: AbortSignal
  /** True once the request's client has gone (cheaper to ask than `signal`, which may be made on first use). */
  readonly gone?: boolean
  /** A background job: its transactions may run longer (DB_JOB_STATEMENT_TIMEOUT_MS). */
  job?: true
}

export const scope = new AsyncLocalStorage<Scope>()

/** The scope of a background job. */
export const JOB_SCOPE: Scope = Object.freeze({ job: true })

/**
 * Runs work outside the current request's scope, so the client leaving does not drop it: work several requests share
 * (a batched statement, a coalesced count: one client leaving must not fail the others), and clean-up that has to
 * happen whatever the client does (a refund, a failure record, releasing an idempotency key).
 */
export function detached<T> (work: () => T): T {
  return scope.exit(work)
}
