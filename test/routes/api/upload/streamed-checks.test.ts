// Uploads are hashed and scanned as their chunks arrive (lib/multipart-file.ts, lib/image-scan.ts): the checks decide
// as before wherever the file's pieces fall, and the stored hash is the hash of the bytes sent (so repeats are
// recognised). test/lib/image-scan.test.ts holds the scan to one pass over the whole file at every cut.
import { createHash } from 'node:crypto'
import zlib from 'node:zlib'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import sharp from 'sharp'
import t from 'tap'
import { bearer, build, fileForm, json, registerUser, type TestUser } from '../../../helper.js'

async function upload (app: FastifyInstance, user: TestUser, data: Buffer, type = 'image/png'): Promise<LightMyRequestResponse> {
  const form = fileForm('image', data, type)
  return await app.inject({ method: 'POST', url: '/api/upload/image', headers: { ...bearer(user), ...form.headers }, payload: form.payload })
}

/** A PNG of `side` x `side` noise (incompressible: about 3 bytes a pixel). */
async function noisePng (side: number, seed = 1): Promise<Buffer> {
  const pixels = Buffer.alloc(side * side * 3)
  let s = seed
  for (let i = 0; i < pixels.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    pixels[i] = s >>> 24
  }
  return await sharp(pixels, { raw: { width: side, height: side, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer()
}

/** A PNG chunk (length, type, data, CRC). */
function pngChunk (type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(zlib.crc32(body))
  return Buffer.concat([length, body, crc])
}

t.test('markup is found wherever it falls in a large upload; a clean one is stored with the hash of its bytes', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const png = await noisePng(700)
  t.ok(png.length > 1024 * 1024, `a ${(png.length / 1024 / 1024).toFixed(1)} MB PNG`)

  // A text chunk right after the header puts `<script>` across the given offset of the file: at a 64 kB boundary
  // (where socket chunks and the scan's windows are cut) and elsewhere.
  for (const offset of [64 * 1024, 3 * 64 * 1024 + 5, 500_000]) {
    const headerEnd = 8 + 25
    const label = Buffer.from('Comment\0', 'latin1')
    const filler = Buffer.alloc(offset - 4 - (headerEnd + 8 + label.length), 0x2e)
    const crafted = Buffer.concat([png.subarray(0, headerEnd), pngChunk('tEXt', Buffer.concat([label, filler, Buffer.from('<script>alert(1)</script>')])), png.subarray(headerEnd)])
    t.equal(crafted.indexOf('<script>') + 4, offset, `the tag straddles byte ${offset}`)
    const res = await upload(app, ann, crafted)
    t.equal(res.statusCode, 400, res.body)
    t.match(json(res).details, [/embedded markup/])
  }

  const stored = await upload(app, ann, png)
  t.equal(stored.statusCode, 201, stored.body)
  const [{ sourceHash }] = await app.db<Array<{ sourceHash: string }>>`select source_hash from media where key = ${json(stored).key as string}`
  t.equal(sourceHash, createHash('sha256').update(png).digest('hex'), 'the stored hash is the sha256 of the bytes sent')
  const again = await upload(app, ann, png)
  t.equal(again.statusCode, 200, 'the same bytes again are recognised')
  t.same(json(again), json(stored))
})

t.test('an upload is hashed once: the bytes that go through sha256 are about the file, not twice the file', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const png = await noisePng(600, 3)
  // Bytes hashed while the upload runs, whatever hashes them (the app's other hashes are small: tokens, keys).
  const { Hash } = await import('node:crypto')
  const update = Hash.prototype.update
  let hashed = 0
  Hash.prototype.update = function (this: unknown, data: string | NodeJS.ArrayBufferView, ...rest: unknown[]) {
    hashed += typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength
    return Reflect.apply(update, this, [data, ...rest])
  } as typeof update
  try {
    t.equal((await upload(app, ann, png)).statusCode, 201)
  } finally {
    Hash.prototype.update = update
  }
  t.ok(hashed >= png.length && hashed < 1.5 * png.length, `${hashed} bytes hashed for a file of ${png.length}`)
})
