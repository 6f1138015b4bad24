// Digest emails: every minute (a pg-boss cron job, one run per tick across instances) the users whose slot has come
// get one email listing their unread notifications since the previous digest. The digest_runs row claimed in the
// email's transaction makes it at most one per user and slot, even with several workers or a restart mid-run.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

declare module 'fastify' {
  interface FastifyInstance {
    digestService: ReturnType<typeof createDigestService>
  }
}

const TICK_JOB = 'digest.tick'
const BATCH = 200
/** A tick stops after this many users; the next tick (a minute later) takes the rest. */
const MAX_PER_TICK = 5000
const LISTED = 50

class NothingNew extends Error {}

export function createDigestService (fastify: FastifyInstance) {
  const repo = fastify.digestsRepository

  return {
    /** Sends the digests due at `now` (the clock is a parameter so tests can move it); returns how many were sent. */
    async runDue (now: Date = new Date()): Promise<{ sent: number }> {
      let sent = 0
      let seen = 0
      while (seen < MAX_PER_TICK) {
        const due = await repo.due(fastify.db, now, BATCH)
        let progressed = false
        for (const digest of due) {
          try {
            await fastify.transaction(async tx => {
              if (!(await repo.claim(tx, digest.userId, digest.period, now))) return
              progressed = true
              const { items, total } = await repo.unread(tx, digest.userId, digest.since, now, LISTED)
              // Read meanwhile: roll the claim back so the slot stays open for what arrives next.
              if (total === 0) throw new NothingNew()
              const user = { id: digest.userId, email: digest.email, username: digest.username }
              const { id } = await fastify.emailService.digest(tx, user, digest.frequency, items, total)
              await repo.finish(tx, digest.userId, digest.period, total, id)
              sent++
            })
          } catch (err) {
            if (!(err instanceof NothingNew)) throw err
          }
        }
        seen += due.length
        // A batch where every row was claimed elsewhere means another worker is on it: leave the rest to it.
        if (due.length < BATCH || !progressed) break
      }
      return { sent }
    }
  }
}

export default fp(async fastify => {
  const service = createDigestService(fastify)
  fastify.decorate('digestService', service)
  await fastify.queue.work(TICK_JOB, async () => { await service.runDue() })
  await fastify.queue.schedule(TICK_JOB, '* * * * *')
}, { name: 'digest-service', dependencies: ['digests-repository', 'email-service', 'queue', 'db'] })
