import { readdirSync, readFileSync } from 'node:fs'
import { getPriority } from 'node:os'
import t from 'tap'
import { lowerThreadPoolPriority, THREAD_POOL_NICENESS } from '../../lib/thread-pool-priority.js'

t.test('the thread pool yields to the event loop', { skip: process.platform !== 'linux' && 'thread priorities are set on Linux only' }, async t => {
  const changed = await lowerThreadPoolPriority()
  t.ok(changed >= 1, 'the pool threads were found')
  const tasks = readdirSync('/proc/self/task').map(tid => ({ tid: Number(tid), name: readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() }))
  const pool = tasks.filter(task => task.name === 'libuv-worker')
  t.equal(pool.length, changed)
  for (const thread of pool) t.equal(getPriority(thread.tid), THREAD_POOL_NICENESS, `pool thread ${thread.tid}`)
  t.equal(getPriority(process.pid), 0, 'the event loop keeps its priority')
})
