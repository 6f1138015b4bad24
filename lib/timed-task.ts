// A worker-thread task (piscina) with two bounds: how long it may wait for a worker to take it (the queue, a worker's
// start: a loaded machine is no fault of the task), and how long the work itself may run, counted from when the worker
// begins it. The worker says when it begins through a message port (`announced` wraps the worker's function).
import { MessageChannel, type MessagePort } from 'node:worker_threads'
import type { Piscina } from 'piscina'

export interface TaskLimits {
  /** The work's own limit, from when a worker begins it; past it the worker is ended. */
  timeoutMs: number
  /** The limit on waiting for a worker to begin it. */
  startWaitMs: number
}

/** No worker took the task in time. */
export class TaskNotStarted extends Error {
  override name = 'TaskNotStarted'
}

/** The work ran past its limit and was abandoned (its worker ended). */
export class TaskTimedOut extends Error {
  override name = 'TaskTimedOut'
}

/** Runs `task` on `pool` within `limits`: its result, or TaskNotStarted / TaskTimedOut (or the task's own error). */
export async function runTimed<T> (pool: Piscina, task: object, limits: TaskLimits): Promise<T> {
  const abort = new AbortController()
  let begun = false
  const { port1: started, port2: startedInWorker } = new MessageChannel()
  let timer = setTimeout(() => { abort.abort() }, limits.startWaitMs)
  started.once('message', () => {
    begun = true
    clearTimeout(timer)
    timer = setTimeout(() => { abort.abort() }, limits.timeoutMs)
  })
  try {
    return await pool.run({ ...task, started: startedInWorker }, { signal: abort.signal, transferList: [startedInWorker] }) as T
  } catch (err) {
    if (!abort.signal.aborted) throw err
    if (begun) throw new TaskTimedOut(`the task ran longer than ${limits.timeoutMs} ms`, { cause: err })
    throw new TaskNotStarted(`no worker began the task within ${limits.startWaitMs} ms`, { cause: err })
  } finally {
    clearTimeout(timer)
    started.close()
  }
}

/** The worker's side: `fn` as a task that first tells `runTimed` it has begun. */
export function announced<A extends object, R> (fn: (args: A) => R): (args: A & { started?: MessagePort }) => R {
  return ({ started, ...args }) => {
    started?.postMessage(null)
    started?.close()
    return fn(args as unknown as A)
  }
}
