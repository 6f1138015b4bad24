// A worker task's two bounds (lib/timed-task.ts): the wait for a worker, and the work itself counted from when the
// worker begins it. Used by the page extractor and the video page reader.
import { Piscina } from 'piscina'
import t from 'tap'
import { runTimed, TaskNotStarted, TaskTimedOut } from '../../lib/timed-task.js'

const WORKER = new URL('../fixtures/timed-worker.ts', import.meta.url).href

function pool (t: { teardown: (fn: () => Promise<void>) => void }): Piscina {
  const created = new Piscina({ filename: WORKER, minThreads: 0, maxThreads: 1 })
  t.teardown(async () => { await created.close({ force: true }) })
  return created
}

t.test('a task within both bounds answers', async t => {
  t.equal(await runTimed(pool(t), { ms: 1 }, { timeoutMs: 60_000, startWaitMs: 60_000 }), 'done after 1 ms')
})

t.test('work past its limit is abandoned (the worker ends) and says so; the pool goes on', async t => {
  const p = pool(t)
  await t.rejects(runTimed(p, { ms: 60_000 }, { timeoutMs: 50, startWaitMs: 60_000 }), TaskTimedOut)
  t.equal(await runTimed(p, { ms: 1 }, { timeoutMs: 60_000, startWaitMs: 60_000 }), 'done after 1 ms', 'a new worker takes the next task')
})

t.test('a task no worker begins in time is refused as not started, not as too slow', async t => {
  const p = pool(t)
  // The one thread is busy for a while: the second task waits in the queue past its bound.
  const busy = runTimed(p, { ms: 1500 }, { timeoutMs: 60_000, startWaitMs: 60_000 })
  await t.rejects(runTimed(p, { ms: 1 }, { timeoutMs: 60_000, startWaitMs: 100 }), TaskNotStarted)
  t.equal(await busy, 'done after 1500 ms', 'the task ahead was not disturbed')
})

t.test('the limit counts from when the worker begins, not from the call', async t => {
  const p = pool(t)
  // Queued behind 3 s of work, a 0.3 s task with a 2 s limit still finishes (3.3 s after the call): its time ran
  // only once it began.
  const ahead = runTimed(p, { ms: 3000 }, { timeoutMs: 60_000, startWaitMs: 60_000 })
  t.equal(await runTimed(p, { ms: 300 }, { timeoutMs: 2000, startWaitMs: 60_000 }), 'done after 300 ms')
  await ahead
})
