import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { adminBearer, bearer, build, createAdmin, createRecipe, eventually, follow, json, registerUser } from '../../../helper.js'

const BACKUP = '/api/admin/database/backup'
const BACKUPS = '/api/admin/database/backups'
const NAME = /^backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(\.\d{3})?Z\.json$/
const TABLES = ['users', 'recipes', 'tags', 'recipe_tags', 'comments', 'likes', 'ratings', 'follows']
/** The users' columns a backup holds: every one but the secrets. */
const USER_COLUMNS = ['id', 'email', 'username', 'username_key', 'first_name', 'last_name', 'bio', 'location', 'avatar_url', 'active',
  'verified', 'email_verified_at', 'oauth_provider', 'password_changed_at', 'locked_at', 'banned_at', 'ban_reason', 'last_login_at',
  'email_preferences', 'do_not_sell_at', 'plan_id', 'follower_count', 'following_count', 'created_at', 'updated_at']
const SECRET_COLUMNS = ['password', 'reset_token', 'reset_token_expiry', 'token_version', 'failed_login_attempts', 'failed_login_times', 'oauth_id']

const backupsDir = (app: FastifyInstance) => path.join(app.config.dataDir, 'backups')

/** Every file in the backups directory (the test files share one DATA_DIR per process). */
const filesIn = async (app: FastifyInstance) => await readdir(backupsDir(app)).catch(() => [] as string[])

async function backup (app: FastifyInstance, admin: { token: string }): Promise<Record<string, any>> {
  const res = await app.inject({ method: 'POST', url: BACKUP, headers: adminBearer(admin) })
  if (res.statusCode !== 201) throw new Error(`backup failed: ${res.statusCode} ${res.body}`)
  return json(res).backup
}

const count = async (app: FastifyInstance, table: string) =>
  (await app.db<Array<{ n: number }>>`select count(*)::int as n from ${app.db(table)}`)[0].n

t.test('every backup route needs an admin token', async t => {
  const app = await build(t)
  const user = await registerUser(app)
  const routes = [
    { method: 'POST' as const, url: BACKUP },
    { method: 'GET' as const, url: BACKUPS },
    { method: 'GET' as const, url: `${BACKUPS}/backup-2026-01-01T00-00-00.000Z.json` },
    { method: 'DELETE' as const, url: `${BACKUPS}/backup-2026-01-01T00-00-00.000Z.json` }
  ]
  for (const route of routes) {
    t.equal((await app.inject(route)).statusCode, 401, `${route.method} ${route.url} without a token`)
    t.equal((await app.inject({ ...route, headers: bearer(user) })).statusCode, 401, `${route.method} ${route.url} with a user's token`)
  }
  t.same(await filesIn(app), [], 'nothing was written')
})

