import { mkdtemp, readFile, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { ConfigError, loadConfig } from '../../config.js'

const SECRET_A = 'a'.repeat(32)
const SECRET_B = 'b'.repeat(32)

async function dataDir (): Promise<string> {
  return await mkdtemp(path.join(tmpdir(), 'recipes-config-'))
}

t.test('defaults of decisions.md section 7', async t => {
  const config = await loadConfig({ DATA_DIR: await dataDir(), JWT_SECRET: SECRET_A, ADMIN_JWT_SECRET: SECRET_B })
  t.equal(config.port, 3000)
  t.equal(config.host, '127.0.0.1')
  t.equal(config.bffPort, 3001)
  t.same(config.allowedOrigins, ['http://localhost:3001', 'http://127.0.0.1:3001'])
  t.same(config.rateLimit, { globalMax: 500, routerMax: 100, authMax: 15, windowMs: 900_000, importsPerHour: 60, aiPerHour: 30 })
  t.equal(config.databaseUrl, undefined, 'embedded PostgreSQL by default')
  t.equal(config.redisUrl, undefined, 'in-process cache by default')
  t.equal(config.storage.driver, 'local')
  t.match(config.storage.localDir, /uploads$/)
  t.equal(config.storage.publicUrl, 'http://localhost:3000', 'local files are served by the API itself')
  t.equal(config.mail.smtpUrl, undefined, 'emails recorded, not sent')
  t.same(config.importAllowOrigins, [], 'the import reaches no loopback origin')
  t.equal(config.browserIdleCloseMs, 60_000)
  t.equal(config.trustProxy, 'loopback,uniquelocal')
})

t.test('values are typed and validated', async t => {
  const config = await loadConfig({
    DATA_DIR: await dataDir(),
    JWT_SECRET: SECRET_A,
    ADMIN_JWT_SECRET: SECRET_B,
    PORT: '8080',
    BFF_PORT: '9090',
    RATE_LIMIT_AUTH_MAX: '3',
    IMPORT_ALLOW_ORIGINS: 'http://127.0.0.1:4567, http://localhost:8080/,https://[::1]:8443,HTTP://LOCALHOST:80',
    BROWSER_IDLE_CLOSE_MS: '500',
    ALLOWED_ORIGINS: 'https://a.example.com, https://b.example.com/',
    MINIO_ENDPOINT: 'minio.internal',
    MINIO_ACCESS_KEY: 'ak',
    MINIO_SECRET_KEY: 'sk',
    STORAGE_DRIVER: 's3'
  })
  t.equal(config.port, 8080)
  t.equal(config.bffPort, 9090)
  t.equal(config.rateLimit.authMax, 3)
  t.same(config.importAllowOrigins, ['http://127.0.0.1:4567', 'http://localhost:8080', 'https://[::1]:8443', 'http://localhost'],
    'exact origins, as URL.origin writes them')
  t.equal(config.browserIdleCloseMs, 500)
  t.same(config.allowedOrigins, ['https://a.example.com', 'https://b.example.com'])
  t.equal(config.storage.s3?.endPoint, 'minio.internal', 'MINIO_* are aliases of S3_*')
  t.equal(config.storage.publicUrl, 'https://minio.internal/recipes', 'S3 files: the path-style bucket URL by default')
  const cdn = await loadConfig({
    DATA_DIR: await dataDir(),
    JWT_SECRET: SECRET_A,
    ADMIN_JWT_SECRET: SECRET_B,
    STORAGE_DRIVER: 's3',
    S3_ENDPOINT: 's3.example.com',
    S3_PORT: '9000',
    S3_ACCESS_KEY: 'ak',
    S3_SECRET_KEY: 'sk',
    MINIO_PUBLIC_URL: 'https://cdn.example.com/'
  })
  t.equal(cdn.storage.publicUrl, 'https://cdn.example.com', 'a configured public URL wins (MINIO_PUBLIC_URL is an alias)')

  const bad: Array<[Record<string, string>, RegExp]> = [
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ REDIS_URL: 'http://x' }, /REDIS_URL/],
    [{ STORAGE_PUBLIC_URL: 'ftp://files' }, /STORAGE_PUBLIC_URL/],
    [{ NODE_ENV: 'staging' }, /NODE_ENV/],
    [{ STORAGE_DRIVER: 's3' }, /S3_ENDPOINT/],
    [{ ALLOWED_ORIGINS: 'not an origin' }, /ALLOWED_ORIGINS/],
    // Each IMPORT_ALLOW_ORIGINS entry is exactly one origin: nothing wider, nothing malformed.
    ...['127.0.0.1:4567', 'http://127.0.0.1:4567/path', 'http://127.0.0.1:4567?x', 'http://*:4567', 'http://127.0.0.1:*',
      'ftp://127.0.0.1:21', 'http://user@127.0.0.1:4567', 'http://127.0.0.1:99999', 'http://', 'true', 'http://a b:1'
    ].map((entry): [Record<string, string>, RegExp] => [{ IMPORT_ALLOW_ORIGINS: `http://127.0.0.1:1,${entry}` }, /IMPORT_ALLOW_ORIGINS/]),
    [{ BROWSER_IDLE_CLOSE_MS: '0' }, /BROWSER_IDLE_CLOSE_MS/],
    [{ ADMIN_BOOTSTRAP_EMAIL: 'a@b.co' }, /ADMIN_BOOTSTRAP/],
    [{ RATE_LIMIT_GLOBAL_MAX: '0' }, /RATE_LIMIT_GLOBAL_MAX/]
  ]
  for (const [env, message] of bad) {
    const err = await loadConfig({ DATA_DIR: await dataDir(), JWT_SECRET: SECRET_A, ADMIN_JWT_SECRET: SECRET_B, ...env }).catch(e => e)
    t.type(err, ConfigError, JSON.stringify(env))
    t.match(err.message, message)
    t.notMatch(err.message, /\n/, 'one line')
  }
})

