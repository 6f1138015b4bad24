// Password hashing runs on a pool of worker threads, never on the event loop or libuv's pool: at production cost (12)
// at the lowest priority; the suite's own cost (BCRYPT_COST=4) at normal priority, so a busy machine cannot starve it.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import bcrypt from 'bcrypt'
import t from 'tap'
import { BCRYPT_COST } from '../../plugins/app/password.js'
import { LOWEST_NICENESS, SCHED_IDLE, SCHED_OTHER, threadId, threadPriority, type ThreadPriority } from '../../lib/thread-priority.js'
import type { FastifyInstance } from 'fastify'
import { build, json, login, registerUser } from '../helper.js'
import { createAdmin } from '../helpers/admins.js'

function hasChrt (): boolean {
  try {
    execFileSync('chrt', ['--max'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** The niceness this test process started with (its parent's: `nice npm test` runs everything a little lower). */
function startingNiceness (): number {
  const stat = readFileSync(`/proc/${process.ppid}/stat`, 'utf8')
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19 - 3])
}

// The production cost, whatever BCRYPT_COST the rest of the suite runs at.
const production = { env: { BCRYPT_COST: String(BCRYPT_COST) }, share: true }

t.test('hashes are bcrypt at cost 12 and verify both ways, with hashes made elsewhere too', async t => {
  const app = await build(t, production)
  t.equal(app.passwords.cost, 12)
  const hash = await app.passwords.hash('correct horse battery')
  t.match(hash, /^\$2[aby]\$12\$/)
  t.equal(bcrypt.getRounds(hash), BCRYPT_COST)
  t.equal(await app.passwords.verify('correct horse battery', hash), true)
  t.equal(await app.passwords.verify('correct horse battery!', hash), false)
  t.equal(await app.passwords.verify('correct horse battery', null), false, 'no hash (unknown account) never matches')
  const made = bcrypt.hashSync('made by bcryptjs', 4)
  t.equal(await app.passwords.verify('made by bcryptjs', made), true, 'a hash of the same format made by another library')
})

t.test('the event loop answers while cost-12 hashes are computed', async t => {
  const app = await build(t, production)
  let hashed = 0
  const hashing = Promise.all(Array.from({ length: 4 }, async () => { await app.passwords.hash('x'.repeat(20)); hashed++ }))
  const health = await app.inject({ method: 'GET', url: '/healthz' })
  t.equal(health.statusCode, 200)
  t.equal(hashed, 0, 'answered before any hash was done')
  await hashing
  t.equal(hashed, 4)
})

t.test('the hashing threads run at the lowest priority; the event loop keeps its own', { skip: process.platform !== 'linux' && 'thread priorities are set on Linux only' }, async t => {
  const app = await build(t, production)
  await app.passwords.hash('warm up a thread')
  const seen = await app.passwords.pool.run(null, { name: 'priority' }) as ThreadPriority | null
  if (seen == null) throw new Error('no thread id on Linux')
  t.not(seen.tid, threadId(), 'a thread other than the event loop')
  t.equal(seen.niceness, LOWEST_NICENESS)
  t.equal(seen.policy, hasChrt() ? SCHED_IDLE : SCHED_OTHER, 'SCHED_IDLE wherever chrt is installed')
  const loop = threadPriority(threadId() ?? process.pid)
  t.equal(loop.niceness, startingNiceness(), 'the event loop is not lowered')
  t.equal(loop.policy, SCHED_OTHER)
})

t.test('the suite hashes at cost 4 on normal-priority threads, and a cheaper hash still verifies against cost 12', { skip: process.platform !== 'linux' && 'thread priorities are set on Linux only' }, async t => {
  const app = await build(t, { env: { BCRYPT_COST: '4' } })
  const hash = await app.passwords.hash('quick')
  t.equal(bcrypt.getRounds(hash), 4)
  t.equal(await app.passwords.verify('quick', hash), true)
  t.equal(await app.passwords.verify('quick', null), false, 'the dummy comparison of an unknown account never matches')
  t.equal(await app.passwords.verify('made at 12', bcrypt.hashSync('made at 12', 12)), true, 'hashes of another cost verify')
  const seen = await app.passwords.pool.run(null, { name: 'priority' }) as ThreadPriority | null
  t.equal(seen?.niceness, startingNiceness(), 'as the process itself')
  t.equal(seen?.policy, SCHED_OTHER)
})

/**
 * Takes every place of the hashing queue, and takes it again in the same microtask as it frees, until `release`: a
 * request admitted to the queue meanwhile would wait for a thread and answer 401 (or 201) instead of 503. `release`
 * resolves once the holders stop, with how many of their comparisons completed and matched.
 */
function holdEveryPlace (app: FastifyInstance, capacity: number, slowHash: string): { release: () => Promise<number> } {
  const state = { held: true, verified: 0 }
  const holders = Array.from({ length: capacity }, async () => {
    while (state.held) {
      if (await app.passwords.verify('slow', slowHash)) state.verified++
    }
  })
  return {
    release: async () => {
      state.held = false
      await Promise.all(holders)
      return state.verified
    }
  }
}

t.test('a burst beyond the bounded queue is refused at once with 503 and Retry-After; the work admitted completes (#41)', async t => {
  const queueMax = 1
  const app = await build(t, { env: { PASSWORD_QUEUE_MAX: String(queueMax) } })
  const capacity = availableParallelism() + queueMax
  const user = await registerUser(app)
  const slowHash = await bcrypt.hash('slow', 10)

  const held = holdEveryPlace(app, capacity, slowHash)
  t.equal(app.passwords.inFlight, capacity, 'the queue is full')

  const burst = await Promise.all([
    ...Array.from({ length: 8 }, async (_, i) => await login(app, `nobody${process.pid}x${i}`, 'Wrong1234')),
    ...Array.from({ length: 3 }, async (_, i) => await app.inject({
      method: 'POST', url: '/api/auth/register', payload: { username: `burst${process.pid}x${i}`, email: `burst${process.pid}x${i}@example.com`, password: 'Sup3rSecret!' }
    }))
  ])
  const verified = await held.release()
  for (const res of burst) {
    t.equal(res.statusCode, 503, 'refused, not queued')
    t.same(json(res), { error: 'Service temporarily unavailable' })
    t.equal(res.headers['retry-after'], '2')
  }

  t.ok(verified >= capacity, `the admitted comparisons all completed and matched (${verified})`)
  t.equal(app.passwords.inFlight, 0, 'every place is given back')
  t.equal((await login(app, user.username, user.password)).statusCode, 200, 'the next sign-in is served')
  const again = await app.inject({
    method: 'POST', url: '/api/auth/register', payload: { username: `burst${process.pid}x0`, email: `burst${process.pid}x0@example.com`, password: 'Sup3rSecret!' }
  })
  t.equal(again.statusCode, 201, 'a refused registration created nothing')
})

/** Who signs in, for the lockout test below: a user or an admin, each with its own table and route. */
const accounts = {
  user: async (app: FastifyInstance) => {
    const user = await registerUser(app)
    return { id: user.id, table: 'users', signIn: async (password: string) => await login(app, user.username, password), password: user.password }
  },
  admin: async (app: FastifyInstance) => {
    const admin = await createAdmin(app)
    const signIn = async (password: string) => await app.inject({ method: 'POST', url: '/api/admin/auth/login', payload: { identifier: admin.username, password } })
    return { id: admin.id, table: 'admin_users', signIn, password: admin.password }
  }
}

for (const [kind, create] of Object.entries(accounts)) {
  t.test(`${kind} sign-ins refused for a full queue (503) are not failures: overload locks nobody out`, async t => {
    const queueMax = 1
    const app = await build(t, { env: { PASSWORD_QUEUE_MAX: String(queueMax) } })
    const capacity = availableParallelism() + queueMax
    const account = await create(app)
    const slowHash = await bcrypt.hash('slow', 10)

    const held = holdEveryPlace(app, capacity, slowHash)
    t.equal(app.passwords.inFlight, capacity, 'the queue is full')
    // More than the five attempts that lock an account, with the right password and with a wrong one.
    const burst = await Promise.all(Array.from({ length: 8 }, async (_, i) => await account.signIn(i % 2 === 0 ? account.password : 'Wrong1234-passphrase')))
    await held.release()
    t.same(burst.map(res => res.statusCode), Array(8).fill(503), 'every sign-in refused before its password was compared')

    const [row] = await app.db`select failed_login_attempts, locked_at from ${app.db(account.table)} where id = ${account.id}`
    t.same(row, { failedLoginAttempts: 0, lockedAt: null }, 'no attempt counted, no lock')
    t.equal((await account.signIn(account.password)).statusCode, 200, 'the owner signs in')
  })
}
