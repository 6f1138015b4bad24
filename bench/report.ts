// Results: medians over rounds, the targets with met/missed, the machine, and the files
// bench/results/<YYYY-MM-DD>-<dataset>.{json,md} (with `-partial` when BENCH_ONLY picked a subset).
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, release, totalmem, availableParallelism } from 'node:os'
import path from 'node:path'
import type { Measurement } from './load.js'
import type { CeilingName } from './scenarios.js'
import type { ProbeReport } from './servers.js'

export const RESULTS_DIR = path.join(import.meta.dirname, 'results')

export interface Round {
  throughput?: Measurement
  latency?: Measurement
  /** The service's event loop during the latency run. */
  loop?: ProbeReport
  /** login-detail: detail p99 just before the flood, in the same round, and the flood running beside it. */
  baselineP99?: number
  flood?: Measurement
  /**
   * Scenarios that write: null when what they wrote is consistent afterwards, else what differs. Likes: like_count =
   * count(likes) for every recipe; uploads: one stored file per media row, and a row for every answered upload;
   * grocery lists from a plan: every list whole (the plan's items, all of them), and a list for every answered request.
   */
  counters?: string | null
  /** The service's peak RSS (MB) during this scenario's runs in this round. */
  peakRssMb?: number
}

export interface ScenarioRecord { name: string, label: string, ceiling?: CeilingName, rounds: Round[] }
export interface CeilingRecord { name: CeilingName, label: string, rounds: Array<{ throughput?: Measurement, latency?: Measurement }> }

export interface Summary {
  name: string
  label: string
  rps?: number
  p50?: number
  p99?: number
  loopP99?: number
  baselineP99?: number
  /** The highest of the rounds' peak RSS. */
  peakRssMb?: number
  ceiling?: { name: CeilingName, label: string, rps?: number, p50?: number, p99?: number }
  /** Service req/s over ceiling req/s (medians). */
  ratio?: number
  countersExact?: boolean
  failures: number
  samples: string[]
}

export interface Check { target: string, measured: string, met: boolean | null }

export interface Machine {
  cpu: string
  cores: number
  ramGb: number
  os: string
  node: string
  postgres: string
  cache: string
  commit: string
  uncommittedFiles: number
  loadAverage: { start: number[], end?: number[] }
}

export interface Comparison { name: string, p99: number, referenceP99: number, ratio: number, met: boolean }

export interface Results {
  dataset: string
  date: string
  valid: boolean
  problems: string[]
  settings: { seconds: number, rounds: number, warmupSeconds?: number, connections: { throughput: number, latency: number }, only: string[] | null }
  machine: Machine
  seed: Record<string, unknown>
  /** The service's log, kept only when the run is invalid. */
  service: {
    /** Over the whole run. */
    peakRssMb: number
    /** Over the first part, the load of issue 11 (ISSUE_LOAD): null when it did not run. */
    issueLoadPeakRssMb: number | null
    logFile: string | null
    env: Record<string, string>
  }
  summary: Summary[]
  checks: Check[]
  comparison?: { reference: string | null, rows: Comparison[] }
  scenarios: ScenarioRecord[]
  ceilings: CeilingRecord[]
}

const median = (values: Array<number | undefined>): number | undefined => {
  const sorted = values.filter((v): v is number => v != null && Number.isFinite(v)).sort((a, b) => a - b)
  if (sorted.length === 0) return undefined
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

function git (...args: string[]): string {
  const result = spawnSync('git', args, { cwd: path.join(import.meta.dirname, '..'), encoding: 'utf8' })
  return result.status === 0 ? result.stdout.trim() : ''
}

/** The commit and the count of uncommitted files, read when dist/ is built: what the run measures. */
export function sourceState (): Pick<Machine, 'commit' | 'uncommittedFiles'> {
  return {
    commit: git('rev-parse', '--short=12', 'HEAD') || 'unknown',
    uncommittedFiles: git('status', '--porcelain').split('\n').filter(Boolean).length
  }
}

export function describeMachine (postgresVersion: string, cache: string, source: Pick<Machine, 'commit' | 'uncommittedFiles'>): Machine {
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: availableParallelism(),
    ramGb: Math.round(totalmem() / 1024 ** 3 * 10) / 10,
    os: `Linux ${release()}`,
    node: process.version,
    postgres: postgresVersion,
    cache,
    ...source,
    loadAverage: { start: loadavg().map(n => Math.round(n * 100) / 100) }
  }
}

