// Password hashing (bcrypt, cost 12) runs on libuv's thread pool, so it never blocks the event loop; but a login flood
// keeps all four pool threads busy on a 2-core machine and the event loop gets a share of the CPU like any of them.
// On Linux a thread has its own nice value: the pool threads yield to the event loop and still use every idle cycle.
import { randomFill } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { setPriority } from 'node:os'
import { promisify } from 'node:util'

/** The nice value of libuv's pool threads (0 is normal, 19 the lowest priority). */
export const THREAD_POOL_NICENESS = 10

/** Lowers the priority of libuv's thread pool (created by one pool task first); how many threads changed. */
export async function lowerThreadPoolPriority (niceness = THREAD_POOL_NICENESS): Promise<number> {
  if (process.platform !== 'linux') return 0
  await promisify(randomFill)(Buffer.alloc(1))
  let changed = 0
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      if (readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() !== 'libuv-worker') continue
      setPriority(Number(tid), niceness)
      changed++
    } catch {
      // A thread that ended meanwhile, or a system that refuses: priorities are an optimisation only.
    }
  }
  return changed
}
