// postgres.js hands timestamps to JavaScript as Date (milliseconds); PostgreSQL keeps microseconds. Rows created in one
// millisecond, or at the very same instant, must still page exactly: none skipped, none repeated.
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { bearer, build, createRecipe, follow, json, registerUser, type TestUser } from '../../../helper.js'

/** Everything a paged route returns, walked to its end by `next`. */
async function walk (next: (after: string | null) => Promise<{ ids: string[], after: string | null }>): Promise<string[]> {
  const seen: string[] = []
  let after: string | null = null
  for (let guard = 0; guard < 100; guard++) {
    const page = await next(after)
    seen.push(...page.ids)
    if (page.after == null) return seen
    after = page.after
  }
  throw new Error('paging did not end')
}

async function recipesInOneMillisecond (app: FastifyInstance, chef: TestUser, count: number): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < count; i++) ids.push((await createRecipe(app, chef, { title: `Instant ${i}` })).id)
  // Pairs share an instant; all of them share one millisecond.
  await app.db`update recipes set created_at = '2026-03-01 12:00:00.123'::timestamptz + (((position - 1) / 2) * interval '1 microsecond')
    from unnest(${ids}::text[]) with ordinality as u(id, position) where recipes.id = u.id`
  return ids
}

t.test('the feed pages rows of one millisecond exactly, for every page size', async t => {
  const app = await build(t)
  const reader = await registerUser(app)
  const chef = await registerUser(app)
  await follow(app, reader, chef)
  const ids = await recipesInOneMillisecond(app, chef, 9)
  const [{ distinct }] = await app.db<Array<{ distinct: number }>>`select count(distinct created_at)::int as distinct from recipes where id = any(${ids}::text[])`
  t.equal(distinct, 5, 'nine recipes at five instants of one millisecond')
  const expected = (await app.db<Array<{ id: string }>>`select id from recipes where id = any(${ids}::text[]) order by created_at desc, id desc`).map(row => row.id)
  for (const limit of [1, 2, 3, 4]) {
    const seen = await walk(async after => {
      const page = json(await app.inject({ url: `/api/feed?limit=${limit}${after == null ? '' : `&cursor=${after}`}`, headers: bearer(reader) }))
      return { ids: page.recipes.map((r: { id: string }) => r.id), after: page.nextCursor }
    })
    t.same(seen, expected, `limit ${limit}: each once, newest first`)
  }
})

t.test('cooking history pages rows of one millisecond exactly', async t => {
  const app = await build(t)
  const cook = await registerUser(app)
  const ids = await recipesInOneMillisecond(app, cook, 7)
  for (const id of ids) t.equal((await app.inject({ method: 'POST', url: `/api/cooking/recipes/${id}/cooked`, headers: bearer(cook) })).statusCode, 200)
  await app.db`update cooked_recipes set created_at = '2026-03-01 12:00:00.123'::timestamptz where user_id = ${cook.id}`
  for (const limit of [1, 2, 3]) {
    const seen = await walk(async after => {
      const page = Number(after ?? 1)
      const body = json(await app.inject({ url: `/api/cooking/history?limit=${limit}&page=${page}`, headers: bearer(cook) }))
      return { ids: body.history.map((entry: { recipe: { id: string } }) => entry.recipe.id), after: body.pagination.hasNext ? String(page + 1) : null }
    })
    t.same([...seen].sort(), [...ids].sort(), `limit ${limit}: each once`)
    t.equal(new Set(seen).size, ids.length, 'no repeats')
  }
})
