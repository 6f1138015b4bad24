// from-image takes what an upload takes and nothing else (decisions.md: JPEG, PNG, WebP, GIF first frame, within the
// upload bounds), and refuses the rest before anything decodes it. libvips reads SVG, TIFF, AVIF and more: an SVG
// holding a recipe's text used to be rendered and read by OCR. OCR threads are counted here (as in
// test/lib/ocr.test.ts), so "refused before OCR" is seen, not assumed.
import workerThreads from 'node:worker_threads'
import sharp from 'sharp'
import t from 'tap'

// Installed before tesseract.js loads (it takes `Worker` from worker_threads when its module is first required),
// hence the dynamic import of the app below.
const OriginalWorker = workerThreads.Worker
let ocrThreadsStarted = 0
class CountedWorker extends OriginalWorker {
  constructor (filename: string | URL, options?: workerThreads.WorkerOptions) {
    super(filename, options)
    if (/tesseract\.js/.test(String(filename))) ocrThreadsStarted++
  }
}
workerThreads.Worker = CountedWorker
const { bearer, build, json, pngHeaderClaiming, pngImage, registerUser } = await import('../../../helper.js')

type App = Awaited<ReturnType<typeof build>>
const fromImage = async (app: App, user: { token: string }, payload: Record<string, unknown>) =>
  await app.inject({ method: 'POST', url: '/api/recipe-import/from-image', headers: bearer(user), payload })
const base64 = (data: Buffer | string) => Buffer.from(data).toString('base64')

const LINES = ['Garlic Toast', '', 'Ingredients', '2 slices bread', '1 clove garlic', '2 tbsp butter', '', 'Method', '1. Toast the bread.', '2. Rub with garlic and butter.']
/** A recipe as an SVG: text OCR reads once libvips has drawn it. */
const recipeSvg = (width = 900, height = 80 + LINES.length * 56) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>` +
  LINES.map((line, i) => `<text x="40" y="${70 + i * 56}" font-family="DejaVu Sans, sans-serif" font-size="38" fill="black">${line}</text>`).join('') + '</svg>'

async function recipeCount (app: App, user: { token: string }): Promise<number> {
  const res = await app.inject({ url: '/api/auth/me', headers: bearer(user) })
  return json(res).user._count.recipes
}

t.test('SVG and other formats libvips reads are refused before decoding; the upload checks hold; OCR starts only for a good image', async t => {
  const app = await build(t)
  const ann = await registerUser(app)
  const svg = recipeSvg()
  const png = await pngImage(64, 48)
  const white = () => sharp({ create: { width: 400, height: 300, channels: 3, background: '#ffffff' } })

  const cases: Array<[string, Record<string, unknown>, number, string, RegExp]> = [
    ['an SVG recipe, no type declared', { image: base64(svg) }, 400, 'Invalid image', /content is not one of image\/jpeg, image\/png, image\/webp, image\/gif/],
    ['an SVG recipe with an XML declaration', { image: base64(`<?xml version="1.0"?>${svg}`) }, 415, 'Unsupported image type', /image: must be one of/],
    ['an SVG recipe as a data: URL of its type', { image: `data:image/svg+xml;base64,${base64(svg)}` }, 415, 'Unsupported image type', /image: must be one of/],
    ['an SVG recipe declared by mimeType', { image: base64(svg), mimeType: 'image/svg+xml' }, 415, 'Unsupported image type', /image: must be one of/],
    ['an SVG recipe declared as PNG', { image: base64(svg), mimeType: 'image/png' }, 400, 'Invalid image', /content is not image\/png/],
    // Decoding would have said "more than 40 megapixels": the type is refused first.
    ['an SVG claiming 100000 x 100000 px', { image: `data:image/svg+xml;base64,${base64(recipeSvg(100_000, 100_000))}` }, 415, 'Unsupported image type', /image: must be one of/],
    ['a TIFF', { image: base64(await white().tiff().toBuffer()) }, 415, 'Unsupported image type', /image: must be one of/],
    ['an AVIF', { image: base64(await white().avif().toBuffer()) }, 415, 'Unsupported image type', /image: must be one of/],
    ['a PNG declared as JPEG', { image: `data:image/jpeg;base64,${base64(png)}` }, 400, 'Invalid image', /content is not image\/jpeg/],
    ['a PNG followed by a script', { image: base64(Buffer.concat([png, Buffer.from('<script>alert(1)</script>')])) }, 400, 'Invalid image', /embedded markup/],
    ['a PNG followed by an archive', { image: base64(Buffer.concat([png, Buffer.from('PK\u0003\u0004zip')])) }, 400, 'Invalid image', /data after the end/],
    ['a 50000 x 50000 PNG header', { image: base64(pngHeaderClaiming(50_000, 50_000)) }, 400, 'Invalid image', /megapixels/]
  ]
  for (const [name, payload, status, error, detail] of cases) {
    const res = await fromImage(app, ann, payload)
    t.equal(res.statusCode, status, `${name}: ${status} (${res.body.slice(0, 200)})`)
    t.equal(json(res).success, false, `${name}: the import envelope`)
    t.equal(json(res).error, error, `${name}: ${error}`)
    t.match(JSON.stringify(json(res).details), detail, `${name}: details say why`)
  }
  t.equal(ocrThreadsStarted, 0, 'no OCR thread started for any of them')
  t.equal(await recipeCount(app, ann), 0, 'no recipe made')

  // The same recipe drawn as a PNG is read: the counter does see OCR.
  const drawn = await sharp(Buffer.from(svg)).png().toBuffer()
  const res = await fromImage(app, ann, { image: `data:image/png;base64,${base64(drawn)}`, mimeType: 'image/png' })
  t.equal(res.statusCode, 201, res.body)
  t.match(json(res).recipe.title, /Garlic Toast/i)
  t.ok(ocrThreadsStarted >= 1, 'OCR ran for the PNG')
  t.equal(await recipeCount(app, ann), 1)
})