t.test('a backup holds the eight tables from one snapshot, and no secret', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  const alice = await registerUser(app)
  const bob = await registerUser(app)
  const pasta = await createRecipe(app, alice, { title: 'Pasta', tags: ['pasta', 'quick'] })
  const soup = await createRecipe(app, bob, { title: 'Soup', tags: ['soup'], visibility: 'private' })
  const comment = await app.inject({ method: 'POST', url: `/api/social/recipes/${pasta.id}/comments`, headers: bearer(bob), payload: { content: 'Lovely' } })
  t.equal(comment.statusCode, 201)
  t.equal((await app.inject({ method: 'POST', url: `/api/social/recipes/${pasta.id}/like`, headers: bearer(bob) })).statusCode, 200)
  t.equal((await app.inject({ method: 'POST', url: `/api/ratings/recipes/${pasta.id}`, headers: bearer(bob), payload: { rating: 4 } })).statusCode, 200)
  await follow(app, bob, alice)
  // A pending password reset: its token's hash is stored on the user.
  await app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: alice.email } })
  const secrets = await eventually(async () => {
    const rows = await app.db<Array<{ id: string, password: string, resetToken: string | null }>>`select id, password, reset_token from users`
    return rows.some(row => row.id === alice.id && row.resetToken != null) ? rows : null
  })

  const res = await app.inject({ method: 'POST', url: BACKUP, headers: adminBearer(admin) })
  t.equal(res.statusCode, 201)
  const created = json(res).backup
  t.match(created.filename, NAME)
  t.same(Object.keys(created).sort(), ['createdAt', 'filename', 'size', 'tables'])
  t.equal(created.filename, `backup-${created.createdAt.replaceAll(':', '-')}.json`, 'named after its snapshot instant')

  const file = path.join(backupsDir(app), created.filename)
  const text = await readFile(file, 'utf8')
  t.equal(created.size, Buffer.byteLength(text), 'size is the file\'s')
  t.equal((await stat(file)).mode & 0o777, 0o600, 'readable by the server only')
  const doc = JSON.parse(text)
  t.equal(doc.format, 'recipe-platform-backup/1')
  t.equal(doc.createdAt, created.createdAt)
  t.same(Object.keys(doc.tables), TABLES, 'the eight tables, in order')
  t.same(Object.keys(created.tables), TABLES)
  for (const table of TABLES) {
    const n = await count(app, table)
    t.equal(doc.tables[table].length, n, `${table}: every row (${n})`)
    t.equal(created.tables[table], n, `${table}: the answer counts them`)
    const columns = (await app.db<Array<{ name: string }>>`
      select column_name as name from information_schema.columns where table_schema = 'public' and table_name = ${table}`).map(c => c.name)
    const expected = table === 'users' ? USER_COLUMNS : columns
    for (const row of doc.tables[table]) t.same(Object.keys(row).sort(), [...expected].sort(), `${table}: the columns of its rows`)
    if (table === 'users') t.same(columns.filter(c => !SECRET_COLUMNS.includes(c)).sort(), [...USER_COLUMNS].sort(), 'users: every column but the secrets (a new column needs a decision)')
  }

  // The rows created above, as stored.
  const byId = (table: string, id: string) => doc.tables[table].find((row: { id: string }) => row.id === id)
  t.match(byId('users', alice.id), { username: alice.username, email: alice.email, plan_id: 'free', active: true })
  t.ok(byId('users', bob.id))
  t.match(byId('recipes', soup.id), { author_id: bob.id, title: 'Soup', visibility: 'private' }, 'private recipes too')
  t.match(byId('recipes', pasta.id), { author_id: alice.id, like_count: 1, comment_count: 1, rating_count: 1, rating_sum: 4, ingredients: Array })
  const tagIds = Object.fromEntries(doc.tables.tags.map((tag: { name: string, id: string }) => [tag.name, tag.id]))
  t.ok(tagIds.pasta != null && tagIds.quick != null && tagIds.soup != null, 'tags')
  t.same(doc.tables.recipe_tags.filter((rt: { recipe_id: string }) => rt.recipe_id === pasta.id).map((rt: { tag_id: string }) => rt.tag_id).sort(),
    [tagIds.pasta, tagIds.quick].sort(), 'recipe_tags')
  t.match(byId('comments', json(comment).comment.id), { recipe_id: pasta.id, user_id: bob.id, content: 'Lovely' })
  t.ok(doc.tables.likes.some((l: Record<string, string>) => l.user_id === bob.id && l.recipe_id === pasta.id), 'likes')
  t.ok(doc.tables.ratings.some((r: Record<string, unknown>) => r.user_id === bob.id && r.recipe_id === pasta.id && r.rating === 4), 'ratings')
  t.ok(doc.tables.follows.some((f: Record<string, string>) => f.follower_id === bob.id && f.following_id === alice.id), 'follows')
  t.match(byId('recipes', pasta.id).created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?\+00:00$/, 'timestamps: ISO 8601 UTC, as stored')

  // No secret anywhere in the file.
  t.notMatch(text, /\$2[aby]\$/, 'no bcrypt hash')
  for (const row of secrets) {
    t.notOk(text.includes(row.password), 'not a user\'s stored password hash')
    if (row.resetToken != null) t.notOk(text.includes(row.resetToken), 'not a stored reset token')
  }
  t.notMatch(text, /"(password|reset_token|reset_token_expiry|token_version|failed_login_attempts|failed_login_times|oauth_id)"/, 'no secret column')
  t.same((await filesIn(app)).filter(name => name.startsWith('.')), [], 'no temporary file left')
})

