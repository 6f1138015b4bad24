// Preloaded (`node --import ./bench/probe.mjs ...`) into every server the bench starts. Plain JS so it needs no
// loader. Answers the parent over the IPC channel; it never writes to stdout and never keeps the process alive.
//   { probe: 'reset' }  -> starts a new event-loop delay window        -> { probe: 'reset', id }
//   { probe: 'report' } -> the window so far and memory                -> { probe: 'report', id, loopP50, loopP99, loopMax, rss, peakRss,
//                                                                           descendantsRss, heapTotal, external }
//   { probe: 'cpu' }    -> CPU time used so far (µs), to tell when the process has gone quiet
//   { probe: 'gc' }     -> a full garbage collection, then as 'report' (a diagnosis: what a collection would give back)
//   { probe: 'snapshot' } -> writes a heap snapshot into the working folder -> { probe, id, file }
// Loop delays are in ms, memory in MB. peakRss is the process's high-water mark (VmHWM): since the last reset where
// Linux lets a process reset it (writing 5 to /proc/self/clear_refs), else since the process started.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { setFlagsFromString, writeHeapSnapshot } from 'node:v8'
import { runInNewContext } from 'node:vm'

if (typeof process.send === 'function') {
  // The histogram records how late each timer tick is, including the tick interval itself: subtract it.
  const RESOLUTION_MS = 10
  const loop = monitorEventLoopDelay({ resolution: RESOLUTION_MS })
  loop.enable()
  const ms = ns => Math.max(0, ns / 1e6 - RESOLUTION_MS)
  const mb = bytes => bytes / 1024 / 1024

  function peakRssMb () {
    try {
      const line = readFileSync('/proc/self/status', 'utf8').split('\n').find(l => l.startsWith('VmHWM:'))
      if (line != null) return Number(line.replace(/\D+/g, '')) / 1024
    } catch {}
    return mb(process.resourceUsage().maxRSS * 1024)
  }

  /** RSS of the processes this one started, and theirs (the headless browser while it runs), in MB now. */
  function descendantsRssMb () {
    let kb = 0
    const seen = new Set()
    const walk = pid => {
      let tasks = []
      try { tasks = readdirSync(`/proc/${pid}/task`) } catch { return }
      for (const task of tasks) {
        let children = []
        try { children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean) } catch {}
        for (const child of children) {
          if (seen.has(child)) continue
          seen.add(child)
          try {
            const line = readFileSync(`/proc/${child}/status`, 'utf8').split('\n').find(l => l.startsWith('VmRSS:'))
            if (line != null) kb += Number(line.replace(/\D+/g, ''))
          } catch {}
          walk(child)
        }
      }
    }
    walk(process.pid)
    return kb / 1024
  }

  process.on('message', message => {
    if (message == null || typeof message !== 'object' || typeof message.probe !== 'string') return
    const { probe, id } = message
    if (probe === 'reset') {
      loop.reset()
      try { writeFileSync('/proc/self/clear_refs', '5') } catch {}
      process.send({ probe, id })
    } else if (probe === 'report' || probe === 'gc') {
      if (probe === 'gc') {
        setFlagsFromString('--expose-gc')
        runInNewContext('gc')()
      }
      const empty = loop.count === 0
      process.send({
        probe,
        id,
        loopP50: empty ? 0 : ms(loop.percentile(50)),
        loopP99: empty ? 0 : ms(loop.percentile(99)),
        loopMax: empty ? 0 : ms(loop.max),
        rss: mb(process.memoryUsage.rss()),
        peakRss: peakRssMb(),
        descendantsRss: descendantsRssMb(),
        // Where RSS sits: V8's heap, and memory outside it that JS holds (Buffers); the rest is native (libvips, malloc).
        heapTotal: mb(process.memoryUsage().heapTotal),
        external: mb(process.memoryUsage().external)
      })
    } else if (probe === 'snapshot') {
      process.send({ probe, id, file: writeHeapSnapshot() })
    } else if (probe === 'cpu') {
      const { user, system } = process.cpuUsage()
      process.send({ probe, id, cpu: user + system })
    }
  })
  // The channel must not keep a server alive that is otherwise shutting down.
  process.channel?.unref()
}
