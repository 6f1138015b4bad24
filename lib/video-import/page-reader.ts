// Where a platform's page is read. Reading is linear in the page (html.ts, page.ts), yet parsing a few megabytes of
// embedded JSON still costs tens of milliseconds: a page larger than a small one goes to a worker thread (piscina:
// one thread, a bounded queue, a time limit), so the event loop keeps serving other requests.
import { Piscina } from 'piscina'
import { runTimed, TaskNotStarted, TaskTimedOut } from '../timed-task.js'
import type { Platform } from './links.js'
import { readVideoPage, type PageRead } from './page.js'

/** Pages up to this many characters are read on the calling thread (a few milliseconds at most). */
export const READ_ON_THREAD_CHARS = 64 * 1024
/** Pages waiting for the thread beyond the one it reads: more are refused (the caller answers 503). */
export const MAX_QUEUED = 16
/** A page whose reading takes longer is abandoned (its thread ends). */
export const READ_TIMEOUT_MS = 10_000
/** Waiting for the thread to take a page (the queue, the thread's start) is bounded apart: past it, busy (503). */
const START_WAIT_MS = 30_000

// Run the TypeScript source in development and tests (the tsx loader is inherited by workers), the built file in dist.
const WORKER = new URL(`./worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url)

export class ReaderBusy extends Error {
  override name = 'ReaderBusy'
}

export class ReadTimedOut extends Error {
  override name = 'ReadTimedOut'
}

export interface PageReader {
  read: (html: string, platform: Platform, postId: string | null) => Promise<PageRead>
  /** Ends the thread, if one was started. */
  close: () => Promise<void>
}

export interface ReaderLimits {
  maxQueued: number
  timeoutMs: number
  startWaitMs: number
}

const LIMITS: ReaderLimits = { maxQueued: MAX_QUEUED, timeoutMs: READ_TIMEOUT_MS, startWaitMs: START_WAIT_MS }

/**
 * One thread at most, started on the first large page and ended after a minute without one. `limits` differ from the
 * defaults only in tests (a timeout or a full queue reached with a few pages).
 */
export function createPageReader (limits: Partial<ReaderLimits> = {}): PageReader {
  const { maxQueued, timeoutMs, startWaitMs } = { ...LIMITS, ...limits }
  let pool: Piscina | undefined
  return {
    async read (html, platform, postId) {
      if (html.length <= READ_ON_THREAD_CHARS) return readVideoPage(html, platform, postId)
      pool ??= new Piscina({ filename: WORKER.href, minThreads: 0, maxThreads: 1, maxQueue: maxQueued, idleTimeout: 60_000 })
      if (pool.queueSize >= maxQueued) throw new ReaderBusy('the page reader is busy')
      try {
        return await runTimed<PageRead>(pool, { html, platform, postId }, { timeoutMs, startWaitMs })
      } catch (err) {
        if (err instanceof TaskTimedOut) throw new ReadTimedOut(`reading the page took longer than ${timeoutMs} ms`, { cause: err })
        if (err instanceof TaskNotStarted) throw new ReaderBusy('the page reader did not start in time', { cause: err })
        throw err
      }
    },
    async close () {
      await pool?.close({ force: true })
    }
  }
}
