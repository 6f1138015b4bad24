// The closing line's figures: tests (`t.test` leaves) passed, failed and skipped, and assertions beside, read from
// the TAP files tap writes with --output-dir.
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { Parser, type Result } from 'tap-parser'

export interface Counts { passed: number, failed: number, skipped: number, assertions: number, files: number }

/** What one test (a file's top level or a `t.test`) did itself and below. */
interface Node { asserts: number, failedAsserts: number, children: number, failedBelow: boolean }

/**
 * Counts tests, not assertions: a test is a `t.test` (or a file's top level) that asserts something itself or has no
 * subtests; one that only groups subtests is not counted, unless it fails on its own (a crash, a timeout or a wrong
 * plan), which is then one failure. Every non-summary point is an assertion, counted beside.
 */
function watch (parser: Parser, totals: Counts): Node {
  const node: Node = { asserts: 0, failedAsserts: 0, children: 0, failedBelow: false }
  let pendingChild: Node | null = null
  parser.on('child', (child: Parser) => {
    node.children++
    pendingChild = watch(child, totals)
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
      if (!result.ok) node.failedAsserts++
      return
    }
    const child = pendingChild
    pendingChild = null
    const crashed = !result.ok && !skipped && child.failedAsserts === 0 && !child.failedBelow
    if (child.asserts > 0 || child.children === 0) {
      if (child.failedAsserts > 0 || crashed) totals.failed++
      else totals.passed++
    } else if (crashed) totals.failed++
    node.failedBelow ||= child.failedAsserts > 0 || child.failedBelow || (!result.ok && !skipped)
  })
  return node
}

/** Counts every `.tap` file under `resultsDir` (tap's --output-dir). */
export async function countResults (resultsDir: string): Promise<Counts> {
  const totals: Counts = { passed: 0, failed: 0, skipped: 0, assertions: 0, files: 0 }
  const files = (await readdir(resultsDir, { recursive: true }).catch(() => [] as string[])).filter(f => f.endsWith('.tap'))
  for (const file of files) await countFile(await readFile(path.join(resultsDir, file), 'utf8'), totals)
  return totals
}

/** Adds one file's TAP to `totals`. */
export async function countFile (text: string, totals: Counts): Promise<void> {
  totals.files++
  const parser = new Parser()
  const root = watch(parser, totals)
  const results = await new Promise<{ ok: boolean }>(resolve => { parser.on('complete', resolve); parser.end(text) })
  // The file's own top level is a test when it asserts something; a file that died before reporting its plan, with
  // no failing test inside, is one failure.
  if (root.asserts > 0) {
    if (root.failedAsserts > 0) totals.failed++
    else totals.passed++
  }
  if (!results.ok && root.failedAsserts === 0 && !root.failedBelow) totals.failed++
}
