// Where a model's reply is read. Reading is linear in the reply and its lists are cut before any item is looked at
// (recipe-output.ts), yet parsing and cleaning up to 1 MB of JSON still costs tens of milliseconds: a reply longer
// than a recipe's usually is goes to a worker thread (piscina), so the event loop keeps serving other requests.
import { Piscina } from 'piscina'
import { readRecipe, type ReadResult } from './recipe-output.js'

/**
 * Replies up to this many characters are read on the calling thread: at most about 3 ms (400 ingredient lines, the
 * most that is read, cost that much at any size), less than a thread hop is worth. A recipe's reply is 2-6 kB.
 */
export const READ_ON_THREAD_CHARS = 16 * 1024

// Run the TypeScript source in development and tests (the tsx loader is inherited by workers), the built file in dist.
const WORKER = new URL(`./reply-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url)

export interface ReplyReader {
  read: (content: string | null) => Promise<ReadResult>
  /** Ends the thread, if one was started. */
  close: () => Promise<void>
}

/** One thread at most, started on the first large reply and ended after a minute without one. */
export function createReplyReader (): ReplyReader {
  let pool: Piscina | undefined
  return {
    async read (content) {
      if (content == null || content.length <= READ_ON_THREAD_CHARS) return readRecipe(content)
      pool ??= new Piscina({ filename: WORKER.href, minThreads: 0, maxThreads: 1, idleTimeout: 60_000 })
      return await pool.run(content) as ReadResult
    },
    async close () {
      await pool?.close({ force: true })
    }
  }
}
