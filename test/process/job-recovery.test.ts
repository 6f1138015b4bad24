// A job running when its process is killed (kill -9: no shutdown hook runs) is taken up by another instance once its
// lease lapses (plugins/external/queue.ts: LEASE_SECONDS, renewed while it runs), not after pg-boss's 15-minute
// expiry, and its effect happens once: the welcome email of a registration, cut off mid-delivery, arrives exactly once.
import { spawn } from 'node:child_process'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SMTPServer } from 'smtp-server'
import t from 'tap'
import { LEASE_SECONDS } from '../../plugins/external/queue.js'
import { build, drainJobs, eventually } from '../helper.js'
import { freePort } from '../helpers/net.js'
import { testDatabaseUrl } from '../setup/database.js'

const TSX = import.meta.resolve('tsx')

t.test('kill -9 during an email delivery: another instance delivers it once the lease lapses', async t => {
  // The first delivery is held open mid-DATA (the process dies there); later ones are accepted.
  let holding = true
  let started = 0
  const accepted: string[] = []
  const smtpPort = await freePort()
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData (stream, session, callback) {
      started++
      if (holding) { stream.resume(); return }
      stream.on('data', () => {})
      stream.on('end', () => { accepted.push(session.envelope.rcptTo[0]?.address ?? ''); callback() })
    }
  })
  // The killed process's connection resets under the server: expected here.
  smtp.on('error', () => {})
  await new Promise<void>(resolve => smtp.listen(smtpPort, '127.0.0.1', resolve))
  t.teardown(async () => { await new Promise<void>(resolve => { smtp.close(() => { resolve() }) }) })
  const smtpUrl = `smtp://127.0.0.1:${smtpPort}`

  const dir = await mkdtemp(path.join(tmpdir(), 'recipes-jobs-'))
  const env = { DATABASE_URL: await testDatabaseUrl(), SMTP_URL: smtpUrl, JOB_RETRY_DELAY_SECONDS: '1', SCHEDULED_JOBS: 'false' }
  const child = spawn(process.execPath, ['--import', TSX, path.resolve('server.ts')], {
    cwd: dir,
    env: { PATH: process.env.PATH, DATA_DIR: path.join(dir, 'data'), PORT: '0', BFF_PORT: '0', LOG_LEVEL: 'info', BCRYPT_COST: '4', ...env }
  })
  const output: string[] = []
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()))
  const exited = new Promise(resolve => child.on('exit', resolve))
  t.teardown(() => { if (child.exitCode == null && child.signalCode == null) child.kill('SIGKILL') })
  const port = await eventually(async () => /API listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output.join(''))?.[1], 120_000)

  const email = `killed-${process.pid}@example.com`
  const registered = await fetch(`http://127.0.0.1:${port}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, username: `killed${process.pid}`, password: 'Correct-horse-9' })
  })
  t.equal(registered.status, 201)
  await eventually(async () => started === 1, 20_000)
  child.kill('SIGKILL')
  await exited
  holding = false

  const app = await build(t, { env: { SMTP_URL: smtpUrl, JOB_RETRY_DELAY_SECONDS: '1' } })
  const [job] = await app.db<Array<{ state: string, expireSeconds: number }>>`
    select state, extract(epoch from expire_in)::int as expire_seconds from pgboss.job where name = 'email.send'`
  // Still active, or already put back for its retry when the lease lapsed while this instance was starting.
  t.ok(['active', 'retry'].includes(job.state), `the killed process left the job unfinished (${job.state})`)
  t.ok(job.expireSeconds <= LEASE_SECONDS, `its lease was ${job.expireSeconds} s, not pg-boss's 15 minutes`)
  // The lease (15 s) plus pg-boss's maintenance round (10 s) and the retry delay: well inside the bound.
  await eventually(async () => accepted.length === 1, 90_000)
  await drainJobs(app, ['email.send'])
  t.same(accepted, [email], 'delivered once, by the surviving instance')
  const [row] = await app.db<Array<{ status: string }>>`select status from email_outbox where "to" = ${email}`
  t.equal(row.status, 'sent')
})
