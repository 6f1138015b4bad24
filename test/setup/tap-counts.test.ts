// The closing line counts tests, not assertions: TAP as tap 21 writes it for every kind of outcome.
import t from 'tap'
import { countFile, type Counts } from './tap-counts.js'

const count = async (...files: string[]): Promise<Counts> => {
  const totals: Counts = { passed: 0, failed: 0, skipped: 0, assertions: 0, files: 0 }
  for (const file of files) await countFile(file, totals)
  return totals
}

const failuresOf = async (...files: string[]): Promise<string[]> => {
  const totals: Counts = { passed: 0, failed: 0, skipped: 0, assertions: 0, files: 0 }
  const failures: string[] = []
  for (const [i, file] of files.entries()) await countFile(file, totals, failures, `f${i + 1}.test.ts`)
  return failures
}

// A file with a top-level assertion, a leaf, a skipped test, a group of a passing, a failing and a crashing test, a
// todo test and a test whose one assertion is skipped (tap's own output for these, diagnostics trimmed).
const MIXED = `TAP version 14
ok 1 - top-level assertion
# Subtest: leaf ok
    ok 1 - a
    ok 2 - b
    1..2
ok 2 - leaf ok # time=2.567ms

ok 3 - skipped # SKIP no reason
# Subtest: group
    # Subtest: inner ok
        ok 1 - c
        1..1
    ok 1 - inner ok # time=1.211ms

    # Subtest: inner fail
        not ok 1 - bad
          ---
          compare: ===
          ...

        1..1
    not ok 2 - inner fail # time=14.137ms

    # Subtest: inner crash
        ok 1 - d
        not ok 2 - boom
          ---
          tapCaught: returnedPromiseRejection
          ...

        1..2
    not ok 3 - inner crash # time=8.213ms

    1..3
not ok 4 - group # time=27.877ms

ok 5 - todo test # TODO
# Subtest: with skipped assertion
    ok 1 - e # SKIP
    1..1
ok 6 - with skipped assertion # time=0.282ms

1..6
`

t.test('tests are leaves; a group of tests is not one more', async t => {
  t.same(await count(MIXED), { passed: 4, failed: 2, skipped: 3, assertions: 7, files: 1 })
})

t.test('each failed test is named with its file, its groups and its first failing assertion', async t => {
  t.same(await failuresOf(MIXED), ['f1.test.ts > group > inner fail: bad', 'f1.test.ts > group > inner crash: boom'])
})

t.test('a test that times out or plans wrongly with no failing assertion is one failure', async t => {
  const timedOut = `TAP version 14
# Subtest: slow
    ok 1 - started
    1..1
not ok 1 - slow # time=120000ms
  ---
  expired: TAP
  ...

1..1
`
  t.same(await count(timedOut), { passed: 0, failed: 1, skipped: 0, assertions: 1, files: 1 })
  t.same(await failuresOf(timedOut), ['f1.test.ts > slow'])
})

t.test('a file that dies before its plan is one failure, and files add up', async t => {
  const died = 'TAP version 14\n# Subtest: first\n    ok 1 - fine\n    1..1\nok 1 - first # time=1ms\n\n'
  const fine = 'TAP version 14\nok 1 - fine\n1..1\n'
  t.same(await count(died, fine), { passed: 2, failed: 1, skipped: 0, assertions: 2, files: 2 })
  t.same(await failuresOf(died, fine), ['f1.test.ts: ended before its plan'])
})
