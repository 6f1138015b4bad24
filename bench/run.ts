// `npm run bench`: measures the hot routes against a real server and PostgreSQL (no timed assertions in tests).
// Starts the API on an ephemeral port with the same code as production; DATABASE_URL may point at a seeded database.
import autocannon from 'autocannon'
import Fastify from 'fastify'
import fp from 'fastify-plugin'
import app from '../app.js'
import { loadConfig } from '../config.js'
import { prepareDatabase } from '../db/database.js'
import { serverOptions } from '../server-options.js'

interface Scenario { name: string, path: string, method?: 'GET' | 'POST', body?: unknown, status?: number }

const SCENARIOS: Scenario[] = [
  { name: 'liveness', path: '/healthz' },
  { name: 'readiness (database + cache)', path: '/readyz' },
  { name: 'unknown /api route (rate limiter + 404)', path: '/api/unknown', status: 404 }
]

const duration = Number(process.env.BENCH_SECONDS ?? 5)
const config = await loadConfig({ ...process.env, LOG_LEVEL: 'warn' })
const database = await prepareDatabase(config, { info: () => {}, warn: msg => console.warn(msg) })
const server = Fastify(serverOptions(config))
await server.register(fp(app), { config: { ...config, databaseUrl: database.url } })
await server.listen({ port: 0, host: '127.0.0.1' })
const base = `http://127.0.0.1:${(server.server.address() as { port: number }).port}`

console.log('| scenario | req/s | p50 ms | p99 ms | unexpected |\n|---|---|---|---|---|')
for (const scenario of SCENARIOS) {
  const result = await autocannon({
    url: base + scenario.path,
    method: scenario.method ?? 'GET',
    body: scenario.body == null ? undefined : JSON.stringify(scenario.body),
    headers: { 'content-type': 'application/json' },
    connections: 20,
    duration
  })
  const expected = (result.statusCodeStats as Record<string, { count: number }>)[String(scenario.status ?? 200)]?.count ?? 0
  const unexpected = result.errors + result.requests.total - expected
  console.log(`| ${scenario.name} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${unexpected} |`)
}
await server.close()
await database.stop()
