// bcrypt on a thread of its own (plugins/app/password.ts runs a pool of these). At a production cost each thread runs
// at the lowest priority (lib/thread-priority.ts): a login flood uses every idle cycle of the machine without
// delaying requests.
import bcrypt from 'bcrypt'
import { workerData } from 'piscina'
import { lowerThisThreadPriority, threadId, threadPriority, type ThreadPriority } from './thread-priority.js'

if ((workerData as { lowPriority?: boolean } | undefined)?.lowPriority !== false) await lowerThisThreadPriority()

export function hash ({ password, cost }: { password: string, cost: number }): string {
  return bcrypt.hashSync(password, cost)
}

export function compare ({ password, hash }: { password: string, hash: string }): boolean {
  return bcrypt.compareSync(password, hash)
}

/** The running thread's priority, for tests. */
export function priority (): ThreadPriority | null {
  const tid = threadId()
  return tid == null ? null : threadPriority(tid)
}
