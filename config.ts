// Configuration: every variable of decisions.md section 7, validated once at start-up.
import { randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import envSchema from 'env-schema'
import webPush from 'web-push'
import { Type, type Static } from 'typebox'
import { exactOrigin } from './lib/recipe-import/allowed-origins.js'
import { parsePlatformOrigins } from './lib/video-import/links.js'

/** The lowest bcrypt cost production accepts; tests run at 4 (BCRYPT_COST) to register users in a millisecond. */
export const MIN_PRODUCTION_BCRYPT_COST = 10

const Port = Type.Integer({ minimum: 0, maximum: 65535 })

const EnvSchema = Type.Object({
  NODE_ENV: Type.Optional(Type.Union([Type.Literal('production'), Type.Literal('development'), Type.Literal('test')])),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ default: '127.0.0.1' }),
  BFF_PORT: Type.Optional(Port),
  DATA_DIR: Type.String({ default: './data', minLength: 1 }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  DB_POOL_MAX: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  /** Longest a request's statement may run, and wait for a lock; past them the request answers 503 with Retry-After. */
  DB_STATEMENT_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 5000 }),
  DB_LOCK_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 2000 }),
  /** Longest a statement waits for a pool connection (all busy, or the database unreachable) before it is dropped. */
  DB_POOL_WAIT_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 3000 }),
  /** A background job's statements (data deletions, digests) may run this long. */
  DB_JOB_STATEMENT_TIMEOUT_MS: Type.Integer({ minimum: 1000, maximum: 3_600_000, default: 60_000 }),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  CACHE_PREFIX: Type.String({ default: 'rp:' }),
  /** bcrypt cost of password hashes: 2^cost rounds. Production refuses less than 10 (load-time check below). */
  BCRYPT_COST: Type.Integer({ minimum: 4, maximum: 15, default: 12 }),
  /**
   * Password hashes and comparisons that may wait for a hashing thread (beyond one running per core); more answer 503
   * with Retry-After at once instead of waiting past the clients' and the connection's time-outs.
   */
  PASSWORD_QUEUE_MAX: Type.Integer({ minimum: 0, maximum: 10_000, default: 16 }),
  JWT_SECRET: Type.Optional(Type.String()),
  ADMIN_JWT_SECRET: Type.Optional(Type.String()),
  /** Key for admins' TOTP secrets at rest; derived from ADMIN_JWT_SECRET when unset (set it to rotate that secret alone). */
  ADMIN_MFA_KEY: Type.Optional(Type.String({ minLength: 32 })),
  ALLOWED_ORIGINS: Type.Optional(Type.String()),
  // An RFC 6265 token: no separators (=, ;, spaces, quotes) that would corrupt the Set-Cookie header.
  AUTH_COOKIE: Type.String({ pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$", default: 'auth_token' }),
  TRUST_PROXY: Type.String({ default: 'loopback,uniquelocal' }),
  RATE_LIMIT_GLOBAL_MAX: Type.Integer({ minimum: 1, default: 500 }),
  RATE_LIMIT_ROUTER_MAX: Type.Integer({ minimum: 1, default: 100 }),
  RATE_LIMIT_AUTH_MAX: Type.Integer({ minimum: 1, default: 15 }),
  RATE_LIMIT_WINDOW_MS: Type.Integer({ minimum: 1000, default: 15 * 60 * 1000 }),
  RATE_LIMIT_IMPORTS_PER_HOUR: Type.Integer({ minimum: 1, default: 60 }),
  RATE_LIMIT_AI_PER_HOUR: Type.Integer({ minimum: 1, default: 30 }),
  ADMIN_BOOTSTRAP_EMAIL: Type.Optional(Type.String({ pattern: String.raw`^[^@\s]+@[^@\s]+\.[^@\s]+$` })),
  ADMIN_BOOTSTRAP_USERNAME: Type.Optional(Type.String({ minLength: 3 })),
  ADMIN_BOOTSTRAP_PASSWORD: Type.Optional(Type.String({ minLength: 12 })),
  PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  /** Where the API itself is reached from outside (links in emails: unsubscribe). */
  API_PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  /** JSON: { "<provider>": { "issuer": "...", "audience": "...", "jwksUrl": "..." } } */
  OAUTH_PROVIDERS: Type.Optional(Type.String()),
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  MAIL_FROM: Type.String({ default: 'Recipes <no-reply@localhost>' }),
  STORAGE_DRIVER: Type.Union([Type.Literal('local'), Type.Literal('s3')], { default: 'local' }),
  S3_ENDPOINT: Type.Optional(Type.String()),
  S3_PORT: Type.Optional(Port),
  S3_USE_SSL: Type.Boolean({ default: true }),
  S3_ACCESS_KEY: Type.Optional(Type.String()),
  S3_SECRET_KEY: Type.Optional(Type.String()),
  S3_BUCKET: Type.String({ default: 'recipes' }),
  S3_REGION: Type.String({ default: 'us-east-1' }),
  /** Where clients fetch stored files: `<STORAGE_PUBLIC_URL>/uploads/<userId>/<id>.webp`. */
  STORAGE_PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  AI_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  AI_API_KEY: Type.Optional(Type.String()),
  AI_MODEL: Type.String({ default: 'gpt-4o-mini' }),
  AI_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 60_000 }),
  /** Video import: transcribe a post's audio with the provider's /audio/transcriptions when it has no subtitles. */
  AI_TRANSCRIBE: Type.Boolean({ default: false }),
  AI_TRANSCRIBE_MODEL: Type.String({ default: 'whisper-1' }),
  CHROMIUM_PATH: Type.Optional(Type.String()),
  /** Tests only: exact origins (`http://127.0.0.1:4567,...`) the import may fetch from though they are loopback. */
  IMPORT_ALLOW_ORIGINS: Type.Optional(Type.String()),
  /**
   * Tests only (refused in production): `host=origin,...` sends the video import's requests for a platform host
   * (`www.tiktok.com=http://127.0.0.1:4567`) to a local server instead; when set, no other host is fetched.
   */
  VIDEO_PLATFORM_ORIGINS: Type.Optional(Type.String()),
  /** An imported recipe's image is copied within this time (DNS, redirects and body), else the recipe has none. */
  IMPORT_IMAGE_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 5000 }),
  /** Chromium (about 630 MB in 9 processes) is closed after this long without a render, and relaunched on the next. */
  BROWSER_IDLE_CLOSE_MS: Type.Integer({ minimum: 10, maximum: 86_400_000, default: 60_000 }),
  /** Client-side analytics the web app may load (GET /api/analytics/config); unset: none. */
  ANALYTICS_PROVIDER: Type.Optional(Type.Union([Type.Literal('plausible'), Type.Literal('umami'), Type.Literal('matomo'), Type.Literal('google')])),
  ANALYTICS_SITE_ID: Type.Optional(Type.String({ maxLength: 200 })),
  ANALYTICS_HOST: Type.Optional(Type.String({ pattern: '^https://' })),
  /** How long a data-deletion request waits (and can be cancelled) before it is carried out; default 7 days, 0 in test. */
  DATA_DELETION_GRACE_SECONDS: Type.Optional(Type.Integer({ minimum: 0, maximum: 90 * 24 * 3600 })),
  VAPID_PUBLIC_KEY: Type.Optional(Type.String()),
  VAPID_PRIVATE_KEY: Type.Optional(Type.String()),
  VAPID_SUBJECT: Type.String({ pattern: '^(mailto:|https://)', default: 'mailto:admin@localhost' }),
  /**
   * Origins a Web Push subscription's endpoint may point to (`scheme://host[:port]`, `*.` host prefix, `*` port): the
   * known browser push services. The service POSTs to these endpoints, so anything else would be a request forger.
   */
  PUSH_SERVICE_ORIGINS: Type.String({
    default: 'https://fcm.googleapis.com,https://*.push.services.mozilla.com,https://web.push.apple.com,https://*.notify.windows.com,https://*.push.apple.com'
  }),
  /** First retry of a failed job after this many seconds, doubling each time (pg-boss backoff). */
  JOB_RETRY_DELAY_SECONDS: Type.Integer({ minimum: 1, maximum: 3600, default: 15 }),
  /**
   * On SIGTERM, how long the instance keeps serving (readiness 503, `Connection: close` on every answer) before it
   * stops accepting: the time a load balancer needs to take it out of rotation.
   */
  SHUTDOWN_DRAIN_MS: Type.Integer({ minimum: 0, maximum: 60_000, default: 1500 }),
  /** Timed jobs (digest emails every minute, clean-ups); off only for tests that drive them with their own clock. */
  SCHEDULED_JOBS: Type.Boolean({ default: true }),
  LOG_LEVEL: Type.Union([
    Type.Literal('fatal'), Type.Literal('error'), Type.Literal('warn'), Type.Literal('info'),
    Type.Literal('debug'), Type.Literal('trace'), Type.Literal('silent')
  ], { default: 'info' })
})
type Env = Static<typeof EnvSchema>

