// compose.yaml and deploy/haproxy.cfg, checked the way CI can without a Docker engine: the Compose file against the
// Compose specification's schema and dclint's rules, its API environment through the service's own configuration
// loader (as production), and the HAProxy configuration with `haproxy -c` (Debian's haproxy, installed by .ci/run).
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { DCLinter } from 'dclint'
import t from 'tap'
import { parse } from 'yaml'
import { haproxyConfig } from '../../bench/rolling-restart.js'
import { loadConfig } from '../../config.js'

const COMPOSE = path.resolve('compose.yaml')
const HAPROXY_CFG = path.resolve('deploy/haproxy.cfg')

interface Service {
  image?: string
  build?: string
  environment?: Record<string, string>
  depends_on?: Record<string, { condition: string }>
  healthcheck?: { test: string[] }
  volumes?: string[]
  deploy?: { replicas?: number }
  stop_grace_period?: string
}
const compose = parse(readFileSync(COMPOSE, 'utf8')) as { services: Record<string, Service> }
const { api, haproxy } = compose.services

/** A `${VAR:?message}` (required) or `${VAR:-default}` substitution replaced as `docker compose` would. */
function interpolate (value: string, given: Record<string, string>): string {
  return value.replace(/\$\{([A-Z0-9_]+)(?::([?-])([^}]*))?\}/g, (_all, name: string, kind?: string, rest?: string) => {
    if (given[name] != null) return given[name]
    if (kind === '-') return rest ?? ''
    throw new Error(`${name} is required: ${rest ?? ''}`)
  })
}

function haproxyBinary (): string | undefined {
  return ['/usr/sbin/haproxy', ...(process.env.PATH ?? '').split(path.delimiter).map(dir => path.join(dir, 'haproxy'))].find(existsSync)
}

t.test('compose.yaml is a valid Compose file with no lint findings (dclint: the Compose schema and its rules)', async t => {
  const [result] = new DCLinter({ rules: {}, quiet: false, debug: false, exclude: [] }).lintFiles([COMPOSE], false)
  t.same(result.messages.map((m: { line: number, message: string, rule: string }) => `${m.line}: ${m.message} (${m.rule})`), [])
  t.equal(result.errorCount + result.warningCount, 0)
})

t.test('compose.yaml: three API replicas from the Dockerfile behind HAProxy; every service health-checked, started in order', async t => {
  t.same(Object.keys(compose.services).sort(), ['api', 'haproxy', 'mailpit', 'minio', 'postgres', 'redis'])
  for (const [name, service] of Object.entries(compose.services)) t.ok(service.healthcheck?.test?.length, `${name} has a health check`)
  t.equal(api.build, '.')
  t.equal(api.deploy?.replicas, 3)
  t.same(api.depends_on, Object.fromEntries(['mailpit', 'minio', 'postgres', 'redis'].map(name => [name, { condition: 'service_healthy' }])))
  t.match(api.healthcheck?.test.join(' '), /\/readyz/, 'an instance is healthy when it is ready')
  t.same(haproxy.depends_on, { api: { condition: 'service_healthy' } })
  t.ok(haproxy.volumes?.includes('./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro'), 'HAProxy runs deploy/haproxy.cfg')
  // Docker's default of 10 s would kill an instance still draining and closing (SHUTDOWN_DRAIN_MS + the close bound).
  t.equal(api.stop_grace_period, '30s')
})

t.test('compose.yaml: secrets are required substitutions, never values', async t => {
  const secrets: string[] = []
  for (const [name, service] of Object.entries(compose.services)) {
    for (const [key, value] of Object.entries(service.environment ?? {})) {
      if (!/SECRET|PASSWORD|ACCESS_KEY|MINIO_ROOT_USER/.test(key)) continue
      secrets.push(`${name}.${key}`)
      t.match(value, /^\$\{[A-Z0-9_]+:\?[^}]+\}$/, `${name}.${key} is \${VAR:?...}`)
    }
  }
  t.same(secrets.sort(), [
    'api.ADMIN_JWT_SECRET', 'api.JWT_SECRET', 'api.S3_ACCESS_KEY', 'api.S3_SECRET_KEY',
    'minio.MINIO_ROOT_PASSWORD', 'minio.MINIO_ROOT_USER', 'postgres.POSTGRES_PASSWORD'
  ], 'every secret was checked')
  t.match(api.environment?.DATABASE_URL, /^postgres:\/\/recipes:\$\{POSTGRES_PASSWORD:\?[^}]+\}@postgres:5432\/recipes$/)
})

