// Uploads with STORAGE_DRIVER=s3, against a real S3-protocol server (s3rver) on loopback: the file goes to the
// bucket, its URL is the bucket's, the API reads through to it, and an unreachable bucket is a 503 with no row left.
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import t, { type Test } from 'tap'
import { IMMUTABLE_CACHE } from '../../../../lib/storage.js'
import { bearer, build, fileForm, json, pngImage, registerUser } from '../../../helper.js'

// s3rver ships no types: the little of it used here.
interface S3rverInstance { run: () => Promise<AddressInfo>, close: () => Promise<void> }
type S3rverClass = new (options: { port: number, address: string, silent: boolean, directory: string, configureBuckets: Array<{ name: string }> }) => S3rverInstance
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass

const BUCKET = 'recipes'

async function startS3 (t: Test): Promise<number> {
  const directory = mkdtempSync(path.join(tmpdir(), 'recipes-s3rver-'))
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: BUCKET }] })
  const { port } = await server.run()
  t.teardown(async () => {
    await server.close()
    rmSync(directory, { recursive: true, force: true })
  })
  return port
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

const s3Env = (port: number) => ({
  STORAGE_DRIVER: 's3',
  S3_ENDPOINT: '127.0.0.1',
  S3_PORT: String(port),
  S3_USE_SSL: 'false',
  S3_ACCESS_KEY: 'S3RVER',
  S3_SECRET_KEY: 'S3RVER',
  S3_BUCKET: BUCKET
})

t.test('an upload is stored in the bucket, served from it and through the API, and deleted from it', async t => {
  const port = await startS3(t)
  const app = await build(t, { env: s3Env(port) })
  t.equal(app.storage.driver, 's3')
  const ann = await registerUser(app)
  const form = fileForm('image', await pngImage(300, 200, '#16a085'), 'image/png')
  const res = await app.inject({ method: 'POST', url: '/api/upload/image', headers: { ...bearer(ann), ...form.headers }, payload: form.payload })
  t.equal(res.statusCode, 201, res.body)
  const upload = json(res)
  t.match(upload.key, new RegExp(`^uploads/${ann.id}/[A-Za-z0-9_-]+\\.webp$`))
  t.equal(upload.url, `http://127.0.0.1:${port}/${BUCKET}/${upload.key}`, 'a path-style bucket URL')
  t.same([upload.width, upload.height, upload.contentType], [300, 200, 'image/webp'])

  // Straight from the bucket, as a browser would fetch it.
  const fromBucket = await fetch(upload.url)
  t.equal(fromBucket.status, 200)
  t.equal(fromBucket.headers.get('content-type'), 'image/webp')
  t.equal(fromBucket.headers.get('cache-control'), IMMUTABLE_CACHE)
  const bytes = Buffer.from(await fromBucket.arrayBuffer())
  t.equal(bytes.length, upload.size, 'the stored size')
  const meta = await sharp(bytes).metadata()
  t.same([meta.format, meta.width, meta.height], ['webp', upload.width, upload.height], 'a WebP of the answered size')

  // Through the API's own file route, which reads through to the bucket.
  const fileName = upload.key.split('/').pop()
  const viaApp = await app.inject({ url: `/uploads/${ann.id}/${fileName}` })
  t.equal(viaApp.statusCode, 200)
  t.equal(viaApp.headers['content-type'], 'image/webp')
  t.equal(Number(viaApp.headers['content-length']), bytes.length)
  t.ok(viaApp.rawPayload.equals(bytes), 'the same bytes as the bucket holds')

  const [{ n: rows }] = await app.db<Array<{ n: number }>>`select count(*)::int as n from media where key = ${upload.key}`
  t.equal(rows, 1, 'one media row')

  const del = await app.inject({ method: 'DELETE', url: `/api/upload/image/${upload.key}`, headers: bearer(ann) })
  t.equal(del.statusCode, 200, del.body)
  t.same(json(del), { message: 'Image deleted' })
  t.equal((await fetch(upload.url)).status, 404, 'gone from the bucket')
  t.equal(await app.storage.get(upload.key), null)
  t.equal((await app.inject({ url: `/uploads/${ann.id}/${fileName}` })).statusCode, 404, 'and from the API')
  const [{ n: left }] = await app.db<Array<{ n: number }>>`select count(*)::int as n from media`
  t.equal(left, 0, 'no media row left')
})

t.test('with the bucket unreachable, an upload is a 503 and leaves no row', async t => {
  const app = await build(t, { env: s3Env(await closedPort()) })
  const bob = await registerUser(app)
  const form = fileForm('image', await pngImage(80, 60, '#d35400'), 'image/png')
  const res = await app.inject({ method: 'POST', url: '/api/upload/image', headers: { ...bearer(bob), ...form.headers }, payload: form.payload })
  t.equal(res.statusCode, 503, res.body)
  t.same(json(res), { error: 'Service temporarily unavailable' })
  const [{ n }] = await app.db<Array<{ n: number }>>`select count(*)::int as n from media`
  t.equal(n, 0, 'no media row')

  // The avatar takes the same path to the bucket.
  const avatar = fileForm('avatar', await pngImage(80, 60, '#2c3e50'), 'image/png')
  const res2 = await app.inject({ method: 'POST', url: '/api/users/avatar', headers: { ...bearer(bob), ...avatar.headers }, payload: avatar.payload })
  t.equal(res2.statusCode, 503, res2.body)
  const me = json(await app.inject({ url: '/api/auth/me', headers: bearer(bob) }))
  t.equal(me.user.avatarUrl, null, 'the avatar is unchanged')
  const [{ n: after }] = await app.db<Array<{ n: number }>>`select count(*)::int as n from media`
  t.equal(after, 0, 'still no media row')

  const ready = await app.inject({ url: '/readyz' })
  t.equal(ready.statusCode, 503)
  t.equal(json(ready).checks.storage, 'error', 'readiness names the storage')
})