export function summarize (scenarios: ScenarioRecord[], ceilings: CeilingRecord[]): Summary[] {
  return scenarios.map(record => {
    const { rounds } = record
    const ceilingRecord = ceilings.find(c => c.name === record.ceiling)
    const all = rounds.flatMap(r => [r.throughput, r.latency, r.flood]).filter(m => m != null)
    const summary: Summary = {
      name: record.name,
      label: record.label,
      rps: median(rounds.map(r => r.throughput?.rps)),
      p50: median(rounds.map(r => r.latency?.p50)),
      p99: median(rounds.map(r => r.latency?.p99)),
      loopP99: median(rounds.map(r => r.loop?.loopP99)),
      baselineP99: median(rounds.map(r => r.baselineP99)),
      peakRssMb: rounds.reduce<number | undefined>((peak, r) => r.peakRssMb == null ? peak : Math.max(peak ?? 0, r.peakRssMb), undefined),
      failures: all.reduce((n, m) => n + m.failures, 0),
      samples: all.flatMap(m => m.samples).slice(0, 3)
    }
    if (rounds.some(r => r.counters !== undefined)) {
      summary.countersExact = rounds.every(r => r.counters == null)
      for (const r of rounds) if (r.counters != null) summary.samples.push(r.counters)
    }
    if (ceilingRecord != null) {
      summary.ceiling = {
        name: ceilingRecord.name,
        label: ceilingRecord.label,
        rps: median(ceilingRecord.rounds.map(r => r.throughput?.rps)),
        p50: median(ceilingRecord.rounds.map(r => r.latency?.p50)),
        p99: median(ceilingRecord.rounds.map(r => r.latency?.p99))
      }
      if (summary.rps != null && summary.ceiling.rps != null) summary.ratio = summary.rps / summary.ceiling.rps
    }
    return summary
  })
}

const fixed = (n: number | undefined, digits = 2) => n == null ? '-' : n.toFixed(digits)
const whole = (n: number | undefined) => n == null ? '-' : Math.round(n).toLocaleString('en')
const percent = (n: number | undefined) => n == null ? '-' : `${Math.round(n * 100)}%`

/** The issue's bound on page 400, on M and (with the 2x of M) on L. */
const DEEP_PAGE_P99_MS = 50