t.test('list, download and delete', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  await registerUser(app)
  const first = await backup(app, admin)
  const second = await backup(app, admin)
  t.not(second.filename, first.filename)
  // Files that are not backups are never listed.
  await writeFile(path.join(backupsDir(app), 'notes.txt'), 'x')
  await writeFile(path.join(backupsDir(app), 'backup-latest.json'), '{}')
  await mkdir(path.join(backupsDir(app), 'backup-2099-01-01T00-00-00.000Z.json'))

  const list = await app.inject({ url: BACKUPS, headers: adminBearer(admin) })
  t.equal(list.statusCode, 200)
  const { backups, pagination } = json(list)
  t.ok(backups.length >= 2)
  t.same(backups[0], { filename: second.filename, size: second.size, createdAt: second.createdAt }, 'the newest first')
  t.same(backups[1], { filename: first.filename, size: first.size, createdAt: first.createdAt })
  t.ok(backups.every((b: { filename: string }) => NAME.test(b.filename) && !b.filename.startsWith('backup-2099')), 'only backup files')
  t.match(pagination, { page: 1, limit: 50, total: backups.length })
  const paged = json(await app.inject({ url: `${BACKUPS}?limit=1&page=2`, headers: adminBearer(admin) }))
  t.same(paged.backups, [backups[1]], 'paged')
  t.equal(paged.pagination.total, backups.length)

  const download = await app.inject({ url: `${BACKUPS}/${first.filename}`, headers: adminBearer(admin) })
  t.equal(download.statusCode, 200)
  t.match(download.headers['content-type'], /^application\/json/)
  t.equal(download.headers['content-disposition'], `attachment; filename="${first.filename}"`)
  t.equal(download.headers['cache-control'], 'no-store')
  t.equal(Number(download.headers['content-length']), first.size)
  t.ok(download.rawPayload.equals(await readFile(path.join(backupsDir(app), first.filename))), 'the same bytes as the file')

  const removed = await app.inject({ method: 'DELETE', url: `${BACKUPS}/${first.filename}`, headers: adminBearer(admin) })
  t.equal(removed.statusCode, 200)
  t.same(json(removed), { message: 'Backup deleted' })
  t.notOk(existsSync(path.join(backupsDir(app), first.filename)), 'the file is gone')
  t.equal((await app.inject({ url: `${BACKUPS}/${first.filename}`, headers: adminBearer(admin) })).statusCode, 404)
  const again = await app.inject({ method: 'DELETE', url: `${BACKUPS}/${first.filename}`, headers: adminBearer(admin) })
  t.equal(again.statusCode, 404)
  t.equal(json(again).error, 'Backup not found')
  t.notOk(json(await app.inject({ url: BACKUPS, headers: adminBearer(admin) })).backups.some((b: { filename: string }) => b.filename === first.filename))
  t.equal((await app.inject({ url: `${BACKUPS}/backup-2099-01-01T00-00-00.000Z.json`, headers: adminBearer(admin) })).statusCode, 404, 'a directory is not a backup')

  // The OpenAPI document describes the four operations, the download as a JSON file.
  const doc = json(await app.inject('/api/docs/json'))
  t.equal(doc.paths['/api/admin/database/backup'].post.operationId, 'admin.database.backup')
  t.equal(doc.paths['/api/admin/database/backups'].get.operationId, 'admin.database.listBackups')
  const item = doc.paths['/api/admin/database/backups/{filename}']
  t.equal(item.get.operationId, 'admin.database.downloadBackup')
  t.equal(item.delete.operationId, 'admin.database.deleteBackup')
  t.same(item.get.responses['200'].content['application/json'].schema, { $ref: '#/components/schemas/BackupDocument' })
  t.ok(doc.paths['/api/admin/database/backup'].post.responses['409'], '409 documented')
})