export interface Config {
  nodeEnv: Env['NODE_ENV']
  isProduction: boolean
  port: number
  host: string
  bffPort: number
  dataDir: string
  /** Unset means the process runs an embedded PostgreSQL in `dataDir/pg`. */
  databaseUrl?: string
  dbPoolMax: number
  /** Bounds on database waits (milliseconds): plugins/external/db.ts. */
  dbTimeouts: { statementMs: number, lockMs: number, poolWaitMs: number, jobStatementMs: number }
  /** bcrypt cost of new password hashes (existing hashes verify at the cost they were made with). */
  bcryptCost: number
  /** PASSWORD_QUEUE_MAX: bcrypt work waiting for a thread, beyond which a request is refused (503). */
  passwordQueueMax: number
  redisUrl?: string
  cachePrefix: string
  jwtSecret: string
  adminJwtSecret: string
  /** Encrypts admins' TOTP secrets (lib/secret-box.ts); ADMIN_MFA_KEY, else ADMIN_JWT_SECRET. */
  adminMfaKey: string
  allowedOrigins: string[]
  /** Name of the web proxy's httpOnly session cookie. */
  authCookie: string
  trustProxy: string
  /** Requests per window; imports and AI generations per user and hour. */
  rateLimit: { globalMax: number, routerMax: number, authMax: number, windowMs: number, importsPerHour: number, aiPerHour: number }
  adminBootstrap?: { email: string, username: string, password: string }
  publicUrl: string
  /** The API's own public address (no trailing slash): links in emails point here. */
  apiPublicUrl: string
  oauthProviders: Record<string, OAuthProvider>
  mail: { smtpUrl?: string, from: string }
  storage: {
    driver: 'local' | 's3'
    localDir: string
    /** Base of stored files' URLs (no trailing slash). */
    publicUrl: string
    s3?: { endPoint: string, port?: number, useSSL: boolean, accessKey: string, secretKey: string, bucket: string, region: string }
  }
  ai: { baseUrl?: string, apiKey?: string, model: string, timeoutMs: number }
  chromiumPath?: string
  /** IMPORT_ALLOW_ORIGINS as `URL.origin` strings: loopback allowed for exactly these (lib/recipe-import/allowed-origins.ts). */
  importAllowOrigins: string[]
  /** IMPORT_IMAGE_TIMEOUT_MS: the bound on copying an imported recipe's image. */
  importImageTimeoutMs: number
  browserIdleCloseMs: number
  /**
   * The video import (lib/video-import): AI_TRANSCRIBE and its model, and VIDEO_PLATFORM_ORIGINS (tests) as
   * platform host -> `URL.origin` of the server that plays it.
   */
  videoImport: { transcribe: boolean, transcribeModel: string, platformOrigins: Record<string, string> }
  /** Web Push keys; both unset (production without VAPID_* set) means push is off. */
  vapid: { publicKey?: string, privateKey?: string, subject: string }
  jobs: { retryDelaySeconds: number, scheduled: boolean }
  dataDeletionGraceSeconds: number
  /** SHUTDOWN_DRAIN_MS: serving on after SIGTERM, for load balancers to notice. */
  shutdownDrainMs: number
  analytics: { provider?: 'plausible' | 'umami' | 'matomo' | 'google', siteId?: string, host?: string }
  /** PUSH_SERVICE_ORIGINS, split and trimmed. */
  pushServiceOrigins: string[]
  logLevel: Env['LOG_LEVEL']
}

