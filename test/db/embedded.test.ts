import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { withConnection } from '../../db/admin.js'
import { startEmbeddedPostgres } from '../../db/embedded.js'

const quiet = { info: () => {}, warn: () => {} }

function isAlive (pid: number): boolean {
  try { process.kill(pid, 0); return true } catch { return false }
}

t.test('embedded PostgreSQL keeps its data across restarts and unclean stops', async t => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'recipes-embedded-'))
  t.teardown(async () => await rm(dataDir, { recursive: true, force: true }))

  const first = await startEmbeddedPostgres(dataDir, quiet)
  await withConnection(first.url, async sql => {
    const [{ encoding }] = await sql`select pg_encoding_to_char(encoding) as encoding from pg_database where datname = current_database()`
    t.equal(encoding, 'UTF8', 'cluster is UTF-8')
    await sql`create table kept (v text)`
    await sql`insert into kept values ('survives')`
  })
  await first.stop()

  // A previous process killed with -9 leaves its postmaster running with the pid file in place.
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `
    import { startEmbeddedPostgres } from ${JSON.stringify(path.resolve('db/embedded.ts'))}
    await startEmbeddedPostgres(${JSON.stringify(dataDir)}, { info () {}, warn () {} })
    console.log('started')
    setInterval(() => {}, 1000)
  `], { stdio: ['ignore', 'pipe', 'inherit'] })
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => { if (d.toString().includes('started')) resolve() })
    child.on('exit', code => reject(new Error(`child exited ${code}`)))
  })
  const orphan = Number((await readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0])
  child.kill('SIGKILL')
  await new Promise(resolve => child.once('exit', resolve))
  t.ok(isAlive(orphan), 'the orphaned postmaster is still running')

  const second = await startEmbeddedPostgres(dataDir, quiet)
  t.notOk(isAlive(orphan), 'the orphan was stopped')
  await withConnection(second.url, async sql => {
    t.same((await sql`select v from kept`).map(r => r.v), ['survives'], 'data survived')
  })
  await second.stop()

  // A pid file left by a postmaster that no longer exists.
  await writeFile(path.join(dataDir, 'pg', 'postmaster.pid'), '999999\n')
  const third = await startEmbeddedPostgres(dataDir, quiet)
  await withConnection(third.url, async sql => { t.equal((await sql`select count(*)::int as n from kept`)[0].n, 1) })
  await third.stop()
})
