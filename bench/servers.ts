// Child processes: every server the bench measures runs on this same Node binary (process.execPath) in its own
// process, with bench/probe.mjs preloaded and an IPC channel to ask it for event-loop delay and memory.
import { spawn, type ChildProcess } from 'node:child_process'
import { openSync, closeSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'

export const REPO = path.resolve(import.meta.dirname, '..')
const PROBE = pathToFileURL(path.join(import.meta.dirname, 'probe.mjs')).href

export interface ProbeReport {
  loopP50: number
  loopP99: number
  loopMax: number
  rss: number
  peakRss: number
  /** The RSS of the processes the server started (the headless browser), now. */
  descendantsRss: number
  heapTotal: number
  external: number
}

export interface Child {
  name: string
  base: string
  logFile: string
  pid: number
  /** Starts a new event-loop delay window. */
  reset: () => Promise<void>
  report: () => Promise<ProbeReport>
  /** A full garbage collection first, then the report: what a collection would give back (a diagnosis, not a target). */
  collect: () => Promise<ProbeReport>
  /** Writes a heap snapshot in the child's working folder; its file name. */
  snapshot: () => Promise<string>
  /** Resolves once the process used less than 5% of a core over 250 ms (in-flight work finished), or after maxMs. */
  quiet: (maxMs?: number) => Promise<void>
  stop: () => Promise<void>
}

/**
 * bench/ceiling.ts bundled into one plain module (its packages left to node_modules), so the bare servers start on
 * `node` alone, with no loader and Node's default flags.
 */
export async function bundleCeiling (): Promise<string> {
  const outfile = path.join(REPO, 'node_modules', '.cache', 'bench', 'ceiling.mjs')
  await build({
    entryPoints: [path.join(REPO, 'bench', 'ceiling.ts')],
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node24',
    logLevel: 'warning'
  })
  return outfile
}

/** A port nothing listens on right now. */
export async function freePort (): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

const running = new Set<ChildProcess>()
// A crashed or interrupted bench leaves no servers behind.
process.on('exit', () => { for (const child of running) child.kill('SIGKILL') })
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const child of running) child.kill('SIGKILL')
    process.exit(130)
  })
}

function tail (file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')
  } catch {
    return ''
  }
}

interface StartOptions {
  name: string
  /** Arguments after the node binary and the probe, e.g. ['dist/server.js']. */
  args: string[]
  env: NodeJS.ProcessEnv
  cwd: string
  port: number
  logFile: string
  /** Path answered with 200 once the server can take traffic. */
  readyPath: string
  timeoutMs?: number
}

export async function startChild (options: StartOptions): Promise<Child> {
  const fd = openSync(options.logFile, 'a')
  const child = spawn(process.execPath, ['--import', PROBE, ...options.args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', fd, fd, 'ipc']
  })
  closeSync(fd)
  running.add(child)
  let exited: string | null = null
  const exit = new Promise<void>(resolve => child.once('exit', (code, signal) => {
    exited = `exited with ${signal ?? code}`
    running.delete(child)
    resolve()
  }))

  let nextId = 0
  const ask = async <T>(probe: string, timeoutMs = 10_000): Promise<T> => await new Promise((resolve, reject) => {
    const id = ++nextId
    const timer = setTimeout(() => { child.off('message', onMessage); reject(new Error(`${options.name}: no probe answer to ${probe}`)) }, timeoutMs)
    function onMessage (message: { probe?: string, id?: number }): void {
      if (message?.probe !== probe || message.id !== id) return
      clearTimeout(timer)
      child.off('message', onMessage)
      resolve(message as T)
    }
    child.on('message', onMessage)
    child.send({ probe, id })
  })

  const base = `http://127.0.0.1:${options.port}`
  const deadline = Date.now() + (options.timeoutMs ?? 120_000)
  for (;;) {
    if (exited != null) throw new Error(`${options.name} ${exited} before it was ready; ${options.logFile}:\n${tail(options.logFile)}`)
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`${options.name} not ready after ${options.timeoutMs ?? 120_000} ms; ${options.logFile}:\n${tail(options.logFile)}`)
    }
    const ok = await fetch(base + options.readyPath, { signal: AbortSignal.timeout(2000) }).then(r => r.ok, () => false)
    if (ok) break
    await new Promise(resolve => setTimeout(resolve, 200))
  }

  return {
    name: options.name,
    base,
    logFile: options.logFile,
    pid: child.pid!,
    reset: async () => { await ask('reset') },
    report: async () => {
      const { loopP50, loopP99, loopMax, rss, peakRss, descendantsRss, heapTotal, external } = await ask<ProbeReport>('report')
      return { loopP50, loopP99, loopMax, rss, peakRss, descendantsRss, heapTotal, external }
    },
    collect: async () => await ask<ProbeReport>('gc'),
    snapshot: async () => (await ask<{ file: string }>('snapshot', 120_000)).file,
    quiet: async (maxMs = 20_000) => {
      const end = Date.now() + maxMs
      let last = (await ask<{ cpu: number }>('cpu')).cpu
      while (Date.now() < end) {
        await new Promise(resolve => setTimeout(resolve, 250))
        const { cpu } = await ask<{ cpu: number }>('cpu')
        const busy = (cpu - last) / 250_000
        last = cpu
        if (busy < 0.05) return
      }
    },
    stop: async () => {
      if (exited != null) return
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
      await exit
      clearTimeout(timer)
    }
  }
}
