// A full disk under the local file storage (a real one: a 256 kB tmpfs mounted as DATA_DIR/uploads, filled up):
// uploads answer 507 and leave no file and no row behind, /readyz says the storage is failing, and both recover once
// space is free again.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { bearer, build, fileForm, json, pngImage, registerUser } from '../../../helper.js'

/** Every file under `dir`, recursively. */
const filesUnder = (dir: string): string[] => readdirSync(dir, { recursive: true, withFileTypes: true })
  .filter(entry => entry.isFile()).map(entry => path.join(entry.parentPath, entry.name))

/** Fills the file system of `dir` with one file until no byte more fits. */
function fill (dir: string): string {
  const filler = path.join(dir, 'filler')
  const chunk = Buffer.alloc(4096, 1)
  let written = Buffer.alloc(0)
  for (;;) {
    try {
      writeFileSync(filler, chunk, { flag: 'a' })
      written = Buffer.concat([written, chunk])
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOSPC') return filler
      throw err
    }
  }
}

const notRoot = process.getuid?.() !== 0 && 'mounting a tmpfs needs root (CI runs as root)'

t.test('a full disk: 507 for uploads with nothing half-written, /readyz failing, then recovery', { skip: notRoot }, async t => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'recipes-full-'))
  const uploads = path.join(dataDir, 'uploads')
  mkdirSync(uploads)
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', uploads])
  t.teardown(() => {
    execFileSync('umount', [uploads])
    rmSync(dataDir, { recursive: true, force: true })
  })
  const app = await build(t, { env: { DATA_DIR: dataDir } })
  const user = await registerUser(app)
  const upload = async (color: string) => {
    const form = fileForm('image', await pngImage(64, 48, color), 'image/png')
    return await app.inject({ method: 'POST', url: '/api/upload/image', headers: { ...bearer(user), ...form.headers }, payload: form.payload })
  }
  t.equal((await upload('#112233')).statusCode, 201, 'an upload while there is room')
  t.equal(json(await app.inject({ url: '/readyz' })).checks.storage, 'ok')

  const filler = fill(uploads)
  const before = filesUnder(uploads)
  const refused = await upload('#445566')
  t.equal(refused.statusCode, 507)
  t.same(json(refused), { error: 'Insufficient storage' })
  t.same(filesUnder(uploads), before, 'no file, not even a partial one, was left')
  const [{ count }] = await app.db<Array<{ count: number }>>`select count(*)::int as count from media where user_id = ${user.id}`
  t.equal(count, 1, 'no row for the refused upload')
  const ready = await app.inject({ url: '/readyz' })
  t.equal(ready.statusCode, 503, 'not ready while nothing can be written')
  t.equal(json(ready).checks.storage, 'error')
  t.equal(json(ready).checks.database, 'ok')

  rmSync(filler)
  t.equal((await app.inject({ url: '/readyz' })).statusCode, 200, 'ready again with space')
  t.equal((await upload('#445566')).statusCode, 201, 'and uploads work')
})
