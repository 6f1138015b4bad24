// Both storage drivers against one contract: the local driver on a temporary directory, the S3 driver against a real
// S3-protocol server (s3rver) on loopback.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { Client } from 'minio'
import t, { type Test } from 'tap'
import { IMMUTABLE_CACHE, localStorage, s3Storage, STORAGE_KEY, type S3Settings, type Storage } from '../../lib/storage.js'

// s3rver ships no types: the little of it used here.
interface S3rverInstance { run: () => Promise<AddressInfo>, close: () => Promise<void> }
type S3rverClass = new (options: { port: number, address: string, silent: boolean, directory: string, configureBuckets: Array<{ name: string }> }) => S3rverInstance
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass

const BUCKET = 'recipes'

function tempDir (t: Test, prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** An s3rver on a free loopback port, closed when `t` ends; `buckets` exist from the start. */
async function startS3 (t: Test, buckets: string[] = [BUCKET]): Promise<{ port: number, settings: S3Settings, publicUrl: string, client: Client }> {
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: tempDir(t, 'recipes-s3rver-'), configureBuckets: buckets.map(name => ({ name })) })
  const { port } = await server.run()
  t.teardown(async () => await server.close())
  const settings: S3Settings = { endPoint: '127.0.0.1', port, useSSL: false, accessKey: 'S3RVER', secretKey: 'S3RVER', bucket: BUCKET, region: 'us-east-1' }
  const client = new Client({ ...settings, pathStyle: true })
  return { port, settings, publicUrl: `http://127.0.0.1:${port}/${BUCKET}`, client }
}

/** A loopback port nothing listens on. */
async function closedPort (): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}

async function bytesOf (body: Readable | Buffer): Promise<Buffer> {
  if (Buffer.isBuffer(body)) return body
  const chunks: Buffer[] = []
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Buffer))
  return Buffer.concat(chunks)
}

/** Distinct, non-text bytes (every byte value, so nothing is mangled by an encoding on the way). */
function payload (seed: number, length = 70_000): Buffer {
  const data = Buffer.alloc(length)
  for (let i = 0; i < length; i++) data[i] = (i * 31 + seed * 17 + (i >> 8)) & 0xff
  return data
}

const INVALID_KEYS = [
  'uploads/../x.webp',
  'uploads/a/../../x.webp',
  'uploads/a/b.png',
  'uploads/a/b.webp/..',
  'uploads/a/..webp',
  'uploads/../../etc/passwd.webp',
  'uploads/a/b/c.webp',
  'uploads//b.webp',
  'uploads/a/.webp',
  'uploads/a\\..\\b.webp',
  'uploads/a/b%2e.webp',
  'uploads/a/b.webp\n',
  'uploads/a/b.webp\u0000',
  'uploads/a/b.WEBP',
  '/etc/passwd',
  '/uploads/a/b.webp',
  '/tmp/uploads/a/b.webp',
  'a/b.webp',
  'other/a/b.webp',
  `uploads/${'a'.repeat(65)}/b.webp`,
  ''
]

interface Driver {
  storage: Storage
  publicUrl: string
  /** The stored object's bytes as the backend holds them, or null when it has none. */
  raw: (key: string) => Promise<Buffer | null>
  /** Every object the backend holds, as keys. */
  objects: () => Promise<string[]>
}