/** The targets of the issue; null = not measured in this run. */
export function evaluate (summary: Summary[], issueLoadPeakRssMb: number | null, runPeakRssMb: number | null = null): Check[] {
  const by = (name: string) => summary.find(s => s.name === name)
  const checks: Check[] = []
  const ratio = (name: string, min: number, what: string) => {
    const s = by(name)
    checks.push({ target: `${what} >= ${min * 100}% of ${s?.ceiling?.label ?? 'its ceiling'}`, measured: percent(s?.ratio), met: s?.ratio == null ? null : s.ratio >= min })
  }
  const p99 = (name: string, max: number, what: string) => {
    const s = by(name)
    checks.push({ target: `${what} p99 <= ${max} ms`, measured: s?.p99 == null ? '-' : `${fixed(s.p99)} ms`, met: s?.p99 == null ? null : s.p99 <= max })
  }
  const p99Within = (name: string, times: number, what: string) => {
    const s = by(name)
    const of = s?.p99 != null && s.ceiling?.p99 != null ? s.p99 / s.ceiling.p99 : undefined
    checks.push({
      target: `${what} p99 <= ${times}x its ceiling's`,
      measured: of == null ? '-' : `${fixed(s!.p99)} ms vs ${fixed(s!.ceiling!.p99)} ms (${of.toFixed(1)}x)`,
      met: of == null ? null : of <= times
    })
  }
  ratio('list', 0.5, 'list page 1 (anonymous) req/s')
  p99('list', 15, 'list page 1 (anonymous)')
  ratio('list-signed-in', 0.5, 'list page 1 (signed in) req/s')
  p99('list-signed-in', 15, 'list page 1 (signed in)')
  ratio('search-common', 0.3, 'search common term req/s')
  p99('search-common', 25, 'search common term')
  p99('search-rare', 15, 'search rare term')
  p99('search-zero', 15, 'search zero-hit term')
  ratio('feed', 0.3, 'feed req/s')
  p99Within('feed', 2, 'feed')
  ratio('popular', 0.5, 'popular recipes req/s')
  ratio('me', 0.6, '/api/auth/me req/s')
  ratio('detail', 0.75, 'recipe detail req/s')
  ratio('healthz', 0.7, '/healthz req/s')
  ratio('login', 0.9, 'login req/s')
  ratio('media-file', 0.5, 'stored image (GET /uploads/...) req/s')
  ratio('media-upload', 0.7, 'image upload req/s')
  ratio('mealplan-detail', 0.3, 'meal plan with 21 planned meals req/s')
  ratio('planned-week', 0.3, 'planned meals of a week req/s')
  ratio('grocery-detail', 0.3, 'grocery list of 40 items req/s')
  ratio('grocery-from-plan', 0.3, 'grocery list from a meal plan req/s')
  ratio('nutrition-recipe', 0.5, 'recipe nutrition req/s')
  ratio('unread-count', 0.5, 'notification unread count req/s')
  ratio('push-preferences', 0.5, 'push preferences req/s')
  ratio('analytics-config', 0.6, 'analytics config req/s')
  // Every admin request writes twice (the session's last_seen_at, the audit entry) where the ceiling reads one row:
  // GET /api/admin/test, which does nothing else, measured 12-14% of this ceiling (bench/README.md).
  ratio('admin-analytics', 0.1, 'admin analytics (cached) req/s')
  // The gate (flag, plan, allowance, recipe count), the duplicates lookup and the import log around the same extraction.
  // Issue 45's bar. Five statements per request (term keys, complete matches, the most liked 500, the rarer words'
  // recipes, the page) and a scored merge of up to a few thousand candidates, against one 12-row listing statement.
  ratio('ai-search', 0.4, 'search by ingredients req/s')
  p99('ai-search', 25, 'search by ingredients')
  ratio('import-preview', 0.5, 'recipe import preview (captured page) req/s')
  const flood = by('login-detail')
  const floodRatio = flood?.p99 != null && flood.baselineP99 != null ? flood.p99 / flood.baselineP99 : undefined
  checks.push({
    target: 'recipe detail p99 during a login flood <= 2x its baseline',
    measured: floodRatio == null ? '-' : `${fixed(flood!.p99)} ms vs ${fixed(flood!.baselineP99)} ms (${floodRatio.toFixed(1)}x)`,
    met: floodRatio == null ? null : floodRatio <= 2
  })
  checks.push({
    target: 'service peak RSS <= 250 MB under the issue\'s load (the first part of the run)',
    measured: issueLoadPeakRssMb == null ? '-' : `${issueLoadPeakRssMb.toFixed(0)} MB`,
    met: issueLoadPeakRssMb == null || issueLoadPeakRssMb === 0 ? null : issueLoadPeakRssMb <= 250
  })
  // Issue 45: the whole run, uploads and imports included, with the headless browser's processes while they run.
  checks.push({
    target: 'service peak RSS of the whole run <= 300 MB (with its browser processes)',
    measured: runPeakRssMb == null || runPeakRssMb === 0 ? '-' : `${runPeakRssMb.toFixed(0)} MB`,
    met: runPeakRssMb == null || runPeakRssMb === 0 ? null : runPeakRssMb <= 300
  })
  const loops = summary.filter(s => s.loopP99 != null)
  const worst = loops.reduce<Summary | undefined>((w, s) => w == null || s.loopP99! > w.loopP99! ? s : w, undefined)
  checks.push({
    target: 'service event-loop delay p99 <= 10 ms (worst scenario, latency runs)',
    measured: worst == null ? '-' : `${fixed(worst.loopP99)} ms (${worst.name})`,
    met: worst == null ? null : worst.loopP99! <= 10
  })
  const storm = by('like-storm')
  checks.push({
    target: 'like storm req/s >= 30% of bare Fastify hello, counters exact',
    measured: storm?.ratio == null ? '-' : `${percent(storm.ratio)}, counters ${storm.countersExact === true ? 'exact' : 'WRONG'}`,
    met: storm?.ratio == null ? null : storm.ratio >= 0.3 && storm.countersExact === true
  })
  p99('deep-page', DEEP_PAGE_P99_MS, 'list page 400')
  return checks
}

