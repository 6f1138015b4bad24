// bench/scale-out.ts as a test: two real server.ts processes on one PostgreSQL and one Redis act as one service
// (tokens and their revocation, shared rate-limit counters, a background job that runs once).
import { randomBytes } from 'node:crypto'
import t from 'tap'
import { formatResult, runScaleOutCheck } from '../bench/scale-out.js'
import { TEST_DATABASE_PREFIX } from './setup/names.js'

// Two real processes start; on a busy machine (the whole suite in parallel) that takes a while.
// The check has its own deadlines (start, job, stop), so this only bounds the worst case.
t.setTimeout(240_000)

const redisUrl = process.env.REDIS_URL
const skip = redisUrl == null ? 'REDIS_URL is not set: two instances can only share counters and revocations through Redis' : false

t.test('two instances sharing PostgreSQL and Redis act as one service', { skip }, async t => {
  // `npm test` passes the server it prepared (DATABASE_URL's, or its embedded one). The runner's prefix means a
  // database left behind by a crash of this file is dropped with the run's other leftovers.
  const runId = process.env.TEST_TEMPLATE_DATABASE?.split('_').pop() ?? String(process.pid)
  const report = await runScaleOutCheck({
    databaseUrl: process.env.TEST_MAINTENANCE_URL ?? process.env.DATABASE_URL,
    redisUrl,
    databaseName: `${TEST_DATABASE_PREFIX}r${runId}_scaleout_${randomBytes(3).toString('hex')}`
  })
  for (const check of report.checks) t.ok(check.ok, formatResult(check))
  t.equal(report.checks.length, 7, 'every check ran: setup, token, revocation, optional auth, rate limit, job, stop')
  if (!report.ok) {
    for (const [name, log] of Object.entries(report.logs)) if (log.trim() !== '') t.comment(`instance ${name}:\n${log.trim()}`)
  }
})
