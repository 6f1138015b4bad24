// OCR (lib/recipe-import/ocr.ts) on a recipe drawn on the spot (an SVG rendered by sharp), without any network:
// the worker reads the model from @tesseract.js-data/eng on disk, and every OCR thread this file starts has its
// sockets and fetch disabled, so a download attempt would fail the recognition.
import { existsSync } from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import workerThreads from 'node:worker_threads'
import sharp from 'sharp'
import t from 'tap'
import { parseRecipeText } from '../../lib/recipe-import/text.js'

// Installed before tesseract.js loads (it takes `Worker` from worker_threads when its module is first required),
// hence the dynamic import below. Inside each worker: no socket can connect and fetch rejects.
const NO_NETWORK = `data:text/javascript,${encodeURIComponent(`
import net from 'node:net'
const refuse = what => { throw new Error('network access from the OCR worker: ' + what) }
net.Socket.prototype.connect = function () { refuse('socket') }
globalThis.fetch = async url => refuse(String(url))
`)}`
const OriginalWorker = workerThreads.Worker
let ocrThreadsStarted = 0
class GuardedWorker extends OriginalWorker {
  constructor (filename: string | URL, options: workerThreads.WorkerOptions = {}) {
    super(filename, { ...options, execArgv: [...(options.execArgv ?? process.execArgv), '--import', NO_NETWORK] })
    if (/tesseract\.js/.test(String(filename))) ocrThreadsStarted++
  }
}
workerThreads.Worker = GuardedWorker

// And in this thread: count connection attempts and fetches while the tests run.
let mainThreadRequests = 0
const originalConnect = net.Socket.prototype.connect
net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
  mainThreadRequests++
  return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args)
} as typeof net.Socket.prototype.connect
const originalFetch = globalThis.fetch
globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
  mainThreadRequests++
  return await originalFetch(...args)
}

const { createOcr, OCR_LIMITS, OCR_WORKER_OPTIONS, prepareOcrImage } = await import('../../lib/recipe-import/ocr.js')

const RECIPE = [
  'Banana Bread',
  'Serves 8',
  'Ingredients',
  '2 cups flour',
  '3 ripe bananas',
  '1 tsp baking soda',
  'Instructions',
  '1. Mash the bananas in a bowl.',
  '2. Stir in the flour and soda.',
  '3. Bake for 60 minutes.'
]

