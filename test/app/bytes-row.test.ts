// bytesRow (plugins/app/repositories/hot/bytes-row.ts): a statement's first row as the bytes PostgreSQL sent, with
// postgres.js's result array emptied so the socket buffers those bytes are views of can die young (hot/README.md).
import type postgres from 'postgres'
import t from 'tap'
import { bytesRow, integer, text } from '../../plugins/app/repositories/hot/bytes-row.js'
import { build } from '../helper.js'

/** The query as bytesRow reads it, with the result array postgres.js resolved it to kept for the test to look at. */
function watched (query: postgres.PendingQuery<postgres.Row[]>) {
  const seen: { result?: unknown[] } = {}
  const watching = { raw: async () => { seen.result = await query.raw(); return seen.result } }
  return { query: watching as unknown as typeof query, seen }
}

t.test('bytesRow reads the first row as bytes and leaves the result array empty', async t => {
  const app = await build(t)
  const { query, seen } = watched(app.db`select repeat('x', 20000) as page, 7 as n, null::text as nothing`)
  const row = await bytesRow(query)
  t.equal(seen.result?.length, 0, 'the result array no longer holds the row')
  t.equal(text(row.page), 'x'.repeat(20000))
  t.equal(integer(row.n), 7)
  t.equal(row.nothing, null)

  // The bytes stay the caller's: later answers on the pool's connections leave them as they were.
  await Promise.all(Array.from({ length: 20 }, async () => await app.db`select repeat('y', 20000) as page`))
  t.equal(text(row.page), 'x'.repeat(20000))
})

t.test('bytesRow of a statement without rows: every column null', async t => {
  const app = await build(t)
  const { query, seen } = watched(app.db`select 'x'::text as page, 1 as n where false`)
  const row = await bytesRow(query)
  t.same(row, { page: null, n: null })
  t.equal(seen.result?.length, 0)
})
