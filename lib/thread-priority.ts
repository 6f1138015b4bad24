// Lowers the scheduling priority of the calling thread, so that on a busy machine it yields its core to the event loop
// and still uses every idle cycle. Linux gives every thread its own policy and nice value: the thread runs as
// SCHED_IDLE (util-linux `chrt`, as Node has no call for it), so a waking event loop takes the core at once. Without
// `chrt` it gets the lowest nice value, which lowers its share but lets it finish its time slice first (measured on 2
// cores during a login flood: the recipe detail's p99 was 1.0-1.5x its baseline with SCHED_IDLE, 2.3x with nice 19).
// Only threads that hold no lock the event loop waits for may run this low: libuv's own pool (file reads, DNS) must
// not, as the event loop takes the pool's queue lock and would wait for a thread that gets no CPU.
import { execFile } from 'node:child_process'
import { readFileSync, readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'
import { promisify } from 'node:util'

export const LOWEST_NICENESS = 19
export const SCHED_OTHER = 0
export const SCHED_IDLE = 5

export interface ThreadPriority {
  tid: number
  /** The thread's scheduling policy (SCHED_OTHER or SCHED_IDLE). */
  policy: number
  niceness: number
}

const run = promisify(execFile)

/** This thread's id on Linux (/proc/thread-self links to `<pid>/task/<tid>`), or null elsewhere. */
export function threadId (): number | null {
  try {
    return Number(readlinkSync('/proc/thread-self').split('/').at(-1))
  } catch {
    return null
  }
}

/** A thread's policy and nice value, read from /proc/self/task/<tid>/stat (fields 19 and 41). */
export function threadPriority (tid: number): ThreadPriority {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
  // Fields after the parenthesised command name, which may itself contain spaces; field 3 is the first of these.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return { tid, niceness: Number(fields[19 - 3]), policy: Number(fields[41 - 3]) }
}

/** Lowers the calling thread's priority as far as it goes; what it got, or null where threads have no priority. */
export async function lowerThisThreadPriority (): Promise<ThreadPriority | null> {
  const tid = threadId()
  if (tid == null) return null
  try {
    setPriority(tid, LOWEST_NICENESS)
    await run('chrt', ['--idle', '--pid', '0', String(tid)])
  } catch {
    // A system that refuses, or no `chrt`: priorities are an optimisation only.
  }
  return threadPriority(tid)
}