t.test('compose.yaml: the API environment is a valid production configuration (the service\'s own loader)', async t => {
  const given = {
    POSTGRES_PASSWORD: 'pg-password',
    S3_ACCESS_KEY: 'minio-access-key',
    S3_SECRET_KEY: 'minio-secret-key',
    JWT_SECRET: 'j'.repeat(48),
    ADMIN_JWT_SECRET: 'a'.repeat(48)
  }
  const env = Object.fromEntries(Object.entries(api.environment ?? {}).map(([key, value]) => [key, interpolate(String(value), given)]))
  t.throws(() => interpolate(String(api.environment?.JWT_SECRET), {}), /JWT_SECRET is required/, 'an unset secret stops `docker compose up`')
  // The image's own environment (Dockerfile ENV) comes first; compose's environment overrides it.
  const config = await loadConfig({ HOST: '0.0.0.0', PORT: '3000', DATA_DIR: '/data', ...env })
  t.equal(config.isProduction, true)
  t.equal(config.databaseUrl, 'postgres://recipes:pg-password@postgres:5432/recipes')
  t.equal(config.redisUrl, 'redis://redis:6379')
  t.match(config.storage, { driver: 's3', s3: { endPoint: 'minio', port: 9000, useSSL: false, accessKey: 'minio-access-key', bucket: 'recipes' } })
  t.equal(config.jwtSecret, given.JWT_SECRET)
  t.equal(config.shutdownDrainMs, 1500)
  t.match(api.healthcheck?.test.join(' '), `127.0.0.1:${config.port}/readyz`, 'the health check asks the port the API listens on')
})

t.test('deploy/haproxy.cfg: health checks on /readyz, one failed check takes an instance out, only safe retries', async t => {
  const text = readFileSync(HAPROXY_CFG, 'utf8')
  t.match(text, /^\s*option httpchk$/m)
  t.match(text, /^\s*http-check send meth GET uri \/readyz\b/m)
  t.match(text, /^\s*default-server check inter 500ms fall 1 rise 2$/m, 'one failed check (a draining instance) takes a server out')
  t.match(text, /^\s*option redispatch$/m)
  t.match(text, /^\s*retry-on conn-failure empty-response$/m)
  t.match(text, /^\s*http-request disable-l7-retry if !METH_GET$/m, 'a request that reached an instance is replayed only if it is a GET or HEAD')
  t.match(text, /^\s*server-template api 3 api:3000 /m, 'the three replicas of compose.yaml')
})

const haproxyPath = haproxyBinary()
// CI installs it (.ci/run): there a missing binary fails the test instead of skipping it.
const noHaproxy = haproxyPath == null && process.env.CI == null ? 'haproxy is not installed (apt-get install haproxy)' : false

t.test('deploy/haproxy.cfg: `haproxy -c` accepts it', { skip: noHaproxy }, async t => {
  t.ok(haproxyPath, 'haproxy is installed')
  const check = spawnSync(haproxyPath!, ['-c', '-f', HAPROXY_CFG], { encoding: 'utf8' })
  t.equal(check.status, 0, `${check.stdout}${check.stderr}`)
  t.match(check.stdout, /Configuration file is valid/)
})

t.test('the same file with local servers (npm run bench:rolling-restart) is valid too', { skip: noHaproxy }, async t => {
  const dir = await mkdtemp(path.join(tmpdir(), 'recipes-haproxy-'))
  const file = path.join(dir, 'haproxy.cfg')
  const config = haproxyConfig(readFileSync(HAPROXY_CFG, 'utf8'), {
    bind: '127.0.0.1:18080',
    servers: [{ name: 'a', address: '127.0.0.1:13001' }, { name: 'b', address: '127.0.0.1:13002' }],
    statsSocket: path.join(dir, 'admin.sock')
  })
  t.notMatch(config, /^\s*(server-template|bind :8080)/m)
  t.match(config, /^\s*server a 127\.0\.0\.1:13001\n\s*server b 127\.0\.0\.1:13002$/m)
  await writeFile(file, config)
  const check = spawnSync(haproxyPath!, ['-c', '-f', file], { encoding: 'utf8' })
  t.equal(check.status, 0, `${check.stdout}${check.stderr}`)
})
