// `npm start`'s prestart: dist/ is built when a source is newer than the last build, and only then.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'

const SCRIPT = path.resolve('scripts/build-if-stale.ts')

t.test('builds on the first start and after a change, never in between', async t => {
  const dir = await mkdtemp(path.join(tmpdir(), 'recipes-build-'))
  t.teardown(async () => { await rm(dir, { recursive: true, force: true }) })
  // A stand-in build that leaves a mark, so each run says whether it built.
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ scripts: { build: 'node -e "require(\'fs\').mkdirSync(\'dist\',{recursive:true});require(\'fs\').writeFileSync(\'built\',\'\')"' } }))
  await mkdir(path.join(dir, 'routes', 'api'), { recursive: true })
  const source = path.join(dir, 'routes', 'api', 'recipes.ts')
  await writeFile(source, 'export {}\n')
  await mkdir(path.join(dir, 'data'))

  const start = () => {
    const run = spawnSync(process.execPath, [SCRIPT], { cwd: dir, encoding: 'utf8' })
    t.equal(run.status, 0, run.stderr)
    const built = existsSync(path.join(dir, 'built'))
    spawnSync('rm', ['-f', path.join(dir, 'built')])
    return built
  }

  t.equal(start(), true, 'no dist/ yet: builds')
  t.ok(existsSync(path.join(dir, 'dist', '.built')), 'and stamps it')
  t.equal(start(), false, 'nothing changed: starts without building')
  // As if the last build were a minute old and the source older still.
  const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000)
  await utimes(path.join(dir, 'dist', '.built'), minutesAgo(1), minutesAgo(1))
  for (const file of [source, path.join(dir, 'package.json')]) await utimes(file, minutesAgo(2), minutesAgo(2))
  await writeFile(path.join(dir, 'data', 'notes.ts'), 'not a source\n')
  t.equal(start(), false, 'files outside the sources (DATA_DIR) do not count')
  await utimes(source, new Date(), new Date())
  t.equal(start(), true, 'a source saved after the last build: builds again')
  t.equal(start(), false, 'and then not again')
})