/** The contract both drivers keep. */
function contract (name: string, setup: (t: Test) => Promise<Driver>): void {
  t.test(`${name}: put then get returns the same bytes, size and content type`, async t => {
    const { storage, raw } = await setup(t)
    const key = 'uploads/user_1/file-1.webp'
    const data = payload(1)
    await storage.put(key, data, 'image/webp')
    const file = await storage.get(key)
    t.ok(file, 'found')
    t.equal(file!.size, data.length, 'size')
    t.equal(file!.contentType, 'image/webp', 'content type')
    t.same(await bytesOf(file!.body), data, 'the same bytes')
    t.same(await raw(key), data, 'the backend holds exactly those bytes')

    // Another key is another object; writing a key again replaces its bytes.
    const other = payload(2, 10)
    await storage.put('uploads/user_1/file-2.webp', other, 'image/webp')
    t.same(await bytesOf((await storage.get('uploads/user_1/file-2.webp'))!.body), other)
    t.same(await bytesOf((await storage.get(key))!.body), data, 'the first file is untouched')
    const replaced = payload(3, 500)
    await storage.put(key, replaced, 'image/webp')
    const again = await storage.get(key)
    t.equal(again!.size, 500)
    t.same(await bytesOf(again!.body), replaced)
  })

  t.test(`${name}: get of a missing key is null`, async t => {
    const { storage } = await setup(t)
    t.equal(await storage.get('uploads/nobody/nothing.webp'), null)
    await storage.put('uploads/someone/there.webp', payload(4, 100), 'image/webp')
    t.equal(await storage.get('uploads/someone/missing.webp'), null, 'a missing file beside a stored one')
    t.same(await bytesOf((await storage.get('uploads/someone/there.webp'))!.body), payload(4, 100))
  })

  t.test(`${name}: remove deletes; removing a missing key is not an error`, async t => {
    const { storage, raw } = await setup(t)
    const key = 'uploads/u-2/gone.webp'
    const kept = 'uploads/u-2/kept.webp'
    await storage.put(key, payload(5, 1000), 'image/webp')
    await storage.put(kept, payload(6, 1000), 'image/webp')
    await storage.remove(key)
    t.equal(await storage.get(key), null, 'gone')
    t.equal(await raw(key), null, 'gone from the backend')
    t.same(await raw(kept), payload(6, 1000), 'the other file stays')
    await t.resolves(storage.remove(key), 'removing it again')
    await t.resolves(storage.remove('uploads/never/existed.webp'), 'removing a key never written')
  })

  t.test(`${name}: url and keyOf`, async t => {
    const { storage, publicUrl } = await setup(t)
    const key = 'uploads/user_1/abc-DEF_123.webp'
    t.equal(storage.url(key), `${publicUrl}/${key}`)
    t.equal(storage.keyOf(storage.url(key)), key, 'keyOf inverts url')
    t.equal(storage.keyOf(`${publicUrl}/${key}`), key)
    const foreign = [
      `https://evil.example/${key}`,
      `https://evil.example/?u=${publicUrl}/${key}`,
      `${publicUrl}0/${key}`,
      `${publicUrl}.evil.example/${key}`,
      `${publicUrl}/${key}?x=1`,
      `${publicUrl}/${key}#top`,
      `${publicUrl}//${key}`,
      `${publicUrl}/uploads/../uploads/user_1/abc.webp`,
      `${publicUrl}/uploads/user_1/../abc.webp`,
      `${publicUrl}/uploads/user_1/%2e%2e/abc.webp`,
      `${publicUrl}/uploads/user_1/abc.png`,
      `${publicUrl}/uploads/user_1/sub/abc.webp`,
      `${publicUrl}/`,
      publicUrl,
      key,
      ''
    ]
    for (const url of foreign) t.equal(storage.keyOf(url), null, `not ours: ${JSON.stringify(url)}`)
  })

  t.test(`${name}: locate canonicalises before deciding`, async t => {
    const { storage, publicUrl } = await setup(t)
    const key = 'uploads/user_1/abc-DEF_123.webp'
    const base = new URL(publicUrl)
    const sameFile = [
      storage.url(key),
      `${publicUrl}/${key}?x=1`,
      `${publicUrl}/${key}#top`,
      `${publicUrl}//${key}`,
      `${publicUrl}/uploads//user_1/abc-DEF_123.webp`,
      `${publicUrl}/uploads/other/../user_1/abc-DEF_123.webp`,
      `${publicUrl}/uploads/user_1/%61bc-DEF_123.webp`,
      `${base.protocol}//${base.host.toUpperCase()}${base.pathname}/${key}`
    ]
    for (const url of sameFile) t.same(storage.locate(url), { key }, `names the file: ${JSON.stringify(url)}`)
    // Under the uploads folder but no valid key: still ours, so never an "outside" image.
    for (const url of [`${publicUrl}/uploads/user_1/abc.png`, `${publicUrl}/uploads/`, `${publicUrl}/uploads`, `${publicUrl}/uploads/user_1/%2e%2e/x.webp`]) {
      t.same(storage.locate(url), { key: null }, `under storage, no key: ${JSON.stringify(url)}`)
    }
    for (const url of [`https://evil.example/${key}`, `${publicUrl}0/${key}`, `${publicUrl}/uploadsx/${key}`, 'not a url', key, '']) {
      t.equal(storage.locate(url), null, `not under storage: ${JSON.stringify(url)}`)
    }
  })

  t.test(`${name}: an invalid key throws before the backend is touched`, async t => {
    const { storage, objects } = await setup(t)
    await storage.put('uploads/x/kept.webp', payload(7, 10), 'image/webp')
    for (const key of INVALID_KEYS) {
      t.notOk(STORAGE_KEY.test(key), `${JSON.stringify(key)} is not a storage key`)
      await t.rejects(storage.put(key, payload(7, 10), 'image/webp'), /invalid storage key/, `put ${JSON.stringify(key)}`)
      await t.rejects(storage.get(key), /invalid storage key/, `get ${JSON.stringify(key)}`)
      await t.rejects(storage.remove(key), /invalid storage key/, `remove ${JSON.stringify(key)}`)
    }
    t.same(await objects(), ['uploads/x/kept.webp'], 'nothing written or removed')
  })

  t.test(`${name}: check passes`, async t => {
    const { storage } = await setup(t)
    await t.resolves(storage.check())
    await t.resolves(storage.check(), 'and again')
  })
}

