// The bench databases: `bench_s`, `bench_m`, `bench_l` on the server of DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/postgres). Each is created, migrated with the repo's migrator and seeded once;
// `bench_meta` records the dataset and the seed version (a hash of the seed's SQL), so a rerun reuses the database
// and a changed seed (or a seed that never finished) drops and reseeds it.
import { createHash } from 'node:crypto'
import bcrypt from 'bcrypt'
import postgres from 'postgres'
import { runMigrations } from '../db/migrator.js'
import { BCRYPT_COST } from '../plugins/app/password.js'
import { BENCH_PASSWORD, COUNTERS, SEEDED_TABLES, seedStatements, type Shape } from './seed.js'

export type DatasetName = 'S' | 'M' | 'L'

// Per 10 recipes: 1 fan, 100 ratings, 50 likes, 20 bookmarks, 10 follows (the reader's 500 included), 5 comments.
const proportional = (recipes: number): Shape => ({
  recipes,
  fans: recipes / 10,
  ratings: recipes * 10,
  likes: recipes * 5,
  bookmarks: recipes * 2,
  follows: recipes,
  comments: recipes / 2
})

export const DATASETS: Record<DatasetName, Shape> = {
  S: proportional(10_000),
  M: proportional(100_000),
  L: proportional(1_000_000)
}

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres'

export interface Dataset {
  name: DatasetName
  shape: Shape
  url: string
  seedVersion: string
  /** True when this run seeded it; false when an existing seed was reused. */
  seeded: boolean
  /** How long seeding took (this run, or when it was seeded). */
  seedSeconds: number
  seededAt: string
}

const noNotices = { onnotice: () => {} }

export function databaseUrlFor (name: DatasetName, serverUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL): string {
  const url = new URL(serverUrl)
  url.pathname = `/bench_${name.toLowerCase()}`
  return url.toString()
}

/** Bump when seed() below loads differently (the SQL itself is hashed): existing datasets are then reseeded. */
const LOAD_VERSION = 2

export function seedVersion (shape: Shape): string {
  return createHash('sha256').update(JSON.stringify({ load: LOAD_VERSION, shape, statements: seedStatements(shape), counters: COUNTERS })).digest('hex').slice(0, 16)
}

interface MetaRow { seedVersion: string, seedSeconds: number, seededAt: Date }

async function readMeta (url: string, name: DatasetName): Promise<MetaRow | null> {
  const sql = postgres(url, { max: 1, ...noNotices, transform: { column: { from: postgres.toCamel } } })
  try {
    const [{ exists }] = await sql<Array<{ exists: boolean }>>`select to_regclass('bench_meta') is not null as exists`
    if (!exists) return null
    const [row] = await sql<MetaRow[]>`select seed_version, seed_seconds, seeded_at from bench_meta where dataset = ${name}`
    return row ?? null
  } finally {
    await sql.end({ timeout: 5 })
  }
}

