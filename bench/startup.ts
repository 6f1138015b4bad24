// `node --import tsx bench/startup.ts`: how long `npm start` takes to answer /readyz on a checkout that has been
// installed (issue 45, item 7: within 5 s once the embedded database is initialised). Nothing configured, as a newcomer
// runs it: the embedded PostgreSQL in a fresh DATA_DIR. Each round:
//   cold  the first start in an empty DATA_DIR (initdb, the migrations, generated secrets)
//   warm  the next start in the same DATA_DIR (the database initialised, the build up to date)
// Times run from spawning `npm start` to the first 200 of /readyz; the server is stopped with SIGTERM between starts.
// A build, if `npm start` needs one (scripts/build-if-stale.ts), is made once before the rounds and not counted.
//   STARTUP_ROUNDS  rounds (3)   STARTUP_TARGET_MS  the warm target (5000)
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { freePort, REPO } from './servers.js'

const ROUNDS = Math.max(1, Number(process.env.STARTUP_ROUNDS ?? 3))
const TARGET_MS = Number(process.env.STARTUP_TARGET_MS ?? 5000)

/** Spawns `npm start` and resolves with the milliseconds until /readyz answered 200, and a stop function. */
/** Whether a postgres process serves a data directory under `dataDir`. */
function postgresRunning (dataDir: string): boolean {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8')
      if (cmd.includes('postgres') && cmd.includes(dataDir)) return true
    } catch {} // gone meanwhile
  }
  return false
}

async function start (dataDir: string): Promise<{ ms: number, stop: () => Promise<void> }> {
  const [port, bffPort] = [await freePort(), await freePort()]
  const began = performance.now()
  const child = spawn('npm', ['start', '--silent'], {
    cwd: REPO,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, PORT: String(port), BFF_PORT: String(bffPort), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true
  })
  const exited = new Promise<void>(resolve => child.once('exit', () => { resolve() }))
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(1000) }).then(r => r.ok, () => false)
    if (ok) break
    if (child.exitCode != null) throw new Error(`npm start exited with ${child.exitCode} before it was ready`)
    if (performance.now() - began > 300_000) throw new Error('not ready within 300 s')
    await new Promise(resolve => setTimeout(resolve, 25))
  }
  const ms = performance.now() - began
  // The whole group: npm, its shell and node (which stops its embedded database, in a group of its own, on SIGTERM);
  // then wait until that database is gone too, so the next start finds its data directory free.
  return {
    ms,
    stop: async () => {
      process.kill(-child.pid!, 'SIGTERM')
      await exited
      for (let i = 0; i < 600 && postgresRunning(dataDir); i++) await new Promise(resolve => setTimeout(resolve, 50))
      if (postgresRunning(dataDir)) throw new Error(`the embedded database of ${dataDir} did not stop`)
    }
  }
}

async function main (): Promise<void> {
  // Make sure `npm start` finds an up-to-date build, so no round pays for one.
  const build = spawn('node', ['scripts/build-if-stale.ts'], { cwd: REPO, stdio: 'inherit' })
  if (await new Promise(resolve => build.once('exit', resolve)) !== 0) throw new Error('the build failed')

  const cold: number[] = []
  const warm: number[] = []
  for (let round = 1; round <= ROUNDS; round++) {
    const dir = await mkdtemp(path.join(tmpdir(), 'bench-startup-'))
    try {
      const dataDir = path.join(dir, 'data')
      const first = await start(dataDir)
      cold.push(first.ms)
      await first.stop()
      const second = await start(dataDir)
      warm.push(second.ms)
      await second.stop()
      console.log(`round ${round}: cold ${(first.ms / 1000).toFixed(2)} s, warm ${(second.ms / 1000).toFixed(2)} s`)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
  const warmMedian = median(warm)
  console.log(`cold start (empty DATA_DIR): median ${(median(cold) / 1000).toFixed(2)} s of ${cold.length}`)
  console.log(`${warmMedian <= TARGET_MS ? 'ok  ' : 'FAIL'} warm start (database initialised): median ${(warmMedian / 1000).toFixed(2)} s ` +
    `(target <= ${TARGET_MS / 1000} s); load average ${(await import('node:os')).loadavg().map(l => l.toFixed(1)).join(' ')}`)
  if (warmMedian > TARGET_MS) process.exitCode = 1
}

await main()
