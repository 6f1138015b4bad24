// `npm start`'s first step: builds dist/ only when a source changed since the last build (as make would), so a
// start after install or after an edit builds once and every other start begins at once. Runs with Node's own type
// stripping: only node: imports, so it needs nothing installed.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const STAMP = path.join('dist', '.built')
/** What the build reads (tsconfig.build.json's sources and the files it copies), relative to the checkout. */
const INPUTS = ['.', 'plugins', 'routes', 'schemas', 'db', 'bff', 'lib', 'scripts']
const SOURCE = /\.(ts|sql|json|html|css|js|svg|png|ico|webmanifest)$/

function newestInput (dir: string, recursive: boolean): number {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) {
      if (recursive) newest = Math.max(newest, newestInput(file, true))
    } else if (SOURCE.test(entry.name) && entry.name !== 'package-lock.json') {
      newest = Math.max(newest, statSync(file).mtimeMs)
    }
  }
  return newest
}

function builtAt (): number {
  try {
    return statSync(STAMP).mtimeMs
  } catch {
    return 0
  }
}

const newest = Math.max(...INPUTS.filter(dir => existsSync(dir)).map(dir => newestInput(dir, dir !== '.')))
if (newest < builtAt()) process.exit(0)

console.log('Building dist/ (sources changed since the last build)...')
// Dated when the build began: a file saved while it ran is newer than the stamp and builds again next time.
const began = new Date()
const build = spawnSync('npm', ['run', '-s', 'build'], { stdio: 'inherit' })
if (build.status !== 0) process.exit(build.status ?? 1)
writeFileSync(STAMP, `${began.toISOString()}\n`)
utimesSync(STAMP, began, began)
