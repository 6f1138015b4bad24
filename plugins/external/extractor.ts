// Recipe extraction off the event loop. Reading a hostile 5 MB page costs about a second of CPU; on the event loop
// that second would stall every other request of the instance. A small pool of worker threads (piscina) runs it
// instead, with a bounded queue (503 beyond) and a time limit that ends the worker running a runaway page.
import { availableParallelism } from 'node:os'
import fp from 'fastify-plugin'
import { Piscina } from 'piscina'
import { ImportBusy, pageReadTimeout } from '../../lib/errors.js'
import type { RecipePreview } from '../../lib/recipe-import/preview.js'
import { runTimed, TaskNotStarted, TaskTimedOut } from '../../lib/timed-task.js'

declare module 'fastify' {
  interface FastifyInstance {
    extractor: { extract: (html: string, url: string) => Promise<RecipePreview | null> }
  }
}

export const EXTRACT_LIMITS = {
  /** Pages read at once per instance (at most half the cores, so requests keep a core). */
  threads: Math.max(1, Math.min(2, Math.floor(availableParallelism() / 2))),
  /** Pages waiting beyond those: more answer 503 `IMPORT_BUSY`. */
  queued: 32,
  /** A page whose reading takes longer is abandoned (its worker ends): the linear extractor needs ~1 s for 5 MB. */
  timeoutMs: 10_000,
  /**
   * Waiting for a worker to take the page (the queue, a worker's start) is bounded apart: past it the answer is 503
   * busy, not "the page took too long" (a loaded machine starting a worker is no fault of the page).
   */
  startWaitMs: 30_000
}

// Run the TypeScript source in development and tests (the tsx loader is inherited by workers), the built file in dist.
const WORKER = new URL(`../../lib/recipe-import/extract/worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url)

export default fp(async fastify => {
  const pool = new Piscina({
    filename: WORKER.href,
    minThreads: 0,
    maxThreads: EXTRACT_LIMITS.threads,
    maxQueue: EXTRACT_LIMITS.queued,
    idleTimeout: 60_000
  })
  fastify.addHook('onClose', async () => { await pool.close({ force: true }) })

  fastify.decorate('extractor', {
    async extract (html: string, url: string): Promise<RecipePreview | null> {
      if (pool.queueSize >= EXTRACT_LIMITS.queued) throw new ImportBusy()
      try {
        return await runTimed<RecipePreview | null>(pool, { html, url }, EXTRACT_LIMITS)
      } catch (err) {
        if (err instanceof TaskTimedOut) {
          fastify.log.warn({ url, timeoutMs: EXTRACT_LIMITS.timeoutMs }, 'recipe extraction abandoned')
          throw pageReadTimeout(EXTRACT_LIMITS.timeoutMs / 1000)
        }
        if (err instanceof TaskNotStarted) {
          fastify.log.warn({ url, startWaitMs: EXTRACT_LIMITS.startWaitMs }, 'recipe extraction not started in time')
          throw new ImportBusy()
        }
        throw err
      }
    }
  })
}, { name: 'extractor' })
