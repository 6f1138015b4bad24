// The closing line's figures: tests (`t.test` leaves) passed, failed and skipped, and assertions beside, read from
// the TAP files tap writes with --output-dir.
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { Parser, type Result } from 'tap-parser'

export interface Counts { passed: number, failed: number, skipped: number, assertions: number, files: number }

/** The failed tests, each as its file and the names down to it (`file > group > test`), for the run's closing lines. */
export type Failures = string[]

/** What one test (a file's top level or a `t.test`) did itself and below; named by its closing point. */
interface Node { asserts: number, failedAsserts: number, children: number, failedBelow: boolean, name: string, parent: Node | null, firstFailure?: string }

const trail = (node: Node): string => node.parent == null ? node.name : `${trail(node.parent)} > ${node.name}`
/** A failed test as the closing lines name it: where it is, and its first failing assertion (cut to one short line). */
const describe = (node: Node): string => node.firstFailure == null
  ? trail(node)
  : `${trail(node)}: ${node.firstFailure.length > 160 ? `${node.firstFailure.slice(0, 160)}...` : node.firstFailure}`

/**
 * Counts tests, not assertions: a test is a `t.test` (or a file's top level) that asserts something itself or has no
 * subtests; one that only groups subtests is not counted, unless it fails on its own (a crash, a timeout or a wrong
 * plan), which is then one failure. Every non-summary point is an assertion, counted beside.
 */
function watch (parser: Parser, totals: Counts, failed: Node[], parent: Node | null, name = ''): Node {
  const node: Node = { asserts: 0, failedAsserts: 0, children: 0, failedBelow: false, name, parent }
  let pendingChild: Node | null = null
  parser.on('child', (child: Parser) => {
    node.children++
    pendingChild = watch(child, totals, failed, node)
  })
  parser.on('assert', (result: Result) => {
    const skipped = result.skip !== false || result.todo !== false
    if (pendingChild == null) {
      // A plain point: an assertion (a thrown error is a failing one), or a skipped or todo `t.test`, which tap writes
      // as one point with no subtest.
      if (skipped) {
        totals.skipped++
        return
      }
      totals.assertions++
      node.asserts++
      if (!result.ok) {
        node.failedAsserts++
        node.firstFailure ??= result.name
      }
      return
    }
    const child = pendingChild
    pendingChild = null
    child.name = result.name
    const crashed = !result.ok && !skipped && child.failedAsserts === 0 && !child.failedBelow
    if ((child.asserts > 0 || child.children === 0) ? child.failedAsserts > 0 || crashed : crashed) {
      totals.failed++
      failed.push(child)
    } else if (child.asserts > 0 || child.children === 0) totals.passed++
    node.failedBelow ||= child.failedAsserts > 0 || child.failedBelow || (!result.ok && !skipped)
  })
  return node
}

/** Counts every `.tap` file under `resultsDir` (tap's --output-dir). */
export async function countResults (resultsDir: string): Promise<Counts & { failures: Failures }> {
  const totals: Counts = { passed: 0, failed: 0, skipped: 0, assertions: 0, files: 0 }
  const failures: Failures = []
  const files = (await readdir(resultsDir, { recursive: true }).catch(() => [] as string[])).filter(f => f.endsWith('.tap')).sort()
  for (const file of files) {
    // tap names a result file after its test file (test/x.test.ts -> test/x.test.ts.tap).
    await countFile(await readFile(path.join(resultsDir, file), 'utf8'), totals, failures, file.replace(/\.tap$/, ''))
  }
  return { ...totals, failures }
}

/** Adds one file's TAP to `totals`, and its failed tests to `failures` under the name `file`. */
export async function countFile (text: string, totals: Counts, failures: Failures = [], file = '(file)'): Promise<void> {
  totals.files++
  const parser = new Parser()
  const failed: Node[] = []
  const root = watch(parser, totals, failed, null, file)
  const results = await new Promise<{ ok: boolean }>(resolve => { parser.on('complete', resolve); parser.end(text) })
  // The file's own top level is a test when it asserts something; a file that died before reporting its plan, with
  // no failing test inside, is one failure.
  if (root.asserts > 0) {
    if (root.failedAsserts > 0) {
      totals.failed++
      failed.push(root)
    } else totals.passed++
  }
  if (!results.ok && root.failedAsserts === 0 && !root.failedBelow) {
    totals.failed++
    failed.push({ ...root, firstFailure: 'ended before its plan' })
  }
  failures.push(...failed.map(describe))
}
