// Coalesces operations on one key (one hot row) into batches: at most one batch per key runs at a time, and whatever
// arrives meanwhile waits and runs as the next batch, in one statement. A storm on one row then costs one statement
// (and one row lock) per round instead of one per request, each waiting for the lock behind the others.
import { detached } from './request-scope.js'

export interface Batches<Op, Result> {
  /** Runs the operation in the key's next batch; settles with its own result. */
  submit: (key: string, op: Op) => Promise<Result>
}

export interface BatchOptions<Op, Result> {
  /** Runs a batch; answers one result per operation, in order. */
  run: (key: string, ops: Op[]) => Promise<Result[]>
  /**
   * Runs one operation alone: after a batch of several failed, each is retried alone, so a bad one fails alone (the
   * batch must be one statement, which commits whole or not at all). Without it a failed batch fails every operation
   * in it: for reads, where no operation can fail the others and a retry would only repeat the failure.
   */
  runOne?: (key: string, op: Op) => Promise<Result>
  /**
   * Operations with the same owner never share a batch, so one owner's operations run in the order they came.
   * Without it any operations may share one (reads).
   */
  owner?: (op: Op) => string
  /** The most operations in one batch. */
  max: number
}

interface Waiting<Op, Result> {
  op: Op
  resolve: (result: Result) => void
  reject: (err: unknown) => void
}

interface Batch<Op, Result> {
  items: Array<Waiting<Op, Result>>
  owners: Set<string | undefined>
}

export function keyedBatches<Op, Result> (options: BatchOptions<Op, Result>): Batches<Op, Result> {
  const { run, runOne, owner, max } = options
  /** The keys with a batch running, each with the batches that wait for it (usually none or one). */
  const queues = new Map<string, Array<Batch<Op, Result>>>()

  async function settle (key: string, batch: Batch<Op, Result>): Promise<void> {
    const { items } = batch
    try {
      const results = await run(key, items.map(item => item.op))
      items.forEach((item, i) => { item.resolve(results[i]) })
    } catch (err) {
      if (items.length === 1 || runOne == null) items.forEach(item => { item.reject(err) })
      else await Promise.all(items.map(async item => { await runOne(key, item.op).then(item.resolve, item.reject) }))
    }
  }

  async function drain (key: string, first: Batch<Op, Result>): Promise<void> {
    const waiting = queues.get(key) ?? []
    for (let batch: Batch<Op, Result> | undefined = first; batch != null; batch = waiting.shift()) await settle(key, batch)
    queues.delete(key)
  }

  return {
    async submit (key, op) {
      return await new Promise<Result>((resolve, reject) => {
        const item = { op, resolve, reject }
        const who = owner?.(op)
        const waiting = queues.get(key)
        if (waiting == null) {
          queues.set(key, [])
          // settle() answers every item itself; drain only rejects on a bug, and then this item learns of it.
          // Batches serve several requests: they run outside the first one's scope (its client may leave).
          detached(async () => { await drain(key, { items: [item], owners: new Set([who]) }) }).catch(reject)
          return
        }
        // Only the last waiting batch takes it: an earlier one could run it before its owner's previous operation.
        const last = waiting.at(-1)
        if (last != null && last.items.length < max && (who === undefined || !last.owners.has(who))) {
          last.items.push(item)
          last.owners.add(who)
        } else {
          waiting.push({ items: [item], owners: new Set([who]) })
        }
      })
    }
  }
}
