// One file from a multipart body: its bytes as they arrived, and `release`, which frees their memory at once rather
// than at the next full garbage collection (an idle server after a burst of 10 MB uploads may not run one).
import multipart from '@fastify/multipart'
import Fastify from 'fastify'
import { randomBytes } from 'node:crypto'
import t from 'tap'
import { MULTIPART_OPTIONS, singleFile, type ReceivedFile } from '../../lib/multipart-file.js'
import { fileForm } from '../helpers/images.js'

async function receiving (t: { teardown: (fn: () => Promise<void>) => void }, use: (file: ReceivedFile) => void) {
  const app = Fastify()
  t.teardown(async () => { await app.close() })
  await app.register(multipart, MULTIPART_OPTIONS)
  app.post('/', async request => {
    const file = await singleFile(request, 'image')
    use(file)
    return { ok: true }
  })
  return app
}

t.test('release frees the bytes of a large file at once; the file is empty after', async t => {
  const bytes = randomBytes(300_000)
  let seen: { before: boolean, length: number, detached: boolean, after: number } | null = null
  const app = await receiving(t, file => {
    const before = file.data.equals(bytes)
    file.release()
    file.release() // twice is harmless
    seen = { before, length: bytes.length, detached: (file.data.buffer as ArrayBuffer).detached, after: file.data.length }
  })
  const res = await app.inject({ method: 'POST', url: '/', ...fileForm('image', bytes, 'image/png') })
  t.equal(res.statusCode, 200)
  t.same(seen, { before: true, length: 300_000, detached: true, after: 0 }, 'the bytes arrived whole, then their memory was given back')
})

t.test('release leaves a small file alone: its memory may be a slab Node shares with other buffers', async t => {
  const bytes = randomBytes(500)
  const neighbour = Buffer.from('a small buffer allocated beside it')
  let after = -1
  const app = await receiving(t, file => {
    file.release()
    after = file.data.length
  })
  const res = await app.inject({ method: 'POST', url: '/', ...fileForm('image', bytes, 'image/png') })
  t.equal(res.statusCode, 200)
  t.equal(after, 500, 'a small file keeps its bytes (release only frees memory it knows to be the file\'s own)')
  t.equal(neighbour.toString(), 'a small buffer allocated beside it', 'and other buffers keep theirs')
})
