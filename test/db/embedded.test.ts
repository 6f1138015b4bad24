import { execFileSync, spawn } from 'node:child_process'
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { withConnection } from '../../db/admin.js'
import { binariesDir, makeTraversable, startEmbeddedPostgres } from '../../db/embedded.js'

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

// As root the cluster runs as the user `postgres`, which must reach both its data folder and its own programs. A
// fresh clone in a private folder (mktemp -d, /root: mode 0700) hides node_modules from it: initdb failed with EACCES.
const asRoot = process.getuid?.() === 0
const runsAsPostgres = (file: string): boolean => {
  try {
    execFileSync('runuser', ['-u', 'postgres', '--', file, '--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

t.test('programs in a private folder are made reachable for the postgres user', { skip: !asRoot && 'runs as root only' }, async t => {
  // The postgres user exists once a cluster was started as root (createPostgresUser).
  const dataDir = await mkdtemp(path.join(tmpdir(), 'recipes-embedded-'))
  t.teardown(async () => await rm(dataDir, { recursive: true, force: true }))
  const db = await startEmbeddedPostgres(dataDir, quiet)
  await db.stop()
  t.ok(runsAsPostgres(path.join(await binariesDir(), 'initdb')), 'initdb of this checkout runs as postgres after a start')

  // A program deep inside a 0700 folder, as node_modules is in a private clone.
  const privateDir = await mkdtemp(path.join(tmpdir(), 'recipes-private-'))
  t.teardown(async () => await rm(privateDir, { recursive: true, force: true }))
  const bin = path.join(privateDir, 'clone', 'node_modules', 'bin')
  await mkdir(bin, { recursive: true })
  await chmod(path.join(privateDir, 'clone'), 0o700)
  const program = path.join(bin, 'initdb')
  await writeFile(program, '#!/bin/sh\nexit 0\n', { mode: 0o755 })
  t.notOk(runsAsPostgres(program), 'hidden at first (the EACCES of a private clone)')
  const warnings: string[] = []
  await makeTraversable(bin, { info: () => {}, warn: msg => warnings.push(msg) })
  t.ok(runsAsPostgres(program), 'reachable after')
  t.match(warnings.join('\n'), `adding o+x to ${privateDir}`, 'says which folders it opened')
  t.equal(execFileSync('stat', ['-c', '%a', privateDir]).toString().trim(), '711', 'passage only: no listing for others')
})