t.test('file names: anything but a backup name is refused, never a file outside the directory', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  const made = await backup(app, admin)
  // Files next to and above the backups directory that a traversal would reach.
  const secret = 'TOP-SECRET-CONTENT'
  await writeFile(path.join(app.config.dataDir, 'secret.json'), secret)
  await writeFile(path.join(app.config.dataDir, 'backup-2020-01-01T00-00-00.000Z.json'), secret)
  // A link inside the directory with a backup's name: never followed.
  await symlink(path.join(app.config.dataDir, 'secret.json'), path.join(backupsDir(app), 'backup-2021-01-01T00-00-00.000Z.json'))

  const attempts = [
    '..%2F..%2Fetc%2Fpasswd',
    '..%2Fsecret.json',
    'backup-..%2F..%2Fx.json',
    '%2e%2e',
    '%2e%2e%2fsecret.json',
    '%2e%2e%2Fbackup-2020-01-01T00-00-00.000Z.json',
    '..%2Fbackup-2020-01-01T00-00-00.000Z.json',
    '..%5Cbackup-2020-01-01T00-00-00.000Z.json',
    '%2Fetc%2Fpasswd',
    'backups%2F' + made.filename,
    `${made.filename}.bak`,
    `${made.filename}%00`,
    `${made.filename}%0A`,
    `x${made.filename}`,
    made.filename.toUpperCase(),
    made.filename.replace('backup-', 'Backup-'),
    made.filename.replace('.json', '.JSON'),
    made.filename.replace('T', 't'),
    'backup-2026-1-01T00-00-00Z.json',
    'backup-2026-01-01T00:00:00Z.json',
    '.' + made.filename,
    '..'
  ]
  for (const attempt of attempts) {
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await app.inject({ method, url: `${BACKUPS}/${attempt}`, headers: adminBearer(admin) })
      t.ok([400, 404].includes(res.statusCode), `${method} ${attempt}: ${res.statusCode}`)
      t.notOk(res.body.includes(secret), `${method} ${attempt}: no file outside the directory`)
    }
  }
  // Off the pattern: 400 (not the 404 of a malformed id).
  for (const name of [`${made.filename}.bak`, '..%2Fsecret.json', 'backup-..%2F..%2Fx.json', made.filename.toUpperCase()]) {
    for (const method of ['GET', 'DELETE'] as const) {
      const bad = await app.inject({ method, url: `${BACKUPS}/${name}`, headers: adminBearer(admin) })
      t.equal(bad.statusCode, 400, `${method} ${name}: 400`)
      t.same(json(bad), { error: 'Invalid backup file name' })
    }
  }
  // Well formed, not there.
  const missing = await app.inject({ url: `${BACKUPS}/backup-2000-01-01T00-00-00Z.json`, headers: adminBearer(admin) })
  t.equal(missing.statusCode, 404)
  t.equal(json(missing).error, 'Backup not found')
  // The link: not listed, not read, not deleted.
  const link = 'backup-2021-01-01T00-00-00.000Z.json'
  t.equal((await app.inject({ url: `${BACKUPS}/${link}`, headers: adminBearer(admin) })).statusCode, 404, 'a symbolic link is not followed')
  t.equal((await app.inject({ method: 'DELETE', url: `${BACKUPS}/${link}`, headers: adminBearer(admin) })).statusCode, 404)
  t.notOk(json(await app.inject({ url: BACKUPS, headers: adminBearer(admin) })).backups.some((b: { filename: string }) => b.filename === link))
  t.equal(await readFile(path.join(app.config.dataDir, 'secret.json'), 'utf8'), secret, 'files outside are untouched')
  t.ok(existsSync(path.join(backupsDir(app), made.filename)), 'the backup is untouched')
  // The service checks names itself too, whoever calls it.
  const invalid = { name: 'INVALID_BACKUP_NAME', message: 'Invalid backup file name' }
  await t.rejects(app.backupService.open('../secret.json'), invalid)
  await t.rejects(app.backupService.open('../backup-2020-01-01T00-00-00.000Z.json'), invalid)
  await t.rejects(app.backupService.open('backup-2020-01-01T00-00-00.000Z.json/../../secret.json'), invalid)
  await t.rejects(app.backupService.remove('../backup-2020-01-01T00-00-00.000Z.json'), invalid)
  t.ok(existsSync(path.join(app.config.dataDir, 'backup-2020-01-01T00-00-00.000Z.json')))
})

