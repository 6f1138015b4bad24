// Object storage for uploaded files: a local directory (the default) or an S3-compatible service through the
// `minio` client. Keys look like `uploads/<userId>/<id>.webp`; a file's public URL is `<publicUrl>/<key>`.
import { randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import type { Client } from 'minio'

/** The only keys storage reads or writes: no traversal, no surprises in a file name. */
export const STORAGE_KEY = /^uploads\/[A-Za-z0-9_-]{1,64}\/[A-Za-z0-9_-]{1,64}\.webp$/

/** Stored files never change (each key is a fresh id), so caches may keep them for a year. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable'

/** A stored file: local files are small (at most 2048 px WebP) and read whole; S3 objects stream. */
export interface StoredFile { body: Readable | Buffer, size: number, contentType: string }

export interface Storage {
  readonly driver: 'local' | 's3'
  put: (key: string, data: Buffer, contentType: string) => Promise<void>
  /** The file, or null when there is none. */
  get: (key: string) => Promise<StoredFile | null>
  /** Removes the file; a missing file is not an error. */
  remove: (key: string) => Promise<void>
  /** Throws when the backend cannot be written to (readiness). */
  check: () => Promise<void>
  /** The public URL of a key. */
  url: (key: string) => string
  /** The key behind one of our URLs, or null for any other URL. */
  keyOf: (url: string) => string | null
  /**
   * Whether a URL points into storage once parsed and canonicalised (host case, default port, escapes, `//`, dot
   * segments): `{ key }` names the file it reaches (null when no valid key), null when the URL is not under the base.
   * `keyOf` is exact; this decides whether an outside-looking URL is really one of our files (`?x=1`, `/uploads//…`).
   */
  locate: (url: string) => { key: string | null } | null
}

export interface S3Settings { endPoint: string, port?: number, useSSL: boolean, accessKey: string, secretKey: string, bucket: string, region: string }

function assertKey (key: string): void {
  if (!STORAGE_KEY.test(key)) throw new Error(`invalid storage key ${JSON.stringify(key)}`)
}

function urls (publicUrl: string): Pick<Storage, 'url' | 'keyOf' | 'locate'> {
  const base = publicUrl.replace(/\/+$/, '') + '/'
  const { origin, pathname } = new URL(base)
  const root = `${pathname}uploads`
  return {
    url: key => base + key,
    keyOf: url => {
      if (!url.startsWith(base)) return null
      const key = url.slice(base.length)
      return STORAGE_KEY.test(key) ? key : null
    },
    locate: value => {
      let url: URL
      try {
        url = new URL(value)
      } catch {
        return null
      }
      if (url.origin !== origin) return null
      let decoded = url.pathname
      try {
        decoded = decodeURIComponent(decoded)
      } catch {}
      const canonical = path.posix.normalize(decoded)
      if (canonical !== root && !canonical.startsWith(`${root}/`)) return null
      const key = canonical.slice(pathname.length)
      return { key: STORAGE_KEY.test(key) ? key : null }
    }
  }
}

/** Files under `dir` (DATA_DIR/uploads): `uploads/<userId>/<id>.webp` is `<dir>/<userId>/<id>.webp`. */
export function localStorage (dir: string, publicUrl: string): Storage {
  const fileOf = (key: string) => {
    assertKey(key)
    return path.join(dir, key.slice('uploads/'.length))
  }
  return {
    driver: 'local',
    ...urls(publicUrl),
    async put (key, data) {
      const file = fileOf(key)
      await mkdir(path.dirname(file), { recursive: true })
      // Written aside, then renamed: a reader never sees half a file.
      const partial = `${file}.${randomBytes(6).toString('hex')}.partial`
      try {
        await writeFile(partial, data, { flag: 'wx' })
        await rename(partial, file)
      } catch (err) {
        await rm(partial, { force: true })
        throw err
      }
    },
    async get (key) {
      const file = fileOf(key)
      try {
        // One read: no stat-then-open race with a delete, and fewer system calls than a stream for files this size.
        const body = await readFile(file)
        return { body, size: body.length, contentType: 'image/webp' }
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw err
      }
    },
    async remove (key) {
      await unlink(fileOf(key)).catch((err: NodeJS.ErrnoException) => { if (err.code !== 'ENOENT') throw err })
    },
    async check () {
      // A write, not a permission check: a full disk is writable by permissions and fails every upload.
      await mkdir(dir, { recursive: true })
      const probe = path.join(dir, `.ready-${randomBytes(6).toString('hex')}`)
      try {
        await writeFile(probe, 'ok', { flag: 'wx' })
      } finally {
        await rm(probe, { force: true })
      }
    }
  }
}

/**
 * Whether a write failed because the storage is full: no space on the disk or over a quota (local), or the object
 * store says so (MinIO's XMinioStorageFull, S3-compatible quota codes).
 */
export function isStorageFull (err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return typeof code === 'string' && STORAGE_FULL.has(code)
}
const STORAGE_FULL = new Set(['ENOSPC', 'EDQUOT', 'XMinioStorageFull', 'XMinioAdminBucketQuotaExceeded', 'QuotaExceeded', 'StorageFull'])

/** How long a successful probe write to the object store vouches for it (readiness is polled every second or so). */
const PROBE_EVERY_MS = 10_000

const isMissing = (err: unknown) => ['NotFound', 'NoSuchKey'].includes((err as { code?: string }).code ?? '')

/** An S3-compatible bucket (AWS S3, MinIO...), created on first use when it does not exist. */
export function s3Storage (settings: S3Settings, publicUrl: string): Storage {
  const { bucket, region } = settings
  // minio is loaded with the first S3 call: an instance on local storage never needs its ~35 MB.
  let loaded: Promise<Client> | null = null
  /** When a probe write last succeeded (readiness). */
  let lastWriteOk = 0
  const client = async (): Promise<Client> => await (loaded ??= import('minio').then(({ Client }) => new Client({
    endPoint: settings.endPoint,
    port: settings.port,
    useSSL: settings.useSSL,
    accessKey: settings.accessKey,
    secretKey: settings.secretKey,
    region,
    pathStyle: true
  })))
  let bucketReady: Promise<void> | null = null
  const ensureBucket = async () => {
    bucketReady ??= (async () => {
      const s3 = await client()
      if (!await s3.bucketExists(bucket)) {
        await s3.makeBucket(bucket, region).catch(async err => {
          // Another instance made it first.
          if (!await s3.bucketExists(bucket)) throw err
        })
      }
    })().catch(err => { bucketReady = null; throw err })
    await bucketReady
  }
  return {
    driver: 's3',
    ...urls(publicUrl),
    async put (key, data, contentType) {
      assertKey(key)
      await ensureBucket()
      // The size is always given: a known-length single PUT, no multipart upload.
      const s3 = await client()
      await s3.putObject(bucket, key, data, data.length, { 'Content-Type': contentType, 'Cache-Control': IMMUTABLE_CACHE })
    },
    async get (key) {
      assertKey(key)
      const s3 = await client()
      try {
        const info = await s3.statObject(bucket, key)
        const body = await s3.getObject(bucket, key)
        return { body, size: info.size, contentType: String(info.metaData['content-type'] ?? 'image/webp') }
      } catch (err) {
        if (isMissing(err)) return null
        throw err
      }
    },
    async remove (key) {
      assertKey(key)
      const s3 = await client()
      await s3.removeObject(bucket, key).catch(err => { if (!isMissing(err)) throw err })
    },
    async check () {
      // Asks the backend every time (readiness), creating the bucket if it has gone; and writes a probe object at
      // most every PROBE_EVERY_MS (a full or over-quota store still lists its bucket; writes cost money on S3).
      const s3 = await client()
      if (!await s3.bucketExists(bucket)) {
        bucketReady = null
        await ensureBucket()
      }
      if (Date.now() - lastWriteOk < PROBE_EVERY_MS) return
      const probe = `.ready/${randomBytes(6).toString('hex')}`
      await s3.putObject(bucket, probe, Buffer.from('ok'), 2)
      await s3.removeObject(bucket, probe).catch(() => {})
      lastWriteOk = Date.now()
    }
  }
}
