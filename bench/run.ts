// `npm run bench`: measures the hot routes against a real server and PostgreSQL (no timed assertions in tests).
// Starts the API on an ephemeral port with the same code as production; DATABASE_URL may point at a seeded database.
import autocannon from 'autocannon'
import Fastify from 'fastify'
import postgres from 'postgres'
import fp from 'fastify-plugin'
import app from '../app.js'
import { loadConfig } from '../config.js'
import { prepareDatabase } from '../db/database.js'
import { serverOptions } from '../server-options.js'

const RECIPES = Number(process.env.BENCH_RECIPES ?? 100_000)

/** Seeds BENCH_RECIPES public recipes (once per database) in a few statements, not one request each. */
async function seed (url: string): Promise<string> {
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    const [{ n }] = await sql`select count(*)::int as n from recipes`
    if (n < RECIPES) {
      console.log(`seeding ${RECIPES - n} recipes...`)
      // 500 authors, all followed by one reader: the feed scenario's worst realistic case.
      await sql`insert into users (id, email, username, username_key, password)
        select 'bench-a' || g, 'bench' || g || '@example.com', 'bench' || g, 'bench' || g, 'x' from generate_series(0, 499) g
        on conflict do nothing`
      await sql`insert into users (id, email, username, username_key, password)
        values ('bench-reader', 'reader@example.com', 'reader', 'reader', 'x') on conflict do nothing`
      await sql`insert into follows (follower_id, following_id) select 'bench-reader', 'bench-a' || g from generate_series(0, 499) g
        on conflict do nothing`
      const words = ['tomato', 'basil', 'garlic', 'lemon', 'chicken', 'rice', 'bean', 'mushroom', 'ginger', 'chili', 'apple', 'cinnamon']
      await sql`
        insert into recipes (id, author_id, slug, title, ingredients, ingredients_text, cuisine, total_time, like_count)
        select 'bench-' || g, 'bench-a' || (g % 500), 'recipe-' || g,
          initcap(w1) || ' and ' || w2 || ' dish ' || g,
          jsonb_build_array(jsonb_build_object('text', '2 ' || w1, 'name', w1), jsonb_build_object('text', '1 cup ' || w2, 'name', w2)),
          '2 ' || w1 || e'\n' || w1 || e'\n1 cup ' || w2 || e'\n' || w2,
          (array['Italian', 'Thai', 'Mexican', 'French'])[1 + g % 4], 10 + g % 120, g % 1000
        from (select g, ${words}::text[] as w from generate_series(${n + 1}::int, ${RECIPES}::int) g) s,
          lateral (select w[1 + g % 12] as w1, w[1 + (g / 12) % 12] as w2) pick`
      await sql`analyze recipes`
    }
    return 'bench-1'
  } finally {
    await sql.end()
  }
}

interface Scenario { name: string, path: string, method?: 'GET' | 'POST', body?: unknown, status?: number, token?: boolean }

const SCENARIOS = (recipeId: string): Scenario[] => [
  { name: 'liveness', path: '/healthz' },
  { name: 'readiness (database + cache)', path: '/readyz' },
  { name: 'unknown /api route (rate limiter + 404)', path: '/api/unknown', status: 404 },
  { name: 'recipe list, page 1', path: '/api/recipes' },
  { name: 'recipe detail', path: `/api/recipes/${recipeId}` },
  { name: 'recipe search (title or ingredient)', path: '/api/recipes?search=ginger' },
  { name: 'recipe search, rare term', path: '/api/recipes?search=dish%2099999' },
  { name: 'popular recipes', path: '/api/recipes/popular' },
  { name: 'feed of a user following 500 authors', path: '/api/feed', token: true }
]

const duration = Number(process.env.BENCH_SECONDS ?? 5)
// Benchmarks measure throughput, not the limiter: lift the limits unless the caller set them.
const config = await loadConfig({ RATE_LIMIT_GLOBAL_MAX: '1000000000', ...process.env, LOG_LEVEL: 'warn' })
const database = await prepareDatabase(config, { info: () => {}, warn: msg => console.warn(msg) })
const recipeId = await seed(database.url)
const server = Fastify(serverOptions(config))
await server.register(fp(app), { config: { ...config, databaseUrl: database.url } })
await server.listen({ port: 0, host: '127.0.0.1' })
const base = `http://127.0.0.1:${(server.server.address() as { port: number }).port}`

const { token } = await server.tokens.issue({ id: 'bench-reader', email: 'reader@example.com' })
console.log('| scenario | req/s | p50 ms | p99 ms | unexpected |\n|---|---|---|---|---|')
for (const scenario of SCENARIOS(recipeId)) {
  const result = await autocannon({
    url: base + scenario.path,
    method: scenario.method ?? 'GET',
    body: scenario.body == null ? undefined : JSON.stringify(scenario.body),
    headers: { 'content-type': 'application/json', ...(scenario.token === true && { authorization: `Bearer ${token}` }) },
    connections: 20,
    duration
  })
  const expected = (result.statusCodeStats as Record<string, { count: number }>)[String(scenario.status ?? 200)]?.count ?? 0
  const unexpected = result.errors + result.requests.total - expected
  console.log(`| ${scenario.name} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${unexpected} |`)
}
// autocannon drops its sockets at the end; let handlers still running finish before the pool closes.
await new Promise(resolve => setTimeout(resolve, 1000))
await server.close()
await database.stop()