t.test('one backup at a time; a failed backup leaves no file', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  const author = await registerUser(app)
  for (let i = 0; i < 3; i++) await createRecipe(app, author, { title: `Recipe ${i}` })

  // Another backup (here: another instance's transaction) holds the lock: 409.
  await app.transaction(async tx => {
    t.ok(await app.backupRepository.startSnapshot(tx), 'the test holds the backup lock')
    const res = await app.inject({ method: 'POST', url: BACKUP, headers: adminBearer(admin) })
    t.equal(res.statusCode, 409)
    t.equal(json(res).error, 'Another backup is being written; try again when it has finished')
  })

  // Two at once: one writes and the other is refused, or both write (one after the other), each a whole file.
  const before = new Set(await filesIn(app))
  const both = await Promise.all([1, 2].map(async () => await app.inject({ method: 'POST', url: BACKUP, headers: adminBearer(admin) })))
  const statuses = both.map(res => res.statusCode).sort()
  t.ok(JSON.stringify(statuses) === '[201,409]' || JSON.stringify(statuses) === '[201,201]', `concurrent backups: ${statuses.join(', ')}`)
  const written = both.filter(res => res.statusCode === 201).map(res => json(res).backup)
  t.equal(new Set(written.map(b => b.filename)).size, written.length, 'distinct files')
  const added = (await filesIn(app)).filter(name => !before.has(name))
  t.same(added.sort(), written.map(b => b.filename).sort(), 'exactly the files answered, no temporary one')
  const recipes = await count(app, 'recipes')
  for (const b of written) {
    const doc = JSON.parse(await readFile(path.join(backupsDir(app), b.filename), 'utf8'))
    t.equal(doc.tables.recipes.length, recipes, `${b.filename} is complete`)
  }

  // A backup that fails midway (the database connection drops) leaves nothing behind, and frees the lock.
  const repo = app.backupRepository
  const original = repo.tables
  repo.tables = db => original(db).map(([name, rows]) => [name, name !== 'recipes'
    ? rows
    : (async function * () {
        let n = 0
        for await (const row of rows) {
          if (n++ === 2) throw new Error('connection lost')
          yield row
        }
      })()])
  const beforeFailure = await filesIn(app)
  let failed
  try {
    failed = await app.inject({ method: 'POST', url: BACKUP, headers: adminBearer(admin) })
  } finally {
    repo.tables = original
  }
  t.equal(failed.statusCode, 500)
  t.same((await filesIn(app)).sort(), beforeFailure.sort(), 'no file, partial or temporary')
  t.equal((await app.inject({ method: 'POST', url: BACKUP, headers: adminBearer(admin) })).statusCode, 201, 'the next backup runs')
})

/** `gc()` for this process (tests run without --expose-gc). */
function collector (): () => void {
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
}

t.test('memory stays flat: a large table is streamed, never held', async t => {
  const app = await build(t)
  const admin = await createAdmin(app)
  const author = await registerUser(app)
  const RECIPES = 30_000
  // 2 KB descriptions: a file of about 70 MB.
  await app.db`
    insert into recipes (id, author_id, slug, title, description, ingredients, instructions)
    select 'bulk' || g, ${author.id}, 'bulk-' || g, 'Bulk recipe ' || g, repeat(md5(g::text), 64),
      '["1 cup flour", "2 eggs"]'::jsonb, '["Mix", "Bake"]'::jsonb
    from generate_series(1, ${RECIPES}) g`
  const recipes = await count(app, 'recipes')

  // Two measures of heapUsed + arrayBuffers while the backup runs: every 2 ms as it is (garbage included, so it swings
  // with the collector's schedule: this process's young generation alone is tens of MB), and every 300 ms right after a
  // full collection (a few times a second: each takes a while): what the backup holds at that moment.
  const gc = collector()
  const used = () => { const m = process.memoryUsage(); return m.heapUsed + m.arrayBuffers }
  gc()
  const baseline = used()
  let peak = baseline
  let held = baseline
  let collections = 0
  const raw = setInterval(() => { peak = Math.max(peak, used()) }, 2)
  const collected = setInterval(() => {
    gc()
    collections++
    // Array buffers are released by a sweep that ends a moment after the collection.
    setTimeout(() => { held = Math.max(held, used()) }, 5)
  }, 300)
  const started = Date.now()
  let created
  try {
    created = await backup(app, admin)
  } finally {
    clearInterval(raw)
    clearInterval(collected)
  }
  const seconds = (Date.now() - started) / 1000
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
  t.comment(`backup of ${recipes} recipes: ${mb(created.size)} in ${seconds.toFixed(1)} s; growth of heapUsed + arrayBuffers: ` +
    `${mb(held - baseline)} held (peak of ${collections} samples after a full GC), ${mb(peak - baseline)} peak with garbage`)
  t.equal(created.tables.recipes, recipes)
  t.ok(created.size > 60 * 1024 * 1024, `a large file (${mb(created.size)})`)
  t.ok(collections >= 3, `sampled throughout (${collections} samples)`)
  t.ok(held - baseline < created.size / 3, `memory held ${mb(held - baseline)} stays well below the file size ${mb(created.size)}`)
  const doc = JSON.parse(await readFile(path.join(backupsDir(app), created.filename), 'utf8'))
  t.equal(doc.tables.recipes.length, recipes, 'the file is whole')
})