t.test('secrets', async t => {
  const dir = await dataDir()
  const first = await loadConfig({ DATA_DIR: dir })
  t.ok(first.jwtSecret.length >= 32, 'generated outside production')
  t.ok(first.adminJwtSecret.length >= 32)
  t.not(first.jwtSecret, first.adminJwtSecret)
  const second = await loadConfig({ DATA_DIR: dir, NODE_ENV: 'development' })
  t.equal(second.jwtSecret, first.jwtSecret, 'kept in DATA_DIR across restarts')
  const file = path.join(dir, 'secrets.json')
  t.equal((await stat(file)).mode & 0o777, 0o600, 'readable by the owner only')
  t.match(await readFile(file, 'utf8'), first.jwtSecret)

  const refuse = async (env: Record<string, string>, message: RegExp) => {
    const err = await loadConfig({ DATA_DIR: await dataDir(), ...env }).catch(e => e)
    t.type(err, ConfigError)
    t.match(err.message, message)
  }
  await refuse({ NODE_ENV: 'production' }, /JWT_SECRET is required in production/)
  await refuse({ NODE_ENV: 'production', JWT_SECRET: SECRET_A }, /ADMIN_JWT_SECRET is required in production/)
  await refuse({ NODE_ENV: 'production', JWT_SECRET: 'short', ADMIN_JWT_SECRET: SECRET_B }, /JWT_SECRET must be at least 32 characters/)
  await refuse({ JWT_SECRET: 'short' }, /at least 32/)
  await refuse({ NODE_ENV: 'production', JWT_SECRET: SECRET_A, ADMIN_JWT_SECRET: SECRET_A }, /must differ/)
  await refuse({ JWT_SECRET: SECRET_A, ADMIN_JWT_SECRET: SECRET_A }, /must differ/)
  await refuse({ NODE_ENV: 'production', JWT_SECRET: SECRET_A, ADMIN_JWT_SECRET: SECRET_B }, /STORAGE_PUBLIC_URL is required in production/)
  const production = await loadConfig({
    DATA_DIR: await dataDir(), NODE_ENV: 'production', JWT_SECRET: SECRET_A, ADMIN_JWT_SECRET: SECRET_B, STORAGE_PUBLIC_URL: 'https://files.example.com'
  })
  t.equal(production.jwtSecret, SECRET_A)
  t.equal(production.storage.publicUrl, 'https://files.example.com')
  t.equal(production.bcryptCost, 12, 'passwords hash at cost 12 unless BCRYPT_COST says otherwise')

  const productionEnv = { NODE_ENV: 'production', JWT_SECRET: SECRET_A, ADMIN_JWT_SECRET: SECRET_B, STORAGE_PUBLIC_URL: 'https://files.example.com' }
  await refuse({ ...productionEnv, BCRYPT_COST: '9' }, /BCRYPT_COST must be at least 10 in production/)
  t.equal((await loadConfig({ DATA_DIR: await dataDir(), ...productionEnv, BCRYPT_COST: '10' })).bcryptCost, 10)
  t.equal((await loadConfig({ DATA_DIR: await dataDir(), NODE_ENV: 'test', BCRYPT_COST: '4' })).bcryptCost, 4, 'cheap hashes outside production')
  await refuse({ BCRYPT_COST: '3' }, /BCRYPT_COST/)
  await refuse({ BCRYPT_COST: '16' }, /BCRYPT_COST/)
})