export interface OAuthProvider { issuer: string, audience: string, jwksUrl: string }

export class ConfigError extends Error {
  override name = 'ConfigError'
}

const MIN_SECRET_LENGTH = 32

/** Secrets generated outside production, kept in DATA_DIR so they survive restarts. */
interface DevSecrets { jwtSecret: string, adminJwtSecret: string, [key: string]: string }

export async function readDevSecrets (dataDir: string): Promise<DevSecrets> {
  const file = path.join(dataDir, 'secrets.json')
  try {
    return JSON.parse(await readFile(file, 'utf8')) as DevSecrets
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
  const secrets: DevSecrets = {
    jwtSecret: randomBytes(48).toString('base64url'),
    adminJwtSecret: randomBytes(48).toString('base64url')
  }
  await mkdir(dataDir, { recursive: true })
  await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: 'wx' }).catch(async (err: NodeJS.ErrnoException) => {
    // Another process created it first: use theirs.
    if (err.code !== 'EEXIST') throw err
  })
  return JSON.parse(await readFile(file, 'utf8')) as DevSecrets
}

/** Stores an extra generated value (e.g. the embedded database password) next to the dev secrets. */
export async function devSecret (dataDir: string, key: string, make: () => string): Promise<string> {
  const secrets = await readDevSecrets(dataDir)
  if (secrets[key] != null) return secrets[key]
  secrets[key] = make()
  await writeFile(path.join(dataDir, 'secrets.json'), JSON.stringify(secrets, null, 2), { mode: 0o600 })
  return secrets[key]
}

