// bcrypt at BCRYPT_COST (12 by default), never on the event loop: a pool of worker threads (lib/password-worker.ts,
// piscina) does the hashing, at the lowest priority when a hash is expensive. Not libuv's pool: file reads and DNS
// share that one, and a low-priority thread holding its queue lock would stall the event loop (measured: stored-image
// p99 doubled when libuv's pool ran at SCHED_IDLE). The queue is bounded (PASSWORD_QUEUE_MAX): a burst of sign-ins
// beyond it is refused at once (503, Retry-After) instead of waiting until the connection's time-out cuts it.
import { randomBytes } from 'node:crypto'
import { availableParallelism } from 'node:os'
import bcrypt from 'bcrypt'
import fp from 'fastify-plugin'
import { Piscina } from 'piscina'
import { ServiceUnavailable } from '../../lib/errors.js'

/** The default and production cost (config.ts refuses less than 10 in production). */
export const BCRYPT_COST = 12

// A cost-12 hash of a random string nobody knows: comparing against it when an account does not exist makes
// "unknown user" take as long as "wrong password". Another cost gets its own, made on first use.
const DUMMY_HASH_12 = '$2b$12$BKnT5.WbAD0MeZ6etrT4xOJKLC5Oos/vB1dAHjdCZwGBLbZ6YgPoC'

/**
 * Below this cost a hash takes a few milliseconds: it runs at normal priority, since at the lowest priority a busy
 * machine (a test suite on every core) could starve it for seconds. Lowering exists to keep 230 ms hashes from
 * delaying requests.
 */
const LOW_PRIORITY_FROM_COST = 10

// Run the TypeScript source in development and tests (the tsx loader is inherited by workers), the built file in dist.
const WORKER = new URL(`../../lib/password-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url)

export interface Passwords {
  hash: (password: string) => Promise<string>
  /** Compares against `hash`, or against a dummy hash when there is none, in the same time. */
  verify: (password: string, hash: string | null | undefined) => Promise<boolean>
  /** The hashing threads (for tests of their priority). */
  pool: Piscina
  /** The cost of new hashes (BCRYPT_COST). */
  cost: number
  /** Hashes and comparisons running or waiting; at `threads + PASSWORD_QUEUE_MAX` the next is refused (503). */
  readonly inFlight: number
  /** Throws the 503 a hash or comparison would get now (every place taken), so a caller can refuse before its own work. */
  assertRoom: () => void
  /**
   * `verify` under a lockout attempt: `reserve` counts the attempt first (it throws while the account is locked). A
   * comparison that never happens (the hashing queue full: 503) is no failed attempt: refused before the reservation
   * when the queue is already full, the attempt given back (`release`) when it filled meanwhile. Overload must not lock
   * the owner out.
   */
  verifyCounted: (password: string, hash: string | null, attempt: { account: string, reserve: () => Promise<void>, release: () => Promise<void> }) => Promise<boolean>
}

declare module 'fastify' {
  interface FastifyInstance {
    passwords: Passwords
  }
}

export default fp(async fastify => {
  const cost = fastify.config.bcryptCost
  const threads = availableParallelism()
  // One thread per core: hashing is pure CPU. Threads start on the first login and end after a minute without one.
  const pool = new Piscina({
    filename: WORKER.href,
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: 60_000,
    workerData: { lowPriority: cost >= LOW_PRIORITY_FROM_COST }
  })
  fastify.addHook('onClose', async () => { await pool.close({ force: true }) })

  // Counted here rather than read from piscina's queueSize, which leaves out tasks waiting for a thread to start.
  const capacity = threads + fastify.config.passwordQueueMax
  let inFlight = 0
  const run = async <T>(task: object, name: 'hash' | 'compare'): Promise<T> => {
    if (inFlight >= capacity) throw new ServiceUnavailable()
    inFlight++
    try {
      return await pool.run(task, { name }) as T
    } finally {
      inFlight--
    }
  }

  const hash = async (password: string): Promise<string> => await run<string>({ password, cost }, 'hash')
  // A cheap cost's dummy is made here in a millisecond; another expensive one on the pool when first needed (again if
  // that was refused).
  let dummyHash: Promise<string> | undefined = cost === BCRYPT_COST
    ? Promise.resolve(DUMMY_HASH_12)
    : cost < LOW_PRIORITY_FROM_COST ? Promise.resolve(bcrypt.hashSync(randomBytes(16).toString('hex'), cost)) : undefined

  const assertRoom = (): void => { if (inFlight >= capacity) throw new ServiceUnavailable() }
  const verify = async (password: string, stored: string | null | undefined): Promise<boolean> => {
    dummyHash ??= hash(randomBytes(16).toString('hex')).catch(err => { dummyHash = undefined; throw err })
    const ok = await run<boolean>({ password, hash: stored ?? await dummyHash }, 'compare')
    return ok && stored != null
  }
  fastify.decorate('passwords', {
    pool,
    cost,
    get inFlight () { return inFlight },
    assertRoom,
    hash,
    verify,
    async verifyCounted (password, stored, attempt) {
      assertRoom()
      await attempt.reserve()
      try {
        return await verify(password, stored)
      } catch (err) {
        await attempt.release().catch((releaseErr: unknown) => { fastify.log.warn({ err: releaseErr, account: attempt.account }, 'reserved sign-in attempt not given back') })
        throw err
      }
    }
  } satisfies Passwords)
}, { name: 'password' })