// Local driver.

/** Every file under `dir`, relative to it. */
const filesUnder = (dir: string) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(f => statSync(path.join(dir, f)).isFile()).sort()

function localDriver (t: Test): Driver {
  const dir = path.join(tempDir(t, 'recipes-storage-'), 'uploads')
  const publicUrl = 'http://localhost:3000'
  return {
    storage: localStorage(dir, publicUrl),
    publicUrl,
    raw: async key => await readFile(path.join(dir, key.slice('uploads/'.length))).catch(() => null),
    objects: async () => existsSync(dir) ? filesUnder(dir).map(f => `uploads/${f}`) : []
  }
}

contract('local', async t => localDriver(t))

t.test('local: the file lands at <dir>/<userId>/<id>.webp, and no .partial file stays behind', async t => {
  const root = tempDir(t, 'recipes-storage-')
  const dir = path.join(root, 'uploads')
  const storage = localStorage(dir, 'http://localhost:3000')
  const data = payload(8)
  await storage.put('uploads/user_7/img-1.webp', data, 'image/webp')
  t.same(await readFile(path.join(dir, 'user_7', 'img-1.webp')), data)
  // Concurrent writes of one key, and of many keys: each reader sees a whole file; nothing half-written remains.
  const versions = Array.from({ length: 8 }, (_, i) => payload(100 + i, 50_000 + i))
  await Promise.all([
    ...versions.map(async v => { await storage.put('uploads/user_7/img-2.webp', v, 'image/webp') }),
    ...Array.from({ length: 8 }, async (_, i) => { await storage.put(`uploads/user_8/img-${i}.webp`, payload(200 + i, 1000), 'image/webp') })
  ])
  const stored = await readFile(path.join(dir, 'user_7', 'img-2.webp'))
  t.ok(versions.some(v => v.equals(stored)), 'img-2 is one whole version')
  t.same(filesUnder(root), [
    'uploads/user_7/img-1.webp', 'uploads/user_7/img-2.webp',
    ...Array.from({ length: 8 }, (_, i) => `uploads/user_8/img-${i}.webp`).sort()
  ], 'only the stored files, no .partial')
})

t.test('local: a failed write leaves no .partial file behind', async t => {
  const root = tempDir(t, 'recipes-storage-')
  const dir = path.join(root, 'uploads')
  const storage = localStorage(dir, 'http://localhost:3000')
  // A directory where the file should go: the rename fails after the partial file was written.
  await storage.put('uploads/user_9/a.webp', payload(9, 10), 'image/webp')
  mkdirSync(path.join(dir, 'user_9', 'b.webp', 'inside'), { recursive: true })
  await t.rejects(storage.put('uploads/user_9/b.webp', payload(10, 10), 'image/webp'))
  t.same(filesUnder(root), ['uploads/user_9/a.webp'], 'no .partial file')
})

t.test('local: invalid keys reach no file outside (or inside) the directory', async t => {
  const root = tempDir(t, 'recipes-storage-')
  const dir = path.join(root, 'uploads')
  const storage = localStorage(dir, 'http://localhost:3000/')
  t.equal(storage.url('uploads/a/b.webp'), 'http://localhost:3000/uploads/a/b.webp', 'a trailing slash on the public URL is not doubled')
  for (const key of INVALID_KEYS) await t.rejects(storage.put(key, payload(11, 10), 'image/webp'), /invalid storage key/)
  t.same(readdirSync(root), [], 'not even the uploads directory was created')
})

t.test('local: check creates the directory and fails when it cannot be written', async t => {
  const root = tempDir(t, 'recipes-storage-')
  const dir = path.join(root, 'nested', 'uploads')
  await localStorage(dir, 'http://localhost:3000').check()
  t.ok(statSync(dir).isDirectory(), 'created')
  // A file where the directory should be.
  writeFileSync(path.join(root, 'file'), '')
  await t.rejects(localStorage(path.join(root, 'file', 'uploads'), 'http://localhost:3000').check())
})

// S3 driver.

contract('s3', async t => {
  const { settings, publicUrl, client } = await startS3(t)
  return {
    storage: s3Storage(settings, publicUrl),
    publicUrl,
    raw: async key => {
      try {
        return await bytesOf(await client.getObject(BUCKET, key))
      } catch (err) {
        if ((err as { code?: string }).code === 'NoSuchKey') return null
        throw err
      }
    },
    objects: async () => {
      const keys: string[] = []
      for await (const item of client.listObjectsV2(BUCKET, '', true)) keys.push((item as { name: string }).name)
      return keys.sort()
    }
  }
})