/** VAPID keys go in pairs; outside production a pair is generated once and kept with the dev secrets. */
async function resolveVapid (env: Env, isProduction: boolean, dataDir: string): Promise<Config['vapid']> {
  const subject = env.VAPID_SUBJECT
  if ((env.VAPID_PUBLIC_KEY == null) !== (env.VAPID_PRIVATE_KEY == null)) {
    throw new ConfigError('Invalid configuration: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together')
  }
  if (env.VAPID_PUBLIC_KEY != null) return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject }
  if (isProduction) return { subject }
  const pair = JSON.parse(await devSecret(dataDir, 'vapidKeys', () => JSON.stringify(webPush.generateVAPIDKeys()))) as { publicKey: string, privateKey: string }
  return { ...pair, subject }
}

function firstError (err: unknown): string {
  const message = err instanceof Error ? err.message : String(err)
  return message.split('\n')[0].replace(/^env\/?/, '')
}

export async function loadConfig (source: NodeJS.ProcessEnv = process.env): Promise<Config> {
  // MINIO_* are accepted as aliases of S3_*, and S3_PUBLIC_URL/MINIO_PUBLIC_URL of STORAGE_PUBLIC_URL.
  const merged: Record<string, string | undefined> = { ...source }
  for (const key of ['ENDPOINT', 'PORT', 'USE_SSL', 'ACCESS_KEY', 'SECRET_KEY', 'BUCKET', 'REGION', 'PUBLIC_URL']) {
    if (merged[`S3_${key}`] == null && merged[`MINIO_${key}`] != null) merged[`S3_${key}`] = merged[`MINIO_${key}`]
  }
  merged.STORAGE_PUBLIC_URL ??= merged.S3_PUBLIC_URL
  // Empty strings mean "unset", as in most deployment tools.
  for (const key of Object.keys(merged)) if (merged[key] === '') delete merged[key]

  let env: Env
  try {
    env = envSchema<Env>({ schema: EnvSchema, data: merged, env: false, dotenv: false })
  } catch (err) {
    throw new ConfigError(`Invalid configuration: ${firstError(err)}`)
  }

  const isProduction = env.NODE_ENV === 'production'
  if (isProduction && env.BCRYPT_COST < MIN_PRODUCTION_BCRYPT_COST) {
    throw new ConfigError(`Invalid configuration: BCRYPT_COST must be at least ${MIN_PRODUCTION_BCRYPT_COST} in production (a cheaper hash is brute-forced from a leaked table in hours)`)
  }
  const dataDir = path.resolve(env.DATA_DIR)
  const secrets = await resolveSecrets(env, isProduction, dataDir)
  const bffPort = env.BFF_PORT ?? (env.PORT === 0 ? 0 : env.PORT + 1)

  // Local files are served by the API itself (GET /uploads/...).
  const storage: Config['storage'] = {
    driver: env.STORAGE_DRIVER,
    localDir: path.join(dataDir, 'uploads'),
    publicUrl: (env.STORAGE_PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '')
  }
  if (env.STORAGE_DRIVER === 'local' && isProduction && env.STORAGE_PUBLIC_URL == null) {
    // Stored rows keep full URLs: a localhost default would hand every client a URL it cannot reach.
    throw new ConfigError('Invalid configuration: STORAGE_PUBLIC_URL is required in production with local storage (the address clients load /uploads/... from)')
  }
  if (env.STORAGE_DRIVER === 's3') {
    if (env.S3_ENDPOINT == null || env.S3_ACCESS_KEY == null || env.S3_SECRET_KEY == null) {
      throw new ConfigError('Invalid configuration: STORAGE_DRIVER=s3 needs S3_ENDPOINT, S3_ACCESS_KEY and S3_SECRET_KEY')
    }
    storage.s3 = {
      endPoint: env.S3_ENDPOINT,
      port: env.S3_PORT,
      useSSL: env.S3_USE_SSL,
      accessKey: env.S3_ACCESS_KEY,
      secretKey: env.S3_SECRET_KEY,
      bucket: env.S3_BUCKET,
      region: env.S3_REGION
    }
    // Path-style bucket URL unless a CDN or public bucket address is configured.
    if (env.STORAGE_PUBLIC_URL == null) {
      const port = env.S3_PORT != null ? `:${env.S3_PORT}` : ''
      storage.publicUrl = `${env.S3_USE_SSL ? 'https' : 'http'}://${env.S3_ENDPOINT}${port}/${env.S3_BUCKET}`
    }
  }

  const bootstrap = [env.ADMIN_BOOTSTRAP_EMAIL, env.ADMIN_BOOTSTRAP_USERNAME, env.ADMIN_BOOTSTRAP_PASSWORD]
  if (bootstrap.some(v => v != null) && !bootstrap.every(v => v != null)) {
    throw new ConfigError('Invalid configuration: ADMIN_BOOTSTRAP_EMAIL, ADMIN_BOOTSTRAP_USERNAME and ADMIN_BOOTSTRAP_PASSWORD go together')
  }

  if (isProduction && env.SMTP_URL != null && env.API_PUBLIC_URL == null) {
    // Every notification email carries an unsubscribe link into the API: a localhost default would break them all.
    throw new ConfigError('Invalid configuration: API_PUBLIC_URL is required in production when SMTP_URL is set (unsubscribe links point to it)')
  }
  const vapid = await resolveVapid(env, isProduction, dataDir)

  // By default the proxy's own page, by either loopback name, so it works opened at the address the log prints.
  const allowedOrigins = (env.ALLOWED_ORIGINS ?? `http://localhost:${bffPort},http://127.0.0.1:${bffPort}`)
    .split(',').map(o => o.trim().replace(/\/$/, '')).filter(Boolean)
  for (const origin of allowedOrigins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) throw new ConfigError(`Invalid configuration: ALLOWED_ORIGINS entry "${origin}" is not an origin`)
  }

  return {
    oauthProviders: parseOAuthProviders(env.OAUTH_PROVIDERS),
    nodeEnv: env.NODE_ENV,
    isProduction,
    port: env.PORT,
    host: env.HOST,
    bffPort,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    dbPoolMax: env.DB_POOL_MAX,
    dbTimeouts: {
      statementMs: env.DB_STATEMENT_TIMEOUT_MS,
      lockMs: env.DB_LOCK_TIMEOUT_MS,
      poolWaitMs: env.DB_POOL_WAIT_MS,
      jobStatementMs: env.DB_JOB_STATEMENT_TIMEOUT_MS
    },
    bcryptCost: env.BCRYPT_COST,
    passwordQueueMax: env.PASSWORD_QUEUE_MAX,
    redisUrl: env.REDIS_URL,
    cachePrefix: env.CACHE_PREFIX,
    ...secrets,
    adminMfaKey: env.ADMIN_MFA_KEY ?? secrets.adminJwtSecret,
    allowedOrigins,
    authCookie: env.AUTH_COOKIE,
    trustProxy: env.TRUST_PROXY,
    rateLimit: {
      globalMax: env.RATE_LIMIT_GLOBAL_MAX,
      routerMax: env.RATE_LIMIT_ROUTER_MAX,
      authMax: env.RATE_LIMIT_AUTH_MAX,
      windowMs: env.RATE_LIMIT_WINDOW_MS,
      importsPerHour: env.RATE_LIMIT_IMPORTS_PER_HOUR,
      aiPerHour: env.RATE_LIMIT_AI_PER_HOUR
    },
    adminBootstrap: env.ADMIN_BOOTSTRAP_EMAIL != null
      ? { email: env.ADMIN_BOOTSTRAP_EMAIL, username: env.ADMIN_BOOTSTRAP_USERNAME!, password: env.ADMIN_BOOTSTRAP_PASSWORD! }
      : undefined,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${bffPort}`).replace(/\/$/, ''),
    apiPublicUrl: (env.API_PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM },
    storage,
    ai: { baseUrl: env.AI_BASE_URL, apiKey: env.AI_API_KEY, model: env.AI_MODEL, timeoutMs: env.AI_TIMEOUT_MS },
    chromiumPath: env.CHROMIUM_PATH,
    importAllowOrigins: parseImportOrigins(env.IMPORT_ALLOW_ORIGINS),
    importImageTimeoutMs: env.IMPORT_IMAGE_TIMEOUT_MS,
    browserIdleCloseMs: env.BROWSER_IDLE_CLOSE_MS,
    videoImport: { transcribe: env.AI_TRANSCRIBE, transcribeModel: env.AI_TRANSCRIBE_MODEL, platformOrigins: videoPlatformOrigins(env.VIDEO_PLATFORM_ORIGINS, isProduction) },
    vapid,
    jobs: { retryDelaySeconds: env.JOB_RETRY_DELAY_SECONDS, scheduled: env.SCHEDULED_JOBS },
    analytics: { provider: env.ANALYTICS_PROVIDER, siteId: env.ANALYTICS_SITE_ID, host: env.ANALYTICS_HOST },
    dataDeletionGraceSeconds: env.DATA_DELETION_GRACE_SECONDS ?? (env.NODE_ENV === 'test' ? 0 : 7 * 24 * 3600),
    shutdownDrainMs: env.SHUTDOWN_DRAIN_MS,
    pushServiceOrigins: env.PUSH_SERVICE_ORIGINS.split(',').map(o => o.trim()).filter(Boolean),
    logLevel: env.LOG_LEVEL
  }
}

/** Each entry must be exactly one origin, `scheme://host:port`: anything wider or malformed stops the start. */
function parseImportOrigins (raw: string | undefined): string[] {
  const entries = (raw ?? '').split(',').map(entry => entry.trim()).filter(entry => entry !== '')
  return entries.map(entry => {
    const origin = exactOrigin(entry)
    if (origin == null) throw new ConfigError(`Invalid configuration: IMPORT_ALLOW_ORIGINS entry "${entry}" is not an origin (scheme://host:port)`)
    return origin
  })
}

/** VIDEO_PLATFORM_ORIGINS: each entry a platform host and exactly one origin; never in production. */
function videoPlatformOrigins (raw: string | undefined, isProduction: boolean): Record<string, string> {
  if (raw == null) return {}
  if (isProduction) throw new ConfigError('Invalid configuration: VIDEO_PLATFORM_ORIGINS is for tests only and refused in production')
  const parsed = parsePlatformOrigins(raw)
  if (typeof parsed === 'string') throw new ConfigError(`Invalid configuration: VIDEO_PLATFORM_ORIGINS ${parsed}`)
  return parsed
}

function parseOAuthProviders (raw: string | undefined): Record<string, OAuthProvider> {
  if (raw == null) return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    throw new ConfigError('Invalid configuration: OAUTH_PROVIDERS must be JSON')
  }
  if (parsed == null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError('Invalid configuration: OAUTH_PROVIDERS must be an object of providers')
  }
  const providers: Record<string, OAuthProvider> = {}
  for (const [name, value] of Object.entries(parsed as Record<string, Partial<OAuthProvider>>)) {
    const { issuer, audience, jwksUrl } = value ?? {}
    if (!/^[a-z0-9_-]{1,40}$/.test(name) || typeof issuer !== 'string' || typeof audience !== 'string' ||
      typeof jwksUrl !== 'string' || !/^https?:\/\//.test(jwksUrl)) {
      throw new ConfigError(`Invalid configuration: OAUTH_PROVIDERS.${name} needs issuer, audience and an http(s) jwksUrl`)
    }
    providers[name] = { issuer, audience, jwksUrl }
  }
  return providers
}

async function resolveSecrets (env: Env, isProduction: boolean, dataDir: string): Promise<{ jwtSecret: string, adminJwtSecret: string }> {
  for (const name of ['JWT_SECRET', 'ADMIN_JWT_SECRET'] as const) {
    const value = env[name]
    if (value == null && isProduction) throw new ConfigError(`Invalid configuration: ${name} is required in production`)
    if (value != null && value.length < MIN_SECRET_LENGTH) {
      throw new ConfigError(`Invalid configuration: ${name} must be at least ${MIN_SECRET_LENGTH} characters`)
    }
  }
  let jwtSecret = env.JWT_SECRET
  let adminJwtSecret = env.ADMIN_JWT_SECRET
  if (jwtSecret == null || adminJwtSecret == null) {
    const generated = await readDevSecrets(dataDir)
    jwtSecret ??= generated.jwtSecret
    adminJwtSecret ??= generated.adminJwtSecret
  }
  if (jwtSecret === adminJwtSecret) throw new ConfigError('Invalid configuration: ADMIN_JWT_SECRET must differ from JWT_SECRET')
  return { jwtSecret, adminJwtSecret }
}