/** The newest valid full M result, for the L comparison. */
export function newestReference (dataset = 'M'): { file: string, results: Results } | null {
  let files: string[]
  try {
    files = readdirSync(RESULTS_DIR).filter(f => new RegExp(`^\\d{4}-\\d{2}-\\d{2}-${dataset}\\.json$`).test(f)).sort().reverse()
  } catch {
    return null
  }
  for (const file of files) {
    const results = JSON.parse(readFileSync(path.join(RESULTS_DIR, file), 'utf8')) as Results
    if (results.valid) return { file, results }
  }
  return null
}

export function compareWith (summary: Summary[], reference: Results): Comparison[] {
  return summary.flatMap(s => {
    const ref = reference.summary.find(r => r.name === s.name)
    if (s.p99 == null || ref?.p99 == null) return []
    const ratio = s.p99 / ref.p99
    return [{ name: s.name, p99: s.p99, referenceP99: ref.p99, ratio, met: ratio <= 2 && (s.name !== 'deep-page' || s.p99 <= DEEP_PAGE_P99_MS) }]
  })
}

const mark = (met: boolean | null) => met == null ? 'not measured' : met ? 'met' : '**missed**'

export function markdown (results: Results): string {
  const { machine, settings } = results
  const lines: string[] = []
  lines.push(`# Benchmark: dataset ${results.dataset}, ${results.date}`, '')
  if (!results.valid) lines.push(`**INVALID RUN**: ${results.problems.join('; ')}`, '')
  lines.push(
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.ramGb} GB RAM, ${machine.os}; Node ${machine.node}; ` +
    `PostgreSQL ${machine.postgres}; cache ${machine.cache}; commit ${machine.commit}` +
    (machine.uncommittedFiles > 0 ? ` (+${machine.uncommittedFiles} uncommitted files)` : '') +
    `; load average ${machine.loadAverage.start.join(' ')} at start, ${machine.loadAverage.end?.join(' ') ?? '-'} at end.`,
    '',
    `Dataset: ${Object.entries(results.seed.shape as Record<string, number>).map(([k, v]) => `${v.toLocaleString('en')} ${k}`).join(', ')}; ` +
    `seed ${String(results.seed.version)} ${results.seed.seeded === true ? 'seeded by this run' : 'reused'} (seeding took ${Number(results.seed.seconds).toFixed(1)} s).`,
    '',
    `Each run ${settings.seconds} s; req/s at ${settings.connections.throughput} connections, latency at ${settings.connections.latency}; ` +
    `median of ${settings.rounds} interleaved round(s)${settings.only != null ? `; only ${settings.only.join(', ')}` : ''}` +
    (settings.warmupSeconds != null ? `, after ${settings.warmupSeconds} s of warm-up per load` : '') + '. ' +
    'Latency runs check every response (status 200, 201 for uploads and new grocery lists, and body); throughput runs of ' +
    'scenarios that have a latency run count statuses only, as plain autocannon does. The service runs dist/server.js ' +
    'as `npm start` does, with NODE_ENV=production and its default log level; the ceilings run on plain node.',
    '',
    '| scenario | req/s | ceiling | ceiling req/s | % of ceiling | p50 ms | p99 ms | ceiling p99 ms | loop p99 ms | peak RSS MB | failures |',
    '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|'
  )
  for (const s of results.summary) {
    const p99 = s.baselineP99 != null ? `${fixed(s.p99)} (alone ${fixed(s.baselineP99)})` : fixed(s.p99)
    lines.push(`| ${s.label} | ${whole(s.rps)} | ${s.ceiling?.label ?? '-'} | ${whole(s.ceiling?.rps)} | ${percent(s.ratio)} | ` +
      `${fixed(s.p50)} | ${p99} | ${fixed(s.ceiling?.p99)} | ${fixed(s.loopP99)} | ${whole(s.peakRssMb)} | ${s.failures}` +
      `${s.countersExact === false ? (s.name === 'media-upload' ? ', rows/files WRONG' : s.name === 'grocery-from-plan' ? ', lists WRONG' : ', counters WRONG') : ''} |`)
  }
  const { peakRssMb, issueLoadPeakRssMb } = results.service
  lines.push('', `Service peak RSS: ${issueLoadPeakRssMb == null ? '' : `${issueLoadPeakRssMb.toFixed(0)} MB under the issue's load (the first part), `}` +
    `${peakRssMb.toFixed(0)} MB over the whole run. The peak RSS column is each scenario's own (the high-water mark is reset before each run), ` +
    'on top of what the process kept from the scenarios before it.', '')
  if (results.checks.length > 0) {
    lines.push('## Targets', '', '| target | measured | met |', '|---|---|---|')
    for (const c of results.checks) lines.push(`| ${c.target} | ${c.measured} | ${mark(c.met)} |`)
    lines.push('')
  }
  if (results.comparison != null) {
    lines.push('## Compared with dataset M', '')
    if (results.comparison.reference == null) lines.push('No valid M result in bench/results to compare with.', '')
    else {
      lines.push(`Reference: bench/results/${results.comparison.reference}. Target: L p99 within 2x of M; page 400 also within ${DEEP_PAGE_P99_MS} ms.`, '',
        '| scenario | L p99 ms | M p99 ms | L / M | met |', '|---|---:|---:|---:|---|')
      for (const c of results.comparison.rows) lines.push(`| ${c.name} | ${fixed(c.p99)} | ${fixed(c.referenceP99)} | ${c.ratio.toFixed(2)}x | ${mark(c.met)} |`)
      lines.push('')
    }
  }
  const failing = results.summary.filter(s => s.samples.length > 0)
  if (failing.length > 0) {
    lines.push('## Failures', '')
    for (const s of failing) for (const sample of s.samples) lines.push(`- ${s.name}: \`${sample.replace(/`/g, "'")}\``)
    lines.push('')
  }
  return lines.join('\n')
}

/** Where results are written: BENCH_RESULTS_DIR (e.g. a scratch folder for a trial run), else bench/results. */
export function writeResults (results: Results): { json: string, md: string } {
  const dir = process.env.BENCH_RESULTS_DIR != null && process.env.BENCH_RESULTS_DIR !== '' ? path.resolve(process.env.BENCH_RESULTS_DIR) : RESULTS_DIR
  mkdirSync(dir, { recursive: true })
  const base = path.join(dir, `${results.date}-${results.dataset}${results.settings.only != null ? '-partial' : ''}`)
  writeFileSync(`${base}.json`, JSON.stringify(results, null, 2) + '\n')
  writeFileSync(`${base}.md`, markdown(results))
  return { json: `${base}.json`, md: `${base}.md` }
}
