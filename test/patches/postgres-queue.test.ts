// patches/postgres+3.4.9.patch: postgres.js keeps its connections in queues (open, busy, full...) whose `shift` left
// every shifted entry behind, so a queue that never empties (idle connections taken and given back, or busy ones
// pipelined onto) grew by one entry per query, and `remove`, called on every move of a connection, scanned all of
// it: a pool slowed down query after query (measured: 41,000 -> 10,600 queries/s after 300,000 at 50 in flight) and
// its memory grew for the life of the process. Both module copies the package ships (import and require) are checked.
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import v8 from 'node:v8'
import vm from 'node:vm'
import t from 'tap'

interface Queue<T> { length: number, push: (x: T) => T, shift: () => T | undefined, remove: (x: T) => T | null }
type QueueFactory = <T>(initial?: T[]) => Queue<T>

const root = path.resolve(path.dirname(createRequire(import.meta.url).resolve('postgres')), '..', '..')
const copies = ['src/queue.js', 'cjs/src/queue.js']
const load = async (file: string): Promise<QueueFactory> =>
  (await import(pathToFileURL(path.join(root, file)).href) as { default: QueueFactory }).default

v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc') as () => void

for (const file of copies) {
  t.test(`${file}: first in, first out, with removal from anywhere`, async t => {
    const Queue = await load(file)
    const q = Queue(['a', 'b', 'c'])
    t.equal(q.shift(), 'a')
    t.equal(q.remove('a'), null, 'an entry already shifted out is not in the queue')
    q.push('d')
    t.equal(q.remove('c'), 'c', 'an entry in the queue is removed wherever it is')
    t.equal(q.remove('x'), null)
    t.equal(q.length, 2)
    t.same([q.shift(), q.shift()], ['b', 'd'])
    t.equal(q.length, 0)
    // Across the point where shifted entries are dropped: order and length stay right.
    const numbers = Queue<number>()
    const taken: number[] = []
    for (let i = 0; i < 100; i++) numbers.push(i)
    for (let i = 0; i < 1000; i++) {
      const x = numbers.shift()!
      taken.push(x)
      if (i % 7 === 0) t.equal(numbers.remove(x), null)
      numbers.push(x)
    }
    t.same(taken.slice(0, 200), [...Array.from({ length: 100 }, (_, i) => i), ...Array.from({ length: 100 }, (_, i) => i)], 'round robin, in order')
    t.equal(numbers.length, 100)
  })

  t.test(`${file}: a queue that never empties keeps the memory of what it holds`, async t => {
    const Queue = await load(file)
    const connections = Array.from({ length: 10 }, (_, id) => ({ id }))
    const q = Queue(connections)
    gc()
    const before = v8.getHeapStatistics().used_heap_size
    // What the pool does with its ten connections over a million queries: take one, put it back.
    for (let i = 0; i < 1_000_000; i++) q.push(q.shift()!)
    gc()
    const grown = v8.getHeapStatistics().used_heap_size - before
    // Unpatched: a million left-behind entries, 8 MB or more.
    t.ok(grown < 1_000_000, `grew by ${grown} bytes`)
    t.equal(q.length, 10)
  })
}
