// The durable job queue (plugins/external/queue.ts) on its own terms: transactional sends, one run across instances,
// retries with backoff that say which attempt is the last, and a shutdown that waits for running jobs.
import t from 'tap'
import { LEASE_SECONDS } from '../../plugins/external/queue.js'
import { build, drainJobs, eventually } from '../helper.js'

t.test('a job sent in a transaction exists only if it commits', async t => {
  const app = await build(t)
  const seen: string[] = []
  await app.queue.work<{ tag: string }>('test.tx', async ({ tag }) => { seen.push(tag) })
  await app.transaction(async tx => { await app.queue.send('test.tx', { tag: 'committed' }, tx) })
  await t.rejects(app.transaction(async tx => {
    await app.queue.send('test.tx', { tag: 'rolled back' }, tx)
    throw new Error('abort')
  }))
  await app.transaction(async tx => { await app.queue.sendMany('test.tx', [{ tag: 'many-1' }, { tag: 'many-2' }], tx) })
  await drainJobs(app, ['test.tx'])
  t.same(seen.sort(), ['committed', 'many-1', 'many-2'])
})

t.test('two instances run each job once; a failing job is retried and told its last attempt', async t => {
  const first = await build(t, { fresh: true })
  const second = await build(t, { fresh: true })
  const runs = new Map<number, number>()
  const handler = async ({ n }: { n: number }) => { runs.set(n, (runs.get(n) ?? 0) + 1) }
  await first.queue.work('test.once', handler)
  await second.queue.work('test.once', handler)
  for (let n = 0; n < 20; n++) await first.queue.send('test.once', { n })
  await drainJobs(first, ['test.once'])
  t.equal(runs.size, 20, 'every job ran')
  t.ok([...runs.values()].every(count => count === 1), 'every job ran exactly once')

  const attempts: Array<{ retryCount: number, final: boolean }> = []
  await first.queue.work('test.retry', async (_data, job) => {
    attempts.push({ retryCount: job.retryCount, final: job.final })
    if (!job.final) throw new Error('not yet')
  })
  await first.queue.send('test.retry', {}, undefined, { retryLimit: 2 })
  await eventually(async () => attempts.length === 3, 20_000)
  t.same(attempts, [{ retryCount: 0, final: false }, { retryCount: 1, final: false }, { retryCount: 2, final: true }])
})

t.test('closing the app waits for a running job', async t => {
  const app = await build(t, { fresh: true })
  let finished = false
  let started = false
  await app.queue.work('test.slow', async () => {
    started = true
    await new Promise(resolve => setTimeout(resolve, 800))
    finished = true
  })
  await app.queue.send('test.slow', {})
  await eventually(async () => started)
  await app.close()
  t.ok(finished, 'the job finished before close resolved')
})

t.test('a batch runs at once, and the worker fetches again while jobs remain', async t => {
  const app = await build(t)
  let running = 0
  let peak = 0
  let done = 0
  // Each job waits until ten have run at the same time: one job at a time would never get there.
  await app.queue.work('test.batch', async () => {
    running++
    peak = Math.max(peak, running)
    try {
      await eventually(async () => peak >= 10)
    } finally {
      running--
    }
    done++
  }, { batchSize: 10 })
  await app.queue.sendMany('test.batch', Array.from({ length: 30 }, (_, n) => ({ n })))
  // One transaction (one now()): a worker polling meanwhile fetched all thirty or none, never the first few.
  const [{ sendTimes }] = await app.db<Array<{ sendTimes: number }>>`select count(distinct created_on)::int as send_times
    from pgboss.job where name = 'test.batch'`
  t.equal(sendTimes, 1, 'the thirty jobs were sent in one transaction')
  await drainJobs(app, ['test.batch'])
  t.equal(peak, 10, 'ten at once, no more')
  t.equal(done, 30)
})

t.test('a running job renews its lease; a failing job in a batch fails alone', async t => {
  const app = await build(t)
  let release = false
  await app.queue.work<{ fail: boolean }>('test.lease', async ({ fail }) => {
    if (fail) throw new Error('this one fails')
    await eventually(async () => release, 30_000)
  })
  await app.queue.sendMany('test.lease', [{ fail: false }, { fail: true }], undefined, { retryLimit: 0 })
  // Sent with a lease of LEASE_SECONDS from its start; each renewal makes it LEASE_SECONDS from the renewal.
  const renewed = await eventually(async () => {
    const [job] = await app.db<Array<{ leaseSeconds: number }>>`select extract(epoch from expire_in)::float8 as lease_seconds
      from pgboss.job where name = 'test.lease' and state = 'active' and data->>'fail' = 'false'`
    return job != null && job.leaseSeconds > LEASE_SECONDS
  }, 20_000)
  t.ok(renewed, 'the lease was renewed while the job ran')
  release = true
  await drainJobs(app, ['test.lease'])
  const states = await app.db<Array<{ fail: string, state: string }>>`select data->>'fail' as fail, state from pgboss.job
    where name = 'test.lease' order by fail`
  t.same(states.map(s => [s.fail, s.state]), [['false', 'completed'], ['true', 'failed']])
})
