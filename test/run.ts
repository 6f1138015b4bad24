// `npm test`: prepares a migrated template database (on DATABASE_URL, or an embedded PostgreSQL when it is unset),
// runs tap under c8 (coverage of the TypeScript sources, settings in .c8rc.json), and ends with one plain line
// `N passed, N failed` counted from tap's own result files.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { databaseUrl, dropDatabase, withConnection } from '../db/admin.js'
import { startEmbeddedPostgres } from '../db/embedded.js'
import { runMigrations } from '../db/migrator.js'
// Not ./setup/database.js: it imports tap, whose root test would start (and time out) in this process.
import { TEST_DATABASE_PREFIX } from './setup/names.js'
import { countResults } from './setup/tap-counts.js'

const log = { info: (msg: string) => console.log(`# ${msg}`), warn: (msg: string) => console.warn(`# ${msg}`) }

/** tap compiles its plugin list into its runner; rebuild once whenever package.json's list differs from the last build. */
async function ensureTapPlugins (): Promise<void> {
  const wanted = JSON.stringify(JSON.parse(await readFile('package.json', 'utf8')).tap?.plugin ?? [])
  const stamp = path.join('node_modules', '.tap-plugins.json')
  if (await readFile(stamp, 'utf8').catch(() => null) === wanted) return
  const code = await new Promise<number | null>(resolve => {
    spawn(path.resolve('node_modules/.bin/tap'), ['build'], { stdio: 'inherit' }).on('exit', resolve)
  })
  if (code !== 0) throw new Error('tap build failed')
  await writeFile(stamp, wanted)
}

/** A folder argument (`npm test -- test/routes/api/recipes`) stands for the test files under it. */
async function expandFolders (args: string[]): Promise<string[]> {
  const expanded: string[] = []
  for (const arg of args) {
    if (arg.startsWith('-') || !(await stat(arg).then(s => s.isDirectory(), () => false))) {
      expanded.push(arg)
      continue
    }
    const files = (await readdir(arg, { recursive: true })).filter(file => file.endsWith('.test.ts')).sort()
    if (files.length === 0) throw new Error(`no test files under ${arg}`)
    expanded.push(...files.map(file => path.join(arg, file)))
  }
  return expanded
}

async function main (): Promise<number> {
  await ensureTapPlugins()
  let maintenanceUrl = process.env.DATABASE_URL
  let stopEmbedded = async (): Promise<void> => {}
  let embeddedDir: string | undefined
  if (maintenanceUrl == null) {
    embeddedDir = await mkdtemp(path.join(tmpdir(), 'recipes-test-pg-'))
    const embedded = await startEmbeddedPostgres(embeddedDir, log, 'postgres')
    maintenanceUrl = embedded.url
    stopEmbedded = embedded.stop
  }
  const template = `${TEST_DATABASE_PREFIX}template_${process.pid}`
  await dropDatabase(maintenanceUrl, template)
  await withConnection(maintenanceUrl, async sql => { await sql`create database ${sql(template)}` })
  await runMigrations(databaseUrl(maintenanceUrl, template))

  // Each run reads only its own result files: two runs in one checkout must not count each other's.
  const resultsDir = await mkdtemp(path.join(tmpdir(), 'recipes-test-results-'))
  // c8 sets NODE_V8_COVERAGE for tap and so for every test process (and the servers they spawn); tsx's source maps take
  // the counts back to the .ts files. Its raw data goes to a private folder, so that two runs in one checkout do not mix.
  // Only the whole suite is held to the floor: a run of a few files (`npm test -- test/lib/x.test.ts`) just reports.
  const tapArgs = await expandFolders(process.argv.slice(2))
  const subset = tapArgs.some(arg => !arg.startsWith('-') && existsSync(arg))
  const coverageData = await mkdtemp(path.join(tmpdir(), 'recipes-test-coverage-'))
  const c8Args = ['--temp-directory', coverageData, ...(subset ? ['--no-check-coverage'] : [])]
  const code = await new Promise<number>(resolve => {
    const child = spawn(path.resolve('node_modules/.bin/c8'), [...c8Args, path.resolve('node_modules/.bin/tap'), `--output-dir=${resultsDir}`, ...tapArgs], {
      stdio: 'inherit',
      env: { ...process.env, TEST_MAINTENANCE_URL: maintenanceUrl, TEST_TEMPLATE_DATABASE: template }
    })
    child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal != null ? 1 : 0)))
  })
  await rm(coverageData, { recursive: true, force: true })

  // Databases of test files that crashed before their own teardown.
  await withConnection(maintenanceUrl, async sql => {
    const leftovers = await sql<Array<{ datname: string }>>`
      select datname from pg_database where starts_with(datname, ${`${TEST_DATABASE_PREFIX}r${process.pid}_`})`
    for (const { datname } of leftovers) await sql`drop database if exists ${sql(datname)} with (force)`
  })
  await dropDatabase(maintenanceUrl, template)
  await stopEmbedded()
  if (embeddedDir != null) await rm(embeddedDir, { recursive: true, force: true })

  const { passed, failed: testsFailed, skipped, assertions, files, failures } = await countResults(resultsDir)
  await rm(resultsDir, { recursive: true, force: true })
  // c8 exits non-zero, after printing `ERROR: Coverage for lines (…%) does not meet global threshold (90%)`, when the
  // whole suite is under a floor of .c8rc.json. A non-zero exit with no failing test is that (or tap itself crashing):
  // one failure, so the closing line agrees with the exit code.
  const failed = testsFailed + (code !== 0 && testsFailed === 0 ? 1 : 0)
  // Named again at the end, where a CI log cut to its tail still shows them.
  for (const failure of failures) console.log(`# failed: ${failure}`)
  console.log(`# ${assertions.toLocaleString('en')} assertions in ${passed + testsFailed + skipped} tests of ${files} files`)
  console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`)
  // No test at all is a broken run, not a green one.
  return code !== 0 || failed > 0 || passed === 0 ? 1 : 0
}

process.exitCode = await main()