t.test('s3: the stored object is public at its URL with its type and immutable caching', async t => {
  const { settings, publicUrl } = await startS3(t)
  const storage = s3Storage(settings, publicUrl)
  const key = 'uploads/user_1/public.webp'
  const data = payload(12)
  await storage.put(key, data, 'image/webp')
  const response = await fetch(storage.url(key))
  t.equal(response.status, 200)
  t.equal(response.headers.get('content-type'), 'image/webp')
  t.equal(response.headers.get('cache-control'), IMMUTABLE_CACHE)
  t.same(Buffer.from(await response.arrayBuffer()), data)
})

t.test('s3: a bucket that does not exist yet is created on first put', async t => {
  const { settings, publicUrl, client } = await startS3(t, [])
  t.equal(await client.bucketExists(BUCKET), false, 'no bucket at first')
  const storage = s3Storage(settings, publicUrl)
  // Several first writes at once share the one creation.
  const keys = Array.from({ length: 5 }, (_, i) => `uploads/first/f${i}.webp`)
  await Promise.all(keys.map(async (key, i) => { await storage.put(key, payload(20 + i, 100), 'image/webp') }))
  t.equal(await client.bucketExists(BUCKET), true, 'created')
  for (const [i, key] of keys.entries()) t.same(await bytesOf((await storage.get(key))!.body), payload(20 + i, 100), key)
  // Another instance finds the bucket there.
  const other = s3Storage(settings, publicUrl)
  await other.put('uploads/second/s.webp', payload(30, 10), 'image/webp')
  t.same(await bytesOf((await other.get('uploads/first/f0.webp'))!.body), payload(20, 100))
})

t.test('s3: check creates a missing bucket', async t => {
  const { settings, publicUrl, client } = await startS3(t, [])
  await t.resolves(s3Storage(settings, publicUrl).check())
  t.equal(await client.bucketExists(BUCKET), true)
})

t.test('s3: an invalid key touches no bucket', async t => {
  const { settings, publicUrl, client } = await startS3(t, [])
  const storage = s3Storage(settings, publicUrl)
  for (const key of INVALID_KEYS) await t.rejects(storage.put(key, payload(31, 10), 'image/webp'), /invalid storage key/)
  t.equal(await client.bucketExists(BUCKET), false, 'the bucket was not even created')
  // Nothing is sent at all: against an unreachable endpoint the error is still the key's, not the connection's.
  const unreachable = s3Storage({ ...settings, port: await closedPort() }, publicUrl)
  for (const key of INVALID_KEYS) {
    await t.rejects(unreachable.put(key, payload(32, 10), 'image/webp'), /invalid storage key/)
    await t.rejects(unreachable.get(key), /invalid storage key/)
    await t.rejects(unreachable.remove(key), /invalid storage key/)
  }
})

t.test('s3: check fails when the endpoint is unreachable, and passes once it answers', async t => {
  const { settings, publicUrl } = await startS3(t)
  await t.rejects(s3Storage({ ...settings, port: 1 }, publicUrl).check(), 'port 1')
  // A failed bucket check is not remembered: the same storage passes once its endpoint is up.
  const port = await closedPort()
  const storage = s3Storage({ ...settings, port }, publicUrl)
  await t.rejects(storage.check(), 'a closed port')
  await t.rejects(storage.check(), 'still closed')
  await t.rejects(storage.put('uploads/a/b.webp', payload(33, 10), 'image/webp'), /ECONNREFUSED/, 'writes fail too')
  const late = new S3rver({ port, address: '127.0.0.1', silent: true, directory: tempDir(t, 'recipes-s3rver-'), configureBuckets: [] })
  await late.run()
  t.teardown(async () => await late.close())
  await t.resolves(storage.check(), 'up now')
  await storage.put('uploads/a/b.webp', payload(33, 10), 'image/webp')
  t.same(await bytesOf((await storage.get('uploads/a/b.webp'))!.body), payload(33, 10))
})

t.test('s3: check asks the endpoint every time (readiness sees an outage after a success)', async t => {
  const port = await closedPort()
  const server = new S3rver({ port, address: '127.0.0.1', silent: true, directory: tempDir(t, 'recipes-s3rver-'), configureBuckets: [{ name: BUCKET }] })
  await server.run()
  const settings: S3Settings = { endPoint: '127.0.0.1', port, useSSL: false, accessKey: 'S3RVER', secretKey: 'S3RVER', bucket: BUCKET, region: 'us-east-1' }
  const storage = s3Storage(settings, `http://127.0.0.1:${port}/${BUCKET}`)
  await t.resolves(storage.check(), 'up')
  await server.close()
  await t.rejects(storage.check(), 'down: the earlier success is not reused')
})
