// bcrypt at cost 12, never on the event loop: a pool of low-priority worker threads (lib/password-worker.ts, piscina)
// does the hashing. Not libuv's pool: file reads and DNS share that one, and a low-priority thread holding its queue
// lock would stall the event loop (measured: stored-image p99 doubled when libuv's pool ran at SCHED_IDLE).
import { availableParallelism } from 'node:os'
import fp from 'fastify-plugin'
import { Piscina } from 'piscina'

export const BCRYPT_COST = 12

// A cost-12 hash of a random string nobody knows: comparing against it when an account does not exist makes
// "unknown user" take as long as "wrong password".
const DUMMY_HASH = '$2b$12$BKnT5.WbAD0MeZ6etrT4xOJKLC5Oos/vB1dAHjdCZwGBLbZ6YgPoC'

// Run the TypeScript source in development and tests (the tsx loader is inherited by workers), the built file in dist.
const WORKER = new URL(`../../lib/password-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url)

export interface Passwords {
  hash: (password: string) => Promise<string>
  /** Compares against `hash`, or against a dummy hash when there is none, in the same time. */
  verify: (password: string, hash: string | null | undefined) => Promise<boolean>
  /** The hashing threads (for tests of their priority). */
  pool: Piscina
}

declare module 'fastify' {
  interface FastifyInstance {
    passwords: Passwords
  }
}

export default fp(async fastify => {
  // One thread per core: hashing is pure CPU. Threads start on the first login and end after a minute without one.
  const pool = new Piscina({ filename: WORKER.href, minThreads: 0, maxThreads: availableParallelism(), idleTimeout: 60_000 })
  fastify.addHook('onClose', async () => { await pool.close({ force: true }) })

  fastify.decorate('passwords', {
    pool,
    hash: async password => await pool.run({ password, cost: BCRYPT_COST }, { name: 'hash' }) as string,
    verify: async (password, hash) => {
      const ok = await pool.run({ password, hash: hash ?? DUMMY_HASH }, { name: 'compare' }) as boolean
      return ok && hash != null
    }
  } satisfies Passwords)
}, { name: 'password' })