/** Black text on white, one <text> per line, large type. */
async function recipeImage (lines = RECIPE): Promise<Buffer> {
  const height = 60 + lines.length * 48
  const text = lines.map((line, i) => `<text x="40" y="${60 + i * 48}" font-family="DejaVu Sans, sans-serif" font-size="30" fill="#000">${line}</text>`)
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="${height}"><rect width="100%" height="100%" fill="#fff"/>${text.join('')}</svg>`
  return await sharp(Buffer.from(svg)).png().toBuffer()
}

t.test('the worker reads the model from disk and writes no cache', async t => {
  t.ok(path.isAbsolute(OCR_WORKER_OPTIONS.langPath), 'langPath is a local directory')
  t.notMatch(OCR_WORKER_OPTIONS.langPath, /^[a-z][a-z0-9+.-]*:/i, 'not a URL')
  t.match(OCR_WORKER_OPTIONS.langPath, /node_modules[/\\]@tesseract\.js-data[/\\]eng[/\\]/)
  t.ok(existsSync(path.join(OCR_WORKER_OPTIONS.langPath, 'eng.traineddata.gz')), 'the gzipped model is there')
  t.equal(OCR_WORKER_OPTIONS.gzip, true)
  t.equal(OCR_WORKER_OPTIONS.cacheMethod, 'none', 'no cache read or written')
})

t.test('a photographed recipe becomes a preview', async t => {
  const ocr = createOcr()
  t.teardown(async () => { await ocr.close() })
  const image = await recipeImage()

  const started = Date.now()
  const text = await ocr.recognize(image)
  t.comment(`first image (worker start included): ${Date.now() - started} ms`)
  t.match(text, /Banana Bread/)

  const preview = parseRecipeText(text)
  if (preview == null) throw new Error(`nothing recipe-like in the OCR output:\n${text}`)
  t.equal(preview.title, 'Banana Bread')
  t.equal(preview.servings, 8)
  t.same(preview.ingredients.map(i => i.text), ['2 cups flour', '3 ripe bananas', '1 tsp baking soda'])
  t.match(preview.ingredients[0], { name: 'flour', quantity: 2, unit: 'cup' })
  t.same(preview.instructions.map(s => s.text), ['Mash the bananas in a bowl.', 'Stir in the flour and soda.', 'Bake for 60 minutes.'])

  const again = Date.now()
  t.equal(await ocr.recognize(image), text, 'the same worker reads the same text again')
  t.comment(`second image: ${Date.now() - again} ms`)
  t.equal(ocrThreadsStarted, 1, 'one worker, started lazily and reused (through the guarded Worker)')

  // Queue: one image reading, one waiting, the next refused; a waiter that gives up leaves the queue.
  const busy = createOcr({ maxQueue: 1 })
  t.teardown(async () => { await busy.close() })
  const first = busy.recognize(image)
  const leaving = new AbortController()
  const second = busy.recognize(image, leaving.signal)
  await t.rejects(busy.recognize(image), { code: 'SERVICE_BUSY' }, 'queue full: 503')
  leaving.abort()
  await t.rejects(second, { code: 'REQUEST_ABANDONED' }, 'abandoned while waiting')
  const third = busy.recognize(image)
  t.match(await first, /Banana Bread/, 'the running image is not disturbed')
  t.match(await third, /Banana Bread/, 'the queue moves on')
  const gone = new AbortController()
  gone.abort()
  await t.rejects(busy.recognize(image, gone.signal), { code: 'REQUEST_ABANDONED' }, 'already abandoned')

  await t.rejects(ocr.recognize(Buffer.from('not an image at all')), { code: 'INVALID_IMAGE', statusCode: 400 }, 'bytes that do not decode: 400')

  t.equal(mainThreadRequests, 0, 'no request from this thread')
  t.notOk(existsSync('eng.traineddata'), 'nothing written to the working directory')
  t.notOk(existsSync(path.join(OCR_WORKER_OPTIONS.cachePath, 'eng.traineddata')), 'nor to the cache directory')
})

t.test('time limit, abandonment while reading, and close', async t => {
  const image = await recipeImage(RECIPE.slice(0, 4))
  // 50 ms cannot cover a worker's start: the image times out, and its worker is replaced on next use.
  const slow = createOcr({ timeoutMs: 50 })
  t.teardown(async () => { await slow.close() })
  await t.rejects(slow.recognize(image), { code: 'SERVICE_UNAVAILABLE' }, 'timed out: 503')

  const ocr = createOcr({ maxQueue: 2 })
  const reading = new AbortController()
  const abandoned = ocr.recognize(image, reading.signal)
  setTimeout(() => { reading.abort() }, 20)
  await t.rejects(abandoned, { code: 'REQUEST_ABANDONED' }, 'abandoned while reading')
  t.match(await ocr.recognize(image), /Banana Bread/, 'a fresh worker reads the next image')

  const running = ocr.recognize(image)
  const waiting = ocr.recognize(image)
  await ocr.close()
  await t.rejects(running, { code: 'SERVICE_UNAVAILABLE' }, 'close ends the running image')
  await t.rejects(waiting, { code: 'SERVICE_UNAVAILABLE' }, 'and the waiting one')
  await t.rejects(ocr.recognize(image), { code: 'SERVICE_UNAVAILABLE' }, 'closed: 503')
  await ocr.close()
  t.pass('close twice')
})

t.test('images are prepared as bounded greyscale PNG', async t => {
  const large = await sharp({ create: { width: 4000, height: 1000, channels: 3, background: '#ff8800' } }).jpeg().toBuffer()
  const prepared = await sharp(await prepareOcrImage(large)).metadata()
  t.match(prepared, { format: 'png', width: OCR_LIMITS.side, height: 625, channels: 1 }, 'longest side capped, greyscale')

  const small = await sharp({ create: { width: 300, height: 200, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer()
  const enlarged = await sharp(await prepareOcrImage(small)).metadata()
  t.match(enlarged, { width: 600, height: 400, channels: 1 }, 'small images enlarged (twice at most)')

  const turned = await sharp({ create: { width: 3000, height: 1500, channels: 3, background: '#ffffff' } }).jpeg().withMetadata({ orientation: 6 }).toBuffer()
  const upright = await sharp(await prepareOcrImage(turned)).metadata()
  t.match(upright, { width: 1250, height: 2500 }, 'EXIF rotation applied before the bound')

  await t.rejects(prepareOcrImage(Buffer.from('garbage')), { code: 'INVALID_IMAGE', statusCode: 400 })
})
