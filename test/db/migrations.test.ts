import t from 'tap'
import { databaseUrl, dropDatabase, withConnection } from '../../db/admin.js'
import { runMigrations } from '../../db/migrator.js'

const maintenance = process.env.TEST_MAINTENANCE_URL!

t.test('instances starting together apply migrations once, under the advisory lock', async t => {
  const name = `rp_test_r${process.pid}_migrate_${Date.now()}`
  await withConnection(maintenance, async sql => { await sql`create database ${sql(name)}` })
  t.teardown(async () => await dropDatabase(maintenance, name))
  const url = databaseUrl(maintenance, name)

  await Promise.all([runMigrations(url), runMigrations(url), runMigrations(url)])
  await runMigrations(url) // and again later: nothing to do

  await withConnection(url, async sql => {
    const extensions = (await sql`select extname from pg_extension`).map(r => r.extname)
    for (const ext of ['pg_trgm', 'citext', 'unaccent']) t.ok(extensions.includes(ext), `${ext} installed`)
    const tables = (await sql`select tablename from pg_tables where schemaname = 'public'`).map(r => r.tablename)
    for (const table of ['users', 'recipes', 'tags', 'recipe_tags']) t.ok(tables.includes(table), `${table} exists`)
    const [{ count }] = await sql`select count(*)::int as count from drizzle.__drizzle_migrations`
    const journal = (await import('../../db/migrations/meta/_journal.json', { with: { type: 'json' } })).default
    t.equal(count, journal.entries.length, 'each migration recorded exactly once')
    const [index] = await sql`select indexdef from pg_indexes where indexname = 'recipes_title_trgm_idx'`
    t.match(index.indexdef, /gin_trgm_ops/, 'trigram index on recipe titles')
  })
})