const elapsed = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`

/** Runs the statements on `clients` connections at once, each taking the next statement when it is free. */
async function inParallel (clients: postgres.Sql[], statements: string[], run: (sql: postgres.Sql, statement: string) => Promise<void>): Promise<void> {
  const queue = [...statements]
  await Promise.all(clients.map(async sql => {
    for (let next = queue.shift(); next != null; next = queue.shift()) await run(sql, next)
  }))
}

/**
 * Bulk load on two connections: foreign keys, secondary indexes and the primary keys nothing references are dropped
 * first and built once at the end (a foreign key is then checked by one query, not row by row). Triggers stay on, so
 * whatever the migrations keep by trigger (e.g. the listed-recipe count) stays right. Then the counters from the rows,
 * VACUUM ANALYZE, and bench_meta.
 */
async function seed (url: string, name: DatasetName, shape: Shape, version: string, log: (line: string) => void): Promise<number> {
  const started = performance.now()
  const hash = await bcrypt.hash(BENCH_PASSWORD, BCRYPT_COST)
  const clients = [postgres(url, { max: 1, ...noNotices }), postgres(url, { max: 1, ...noNotices })]
  const [sql] = clients
  try {
    for (const client of clients) {
      await client`set synchronous_commit = off`
      await client`set maintenance_work_mem = '512MB'`
      await client`set work_mem = '128MB'`
    }
    const indexes = await sql<Array<{ name: string, def: string }>>`
      select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
      from pg_index i join pg_class c on c.oid = i.indrelid
      where c.relname = any(${SEEDED_TABLES}) and c.relnamespace = 'public'::regnamespace and not i.indisprimary
        and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`
    const constraints = await sql<Array<{ table: string, name: string, def: string, type: string }>>`
      select k.conrelid::regclass::text as table, k.conname as name, pg_get_constraintdef(k.oid) as def, k.contype as type
      from pg_constraint k join pg_class c on c.oid = k.conrelid
      where c.relname = any(${SEEDED_TABLES}) and c.relnamespace = 'public'::regnamespace
        and (k.contype = 'f' or (k.contype = 'p' and not exists (select 1 from pg_constraint f where f.contype = 'f' and f.confrelid = k.conrelid)))`
    const keys = constraints.filter(k => k.type === 'p')
    const foreign = constraints.filter(k => k.type === 'f')
    for (const k of foreign) await sql.unsafe(`alter table ${k.table} drop constraint ${k.name}`)
    for (const k of keys) await sql.unsafe(`alter table ${k.table} drop constraint ${k.name}`)
    for (const index of indexes) await sql.unsafe(`drop index ${index.name}`)

    await inParallel(clients, seedStatements(shape), async (client, statement) => {
      const t = performance.now()
      const result = await client.unsafe(statement, statement.includes('$1') ? [hash] : [])
      log(`  insert into ${/insert into (\w+)/.exec(statement)?.[1]}: ${result.count} rows, ${elapsed(t)}`)
    })
    let t = performance.now()
    await sql.unsafe(COUNTERS)
    // The update left a dead version of every recipe behind: rewrite the table compactly before indexing it.
    await sql`vacuum full recipes`
    log(`  recipe counters: ${elapsed(t)}`)
    t = performance.now()
    const rebuild = [
      ...keys.map(key => `alter table ${key.table} add constraint ${key.name} ${key.def}`),
      ...indexes.map(index => index.def)
    ]
    await inParallel(clients, rebuild, async (client, statement) => { await client.unsafe(statement) })
    log(`  ${rebuild.length} indexes and keys built: ${elapsed(t)}`)
    t = performance.now()
    // One after the other: each locks the table it references.
    for (const k of foreign) await sql.unsafe(`alter table ${k.table} add constraint ${k.name} ${k.def}`)
    log(`  ${foreign.length} foreign keys checked: ${elapsed(t)}`)
    t = performance.now()
    await inParallel(clients, SEEDED_TABLES.map(table => `vacuum analyze ${table}`), async (client, statement) => { await client.unsafe(statement) })
    await sql`analyze`
    log(`  vacuum analyze: ${elapsed(t)}`)
    const seconds = (performance.now() - started) / 1000
    await sql`create table bench_meta (dataset text primary key, seed_version text not null, seed_seconds real not null,
      seeded_at timestamptz not null default now(), shape jsonb not null)`
    await sql`insert into bench_meta (dataset, seed_version, seed_seconds, shape)
      values (${name}, ${version}, ${seconds}, ${sql.json(shape as unknown as postgres.JSONValue)})`
    return seconds
  } finally {
    await Promise.all(clients.map(async client => { await client.end({ timeout: 5 }) }))
  }
}

/**
 * The dataset's database, migrated and seeded: reused when its bench_meta matches the current seed, otherwise
 * dropped and seeded again. Concurrent callers wait for one another (advisory lock on the server's database).
 */
export async function prepareDataset (name: DatasetName, log: (line: string) => void = console.log): Promise<Dataset> {
  const shape = DATASETS[name]
  const version = seedVersion(shape)
  const serverUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL
  const url = databaseUrlFor(name, serverUrl)
  const database = `bench_${name.toLowerCase()}`
  const admin = postgres(serverUrl, { max: 1, ...noNotices })
  try {
    await admin`select pg_advisory_lock(hashtext(${'recipe-bench:' + database}))`
    const [existing] = await admin`select 1 from pg_database where datname = ${database}`
    let meta = existing == null ? null : await readMeta(url, name)
    if (meta != null && meta.seedVersion !== version) {
      log(`${database}: seed version ${meta.seedVersion} is not the current ${version}: reseeding`)
      meta = null
    }
    if (meta == null) {
      if (existing != null) await admin.unsafe(`drop database ${database} with (force)`)
      await admin.unsafe(`create database ${database}`)
      log(`${database}: created; migrating and seeding dataset ${name} (${shape.recipes.toLocaleString('en')} recipes)`)
      await runMigrations(url)
      const seconds = await seed(url, name, shape, version, log)
      log(`${database}: seeded in ${seconds.toFixed(1)} s`)
      return { name, shape, url, seedVersion: version, seeded: true, seedSeconds: seconds, seededAt: new Date().toISOString() }
    }
    // Migrations others added since the seed apply on top (the service would run them at start anyway).
    await runMigrations(url)
    log(`${database}: reusing seed ${version} (seeded ${meta.seededAt.toISOString()} in ${meta.seedSeconds.toFixed(1)} s)`)
    return { name, shape, url, seedVersion: version, seeded: false, seedSeconds: meta.seedSeconds, seededAt: meta.seededAt.toISOString() }
  } finally {
    await admin`select pg_advisory_unlock(hashtext(${'recipe-bench:' + database}))`.catch(() => {})
    await admin.end({ timeout: 5 })
  }
}
