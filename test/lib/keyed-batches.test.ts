// Operations on one key run a batch at a time; what arrives meanwhile waits for the next batch.
import t from 'tap'
import { keyedBatches } from '../../lib/keyed-batches.js'

interface Op { owner: string, n: number, fail?: boolean }

function recorder (max: number, hold = true) {
  const batches: Array<{ key: string, ops: number[] }> = []
  const alone: number[] = []
  let release = (): void => {}
  const batched = keyedBatches<Op, string>({
    run: async (key, ops) => {
      batches.push({ key, ops: ops.map(op => op.n) })
      // The first batch of each test holds until released, so the others queue behind it.
      if (hold && batches.length === 1) await new Promise<void>(resolve => { release = resolve })
      if (ops.some(op => op.fail === true)) throw new Error('batch failed')
      return ops.map(op => `${key}:${op.n}`)
    },
    runOne: async (key, op) => {
      alone.push(op.n)
      if (op.fail === true) throw new Error(`op ${op.n} failed`)
      return `${key}:${op.n} alone`
    },
    owner: op => op.owner,
    max
  })
  return { batched, batches, alone, release: () => { release() } }
}

t.test('what arrives while a batch runs goes together into the next, up to max', async t => {
  const { batched, batches, release } = recorder(3)
  const first = batched.submit('r1', { owner: 'a', n: 1 })
  const rest = [2, 3, 4, 5, 6].map(async (n, i) => await batched.submit('r1', { owner: `u${i}`, n }))
  const other = batched.submit('r2', { owner: 'a', n: 7 })
  t.same(await other, 'r2:7', 'another key does not wait')
  release()
  t.same(await Promise.all([first, ...rest]), ['r1:1', 'r1:2', 'r1:3', 'r1:4', 'r1:5', 'r1:6'], 'each gets its own result')
  t.same(batches, [
    { key: 'r1', ops: [1] },
    { key: 'r2', ops: [7] },
    { key: 'r1', ops: [2, 3, 4] },
    { key: 'r1', ops: [5, 6] }
  ])
})

t.test('one owner\'s operations never share a batch and keep their order', async t => {
  const { batched, batches, release } = recorder(10)
  const all = [
    batched.submit('r', { owner: 'a', n: 1 }),
    batched.submit('r', { owner: 'a', n: 2 }),
    batched.submit('r', { owner: 'b', n: 3 }),
    batched.submit('r', { owner: 'a', n: 4 }),
    // b's earlier operation waits in the batch before the last one: this one must not run before it.
    batched.submit('r', { owner: 'c', n: 5 }),
    batched.submit('r', { owner: 'b', n: 6 })
  ]
  release()
  await Promise.all(all)
  t.same(batches.map(b => b.ops), [[1], [2, 3], [4, 5, 6]])
})

t.test('a failed batch is retried one operation at a time, so only the bad one fails', async t => {
  const { batched, batches, alone, release } = recorder(10)
  const first = batched.submit('r', { owner: 'a', n: 1 })
  const good = batched.submit('r', { owner: 'b', n: 2 })
  const bad = batched.submit('r', { owner: 'c', n: 3, fail: true })
  const later = batched.submit('r', { owner: 'd', n: 4 })
  release()
  t.equal(await first, 'r:1')
  t.equal(await good, 'r:2 alone')
  await t.rejects(bad, /op 3 failed/)
  t.equal(await later, 'r:4 alone')
  t.same(batches.map(b => b.ops), [[1], [2, 3, 4]])
  t.same(alone, [2, 3, 4])
  const single = recorder(10, false)
  await single.batched.submit('r', { owner: 'a', n: 0 })
  await t.rejects(single.batched.submit('r', { owner: 'a', n: 9, fail: true }), /batch failed/, 'a batch of one fails as it is')
  t.same(single.alone, [], 'without a retry')
})

t.test('without runOne a failed batch fails every operation in it, with no retry', async t => {
  let calls = 0
  let release = (): void => {}
  const reads = keyedBatches<number, number>({
    run: async (_key, ops) => {
      calls++
      if (calls === 1) await new Promise<void>(resolve => { release = resolve })
      if (calls === 2) throw new Error('database unavailable')
      return ops.map(n => n * 10)
    },
    max: 10
  })
  const first = reads.submit('k', 1)
  const failing = [reads.submit('k', 2), reads.submit('k', 3)]
  release()
  t.equal(await first, 10)
  for (const read of failing) await t.rejects(read, /database unavailable/)
  t.equal(calls, 2, 'one statement for the failed batch, none after it')
  t.equal(await reads.submit('k', 4), 40, 'the key works again')
})
